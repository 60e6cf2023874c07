import Foundation
import ThemeLabCore
import ThemeLabCorpus
import ThemeLabEncoder
import ThemeLabMeasures
import ThemeLabMethods
import ThemeLabPairs
import ThemeLabStudy

/// How far each label-free threshold rule falls short of the best threshold for one grouping:
/// regret = ceiling ARI † − rule ARI, per corpus, with the worst case absolute and relative to
/// the ceiling. A rule without a threshold on a corpus counts as ARI 0 there. With replicates, each
/// regret also has its 95% interval: per replicate, that replicate's ceiling − the rule's ARI; the
/// relative regret over replicates is mean regret / mean ceiling, its interval the bootstrap of that ratio.
package struct RegretTable: Sendable {
    package struct Row: Sendable {
        package var corpus: String
        package var topics: Int
        package var relatedShare: Double?
        package var ceiling: Ceiling
        /// Rule name → regret.
        package var regret: [String: Double]
        /// Rule name → regret over replicates (empty without replicates).
        package var regretEstimate: [String: Estimate] = [:]
        /// Rule name → the 95% interval of mean regret / mean ceiling over replicates.
        package var relativeInterval: [String: (low: Double, high: Double)] = [:]
    }

    package struct Worst: Sendable {
        package var regret: Double
        package var relative: Double
        package var corpus: String
        /// With replicates on every row: the largest lower and the largest upper bound of the relative
        /// regret's interval over the same rows (a bound on the worst case's interval).
        package var relativeLow: Double?
        package var relativeHigh: Double?
    }

    package var grouping: String
    /// The columns: threshold rules with `grouping`, then groupings that choose their own cuts.
    package var rules: [String]
    package var rows: [Row]
    /// Rules that read more than the all-pairs distribution (neighbours, the dendrogram), and the
    /// groupings that cut themselves: drawn solid.
    package var localRules: Set<String>
    /// The columns that are groupings choosing their own cuts (HDBSCAN, Leiden), not rules.
    package var ownCuts: Set<String>

    /// Rows from every labeled analysis's `space` that has a ceiling for `grouping`; `settings` are
    /// the experiment's (which rules it ran). `alongside`: groupings that choose their own cuts,
    /// measured against this grouping's ceiling as columns of their own.
    package init(
        analyses: [CorpusAnalysis], grouping: String, settings: AnalysisSettings, space: String = "centred", alongside: [String] = []
    ) {
        self.grouping = grouping
        let cutsItself = Set(settings.groupings.filter { $0.kind == .cutsItself }.map(\.name))
        ownCuts = cutsItself.intersection(alongside + [grouping])
        localRules = Set(settings.rules.filter { $0.neighbours > 0 || $0.needsDendrogram }.map(\.name)).union(ownCuts)
        var rules: [String] = []
        rows = analyses.compactMap { a in
            guard let s = a.spaces.first(where: { $0.space == space }), let c = s.ceilings?.first(where: { $0.grouping == grouping }) else {
                return nil
            }
            var regret: [String: Double] = [:]
            var estimates: [String: Estimate] = [:]
            var relative: [String: (low: Double, high: Double)] = [:]
            let bootstrap = a.replicateBootstrap(seed: settings.seed)
            for g in s.groupings where (g.grouping == grouping || alongside.contains(g.grouping)) && !g.labelInformed {
                guard let rule = g.rule ?? (cutsItself.contains(g.grouping) ? g.grouping : nil) else { continue }
                if !rules.contains(rule) { rules.append(rule) }
                regret[rule] = c.ari - (g.recovery?.ari ?? 0)
                if let bootstrap, let ceilings = c.replicateARI, let aris = g.replicateARI, ceilings.allSatisfy({ $0 != nil }) {
                    let (top, regrets) = (ceilings.map { $0! }, zip(ceilings, aris).map { $0! - ($1 ?? 0) })
                    estimates[rule] = bootstrap.estimate(regrets)
                    relative[rule] = bootstrap.interval { idx in
                        let ceiling = idx.reduce(0) { $0 + top[Int($1)] }
                        return ceiling > 0 ? idx.reduce(0) { $0 + regrets[Int($1)] } / ceiling : 0
                    }
                }
            }
            return Row(
                corpus: a.corpus.name, topics: a.corpus.topics ?? 0, relatedShare: a.corpus.relatedPairShare, ceiling: c, regret: regret,
                regretEstimate: estimates, relativeInterval: relative)
        }
        self.rules = rules
    }

    /// Below this ceiling ARI no threshold recovers the topics, and a relative regret would
    /// divide by almost nothing: such rows are shown but left out of the worst case.
    package static let meaningfulCeiling = 0.1

    /// The largest relative regret (regret / ceiling) of `rule` over the rows `include` keeps.
    package func worst(_ rule: String, where include: (Row) -> Bool = { _ in true }) -> Worst? {
        let kept = rows.filter { include($0) && $0.ceiling.ari >= Self.meaningfulCeiling }
        guard
            var worst = kept.compactMap({ r in r.regret[rule].map { Worst(regret: $0, relative: $0 / r.ceiling.ari, corpus: r.corpus) } })
                .max(by: { ($0.relative, $0.regret) < ($1.relative, $1.regret) })
        else { return nil }
        let bounds = kept.map { $0.relativeInterval[rule] }
        if !bounds.isEmpty, bounds.allSatisfy({ $0 != nil }) {
            worst.relativeLow = bounds.map { $0!.0 }.max()
            worst.relativeHigh = bounds.map { $0!.1 }.max()
        }
        return worst
    }

    /// Corpus rows, then the worst case over all rows and over `subset` (a label and a filter).
    package func markdown(subset: (label: String, include: (Row) -> Bool)) -> String {
        let searched = rows.first?.ceiling.parameter ?? "threshold"
        var out = "| corpus | topics | related share | ceiling ARI † (\(searched)) | " + rules.joined(separator: " | ") + " |\n"
        out += "|---|---|---|---|" + String(repeating: "---|", count: rules.count) + "\n"
        for r in rows {
            let best = rules.compactMap { r.regret[$0] }.min()
            let at = r.ceiling.parameter == nil ? formatShort(r.ceiling.threshold) : formatArgument(r.ceiling.threshold)
            out +=
                "| \(r.corpus) | \(r.topics) | \(r.relatedShare.map { String(format: "%.2f%%", 100 * $0) } ?? "n/a") | "
                + "\(formatShort(r.ceiling.ari)) (\(at)) | "
                + rules.map { rule in
                    r.regret[rule].map {
                        withInterval($0 == best ? "**\(formatShort($0))**" : formatShort($0), r.regretEstimate[rule])
                    }
                        ?? "n/a"
                }.joined(separator: " | ") + " |\n"
        }
        for (label, include) in [("all corpora", { (_: Row) in true }), subset] {
            out +=
                "| **worst, \(label)** | | | | "
                + rules.map { rule in
                    worst(rule, where: include).map(formatWorst)
                        ?? "n/a"
                }.joined(separator: " | ") + " |\n"
        }
        return out
    }

    /// The worst regret at each number of topics (log axis), one line per rule, with a band from the
    /// largest lower to the largest upper interval bound there (replicates); the rules that read only
    /// the all-pairs distribution are dashed, the neighbour and dendrogram rules solid.
    package func plot() -> String {
        let topicCounts = Set(rows.map(\.topics)).sorted()
        let series = rules.map { rule in
            let readsMore = localRules.contains(rule)
            let band = topicCounts.compactMap { t -> (x: Double, low: Double, high: Double)? in
                let e = rows.filter { $0.topics == t }.map { $0.regretEstimate[rule] }
                guard !e.isEmpty, e.allSatisfy({ $0 != nil }) else { return nil }
                return (Double(max(t, 1)), e.map { $0!.low }.max()!, e.map { $0!.high }.max()!)
            }
            return SVGPlot.Series(
                label: rule,
                points: topicCounts.compactMap { t in
                    rows.filter { $0.topics == t }.compactMap { $0.regret[rule] }.max().map { (x: Double(max(t, 1)), y: $0) }
                }, dashed: !readsMore, band: band)
        }
        return SVGPlot.lines(
            title: "Worst regret at each topic count — \(grouping), centred space"
                + (rows.contains { !$0.regretEstimate.isEmpty } ? " (bands: 95% intervals)" : ""),
            xLabel: "topics in the corpus",
            yLabel: "ceiling ARI − rule ARI (worst corpus)", series: series, logX: true)
    }
}

/// A share as a whole percentage: "59%".
package func formatPercent(_ x: Double) -> String { String(format: "%.0f%%", 100 * x) }

/// The bounds of a worst case's relative regret to a tenth of a percent (the largest lower and upper interval ends over
/// the corpora; the default is chosen by the upper), ", bounds [51.2%, 66.0%]"; empty without replicates.
package func formatBounds(_ w: RegretTable.Worst) -> String {
    guard let low = w.relativeLow, let high = w.relativeHigh else { return "" }
    return String(format: ", bounds [%.1f%%, %.1f%%]", 100 * low, 100 * high)
}

/// A worst case at the corpora's own draws, labelled as such when bounds follow: "own draw 0.661 (88%, bounds [52.3%, 62.5%])".
package func formatWorst(_ w: RegretTable.Worst) -> String {
    (w.relativeLow == nil ? "" : "own draw ") + "\(formatShort(w.regret)) (\(formatPercent(w.relative))\(formatBounds(w)))"
}
