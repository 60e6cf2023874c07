import Foundation
import ThemeLabCore
import ThemeLabCorpus
import ThemeLabEncoder
import ThemeLabMeasures
import ThemeLabMethods
import ThemeLabPairs

/// The requests of ThemeLab's jobs, from the cost model (`CostModel.reference`, or one fitted to the user's own
/// `bench pairs` lines). Its time is measured on 2 cores and scaled by 2 / cpus.
extension SlurmResources {
    /// One shard of the pairwise pass, seeded with the bridge forest: it holds the rows its tiles touch
    /// (`PairEngine.rowsRead`) and a forest over all N items, and computes 1/n of the pairs.
    package static func pairsShard(
        items n: Int, dimensions d: Int, shards: Int, cpus: Int, model: CostModel, memoryMiB: Int? = nil, minutes: Int? = nil
    ) throws -> SlurmResources {
        let rows = PairEngine().rowsRead(items: n, dimensions: d, shards: shards).max() ?? n
        return try SlurmResources(
            cpus: cpus, predictedMiB: model.peakMiB(n: n, d: d, rows: rows),
            predictedSeconds: model.seconds(n: n, d: d) / Double(shards) * 2 / Double(cpus),
            reason: "one of \(shards) shards of the pass over \(n) × \(d) (\(rows) rows read)", memoryMiB: memoryMiB, minutes: minutes)
    }

    /// The bridge forest before the shards: the tiles on the diagonal and next to it, 2·side − 1 of side(side + 1)/2
    /// (`PairEngine.bridgeShare`), over all N rows.
    package static func pairsBridge(
        items n: Int, dimensions d: Int, cpus: Int, model: CostModel, memoryMiB: Int? = nil
    ) throws
        -> SlurmResources
    {
        try SlurmResources(
            cpus: cpus, predictedMiB: model.peakMiB(n: n, d: d),
            predictedSeconds: model.seconds(n: n, d: d) * PairEngine().bridgeShare(items: n, dimensions: d) * 2 / Double(cpus),
            reason: "the bridge forest of the pass over \(n) × \(d)", memoryMiB: memoryMiB)
    }

    /// The merge of n pass parts: each part's histograms (two classes), forest (≤ N − 1 edges) and, up to 2 000 000
    /// pairs, the exact values; a minute is plenty.
    package static func pairsMerge(items n: Int, shards: Int, bins: Int, memoryMiB: Int? = nil) throws -> SlurmResources {
        let pairs = Double(n) * Double(n - 1) / 2
        let perPart = Double(n) * 48 + Double(bins) * 2 * 8 * 2
        let bytes = 64 * 1_048_576 + Double(shards) * perPart + (pairs <= 2_000_000 ? pairs * 4 * 3 : 0)
        return try SlurmResources(
            cpus: 1, predictedMiB: bytes / 1_048_576, predictedSeconds: 60, reason: "merge of \(shards) parts of \(n) items",
            memoryMiB: memoryMiB)
    }

    /// One shard of an experiment grid: its corpora one after another, each embedded (≈ 100 sentences/s per encoder
    /// run on 2 cores, a floor for long texts) and passed over once per space and replicate, twice where HDBSCAN's
    /// tree needs a second pass; memory is the largest stage's need (`Validation.memoryNeeds`) twice over (two
    /// replicates side by side) plus 600 MiB for the encoder. A rough bound: give --time for an unusual grid.
    package static func gridShard(
        _ corpora: [ExperimentPlan.CorpusSize], settings: AnalysisSettings, encoderRuns: Int, cpus: Int, model: CostModel,
        memoryMiB: Int? = nil, minutes: Int? = nil
    ) throws -> SlurmResources {
        var seconds = 0.0
        var peak = 0.0
        for c in corpora {
            let passes = Double(settings.spaces.count * (1 + (settings.replicates ?? 0)) * 2)
            seconds += passes * model.seconds(n: c.items, d: c.dimensions) * 2 / Double(cpus)
            seconds += c.needsEncoder ? Double(c.items * encoderRuns * (1 + (settings.replicates ?? 0))) / 100 * 2 / Double(cpus) : 0
            let needs = Validation.memoryNeeds(settings, items: c.items, dimensions: c.dimensions, corpus: c.name)
            peak = max(peak, 2 * (needs.map(\.bytes).max() ?? 0) / 1_048_576 + (c.needsEncoder ? 600 : 0))
        }
        let names = corpora.map { "\($0.name) (\($0.items) × \($0.dimensions))" }.joined(separator: ", ")
        return try SlurmResources(
            cpus: cpus, predictedMiB: peak, predictedSeconds: seconds, reason: "corpora \(names)", memoryMiB: memoryMiB, minutes: minutes)
    }
}
