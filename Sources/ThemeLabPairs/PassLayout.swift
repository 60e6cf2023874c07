import ThemeLabCore

/// Which tiles one pass computes, in what order, and which rows it reads: for a whole pass every tile, for a shard its
/// own (`PairShard.tiles(side:)`) with the bridge tiles its consumers take (`BridgeTiles`).
package struct PassLayout {
    /// The tile edge and the tiles of the upper triangle (row block, column block).
    let edge: Int
    let tiles: [(Int, Int)]
    /// The tiles whose pairs this pass counts.
    let own: [Int]
    /// Every tile this pass computes, diagonal first, then outward.
    let blocks: [PassBlock]
    /// The items read, in the order of the label-sorted positions of the row blocks the tiles touch.
    let positions: [Int]
    /// Block b's first row in the rows read (−1: not read).
    let firstRow: [Int]
    /// Positions sorted by label and each position's run of same-label positions (`PairEngine.labelRuns`).
    let order: [Int32], runStart: [Int], runEnd: [Int]
    let isLabeled: Bool
    /// Whether the pass keeps every similarity (N(N−1)/2 within the engine's limit).
    let keepsValues: Bool

    /// Diagonal tiles first, then outward: neighbouring label-sorted blocks hold the most similar pairs, which lets the
    /// spanning forest reject the rest early. A shard also feeds the consumers that ask for them the bridge tiles.
    init(
        engine: PairEngine, items n: Int, dimensions d: Int, labels: [Int32]?, shard: PairShard, consumers: [PairConsumer],
        bridge: BridgeTiles = .computed
    ) {
        precondition(labels == nil || labels!.count == n, "one label per row")
        (order, runStart, runEnd) = PairEngine.labelRuns(labels, items: n)
        (isLabeled, keepsValues) = (labels != nil, n * (n - 1) / 2 <= engine.exactPairLimit)
        let t = engine.tileEdge(items: n, dimensions: d)
        let side = (n + t - 1) / t
        let tiles = PairEngine.tilePairs(side: side)
        let own = bridge == .alone ? [] : shard.tiles(side: side)
        let owned = Set(own)
        let bridging = bridge == .alone || (bridge == .computed && shard.count > 1 && consumers.contains { $0.takesBridgeTiles })
        let bridges = bridging ? tiles.indices.filter { tiles[$0].1 - tiles[$0].0 <= 1 && !owned.contains($0) } : []
        blocks = (bridges + own).sorted { (tiles[$0].1 - tiles[$0].0, $0) < (tiles[$1].1 - tiles[$1].0, $1) }.map { k in
            PassBlock(tile: owned.contains(k) ? k : nil, rows: tiles[k].0 * t, columns: tiles[k].1 * t, edge: t, items: n)
        }
        // Only the row blocks the tiles touch are read, in position order.
        var (blockRow, read) = ([Int](repeating: -1, count: side), [Int]())
        for b in Set(blocks.flatMap { [$0.rowStart / t, $0.colStart / t] }).sorted() {
            blockRow[b] = read.count
            read += b * t..<Swift.min(n, (b + 1) * t)
        }
        (edge, self.tiles, self.own, firstRow) = (t, tiles, own, blockRow)
        positions = read.map { [order] in Int(order[$0]) }
    }
}

/// What a pass counted: the histograms of its own tiles, each tile's sums, and the similarities when kept.
package struct PassTotals {
    var related: PairAccumulator
    var unrelated: PairAccumulator
    /// Per tile: related sum, related sum of squares, unrelated sum, unrelated sum of squares.
    var tileSums: [Int: [Double]]
    var relatedValues: [Float]?
    var unrelatedValues: [Float]?
    var isLabeled: Bool

    /// The distribution of a pass from the totals of its parts (every tile in exactly one): histograms merged in part
    /// order, then the tile sums added in tile order, so the bits do not depend on how the tiles were split.
    static func fold(_ parts: [PassTotals], tiles: Int) -> PairDistribution {
        var related = PairAccumulator(bins: parts[0].related.histogram.count)
        var unrelated = related
        var sums: [Int: [Double]] = [:]
        for p in parts {
            related.merge(p.related)
            unrelated.merge(p.unrelated)
            sums.merge(p.tileSums) { a, _ in a }
        }
        for k in 0..<tiles {
            let s = sums[k]!
            related.sum += s[0]
            related.sumSquares += s[1]
            unrelated.sum += s[2]
            unrelated.sumSquares += s[3]
        }
        let kept = parts.allSatisfy { $0.relatedValues != nil && $0.unrelatedValues != nil }
        return PairDistribution(
            related: related, unrelated: unrelated, isLabeled: parts[0].isLabeled,
            sortedRelated: kept ? parts.flatMap { $0.relatedValues! }.sorted() : nil,
            sortedUnrelated: kept ? parts.flatMap { $0.unrelatedValues! }.sorted() : nil)
    }
}

extension PairShard {
    /// The whole pass, as one shard.
    package static let whole = PairShard(index: 0, count: 1)
}
