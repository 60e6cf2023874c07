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

    /// One shard of an experiment grid (`grid`, its corpora loaded): its corpora one after another, priced as a local
    /// run is (`GridEstimate.figures`: embedding, passes, cells, comparisons; memory the largest stage twice over, the
    /// encoder, and what the run holds and writes). A rough bound: give --time for an unusual grid.
    package static func gridShard(
        _ grid: GridEstimate, cpus: Int, model: CostModel, memoryMiB: Int? = nil, minutes: Int? = nil
    ) throws -> SlurmResources {
        let f = grid.figures(cpus: cpus, model: model)
        let names = grid.corpora.compactMap(\.size).map { "\($0.name) (\($0.items) × \($0.dimensions))" }.joined(separator: ", ")
        return try SlurmResources(
            cpus: cpus, predictedMiB: f.peakBytes / 1_048_576, predictedSeconds: f.seconds, reason: "corpora \(names)",
            memoryMiB: memoryMiB,
            minutes: minutes)
    }
}
