import Foundation
import ThemeLabCore
import ThemeLabCorpus
import ThemeLabEncoder
import ThemeLabMeasures
import ThemeLabMethods
import ThemeLabPairs

/// How the replicates behind a corpus's estimates were drawn.
package struct ReplicateSet: Codable, Sendable, Equatable {
    package var count: Int
    /// "re-drawn with seeds 1 to 10", or the resampling scheme with its seeds.
    package var scheme: String
    /// Items per replicate.
    package var items: Estimate
    package var interval: String =
        "95% percentile bootstrap of the mean over replicates (\(PercentileBootstrap.defaultResamples) resamples)"
}

extension CorpusAnalysis {
    /// Adds to every figure of this analysis its estimate over `replicates` (the same settings run
    /// on each replicate corpus), matched by space, class, rule and grouping.
    package mutating func attach(replicates: [CorpusAnalysis], scheme: String, seed: UInt64) {
        let bootstrap = PercentileBootstrap(count: replicates.count, seed: seed)
        self.replicates = ReplicateSet(
            count: replicates.count, scheme: scheme, items: bootstrap.estimate(replicates.map { Double($0.corpus.items) }))
        for s in spaces.indices {
            let name = spaces[s].space
            let reps = replicates.map { r in r.spaces.first { $0.space == name } }
            spaces[s].attach(reps, bootstrap)
        }
    }
}

extension CorpusAnalysis {
    /// The resamples this analysis's estimates were drawn with (nil without replicates). A figure
    /// derived later from per-replicate values (a paired difference, a ratio) must use these same ones.
    package func replicateBootstrap(seed: UInt64) -> PercentileBootstrap? {
        replicates.map { PercentileBootstrap(count: $0.count, seed: seed) }
    }
}

extension SpaceAnalysis {
    package mutating func attach(_ reps: [SpaceAnalysis?], _ bootstrap: PercentileBootstrap) {
        let labeled = statistics[.related] != nil
        var stats: [PairClass: [PairStatistics.Statistic: Estimate]] = [:]
        for c in statistics.keys {
            for key in PairStatistics.Statistic.allCases {
                stats[c, default: [:]][key] = bootstrap.estimate(reps.map { $0?.statistics[c]?.value(key) })
            }
        }
        replicateStatistics = stats
        if separation != nil {
            var out: [Separation.Figure: Estimate] = [:]
            for key in Separation.Figure.allCases {
                let values = reps.map { $0?.separation?.value(key) }
                out[key] = bootstrap.estimate(values)
                out[key]?.values = values
            }
            replicateSeparation = out
        }
        for t in thresholds.indices {
            let rule = thresholds[t].rule
            let outcomes = reps.map { $0?.thresholds.first { $0.rule == rule } }
            thresholds[t].replicates = bootstrap.estimate(outcomes.map { $0?.value })
            guard labeled else { continue }
            let related = reps.map { $0?.statistics[.related]?.count }
            thresholds[t].replicatePairs = [
                .precision: bootstrap.estimate(
                    outcomes.map { o in o?.relatedAbove.flatMap { r in o?.pairsAbove.map { $0 > 0 ? Double(r) / Double($0) : 1 } } }),
                .recall: bootstrap.estimate(
                    zip(outcomes, related).map { o, n in o?.relatedAbove.flatMap { r in n.map { $0 > 0 ? Double(r) / Double($0) : 1 } } }),
            ].compactMapValues { $0 }
        }
        for g in groupings.indices {
            let (grouping, rule) = (groupings[g].grouping, groupings[g].rule)
            let rows = reps.map { $0?.groupings.first { $0.grouping == grouping && $0.rule == rule } }
            groupings[g].replicateARI = rows.map { $0?.recovery?.ari }
            guard rows.contains(where: { $0?.groups != nil }) else { continue }
            var metrics: [Metric: Estimate] = [:]
            for metric in Metric.recovery {
                metrics[metric] = bootstrap.estimate(
                    rows.map { row in metric == .groups ? row?.groups.map(Double.init) : row?.recovery?.value(metric) })
            }
            if rows.contains(where: { $0?.noise != nil }) {
                metrics[.noiseShare] = bootstrap.estimate(rows.map { row in row?.groups == nil ? nil : row?.noise?.share ?? 0 })
            }
            groupings[g].replicates = metrics
        }
        for c in (ceilings ?? []).indices {
            let grouping = ceilings![c].grouping
            let aris = reps.map { $0?.ceilings?.first { $0.grouping == grouping }?.ari }
            ceilings![c].replicateARI = aris
            ceilings![c].replicates = bootstrap.estimate(aris)
        }
    }
}
