import COpenBLAS
import Dispatch
import Foundation
import ThemeLabCore

/// Which pairs a statistic is about.
package enum PairClass: String, CaseIterable, Sendable, Codable, CodingKeyRepresentable {
    case all, related, unrelated
}

/// The outcome of one pass over all i<j pairs.
package struct PairDistribution: Sendable {
    /// Same-label pairs; empty when there are no labels.
    package var related: PairAccumulator
    /// Different-label pairs, or every pair when there are no labels.
    package var unrelated: PairAccumulator
    package var isLabeled: Bool
    /// Ascending similarities per class, kept when the pair count is small enough for exact quantiles.
    package var sortedRelated: [Float]?
    package var sortedUnrelated: [Float]?
    package var sortedAll: [Float]?

    package init(related: PairAccumulator, unrelated: PairAccumulator, isLabeled: Bool, sortedRelated: [Float]?, sortedUnrelated: [Float]?)
    {
        self.related = related
        self.unrelated = unrelated
        self.isLabeled = isLabeled
        self.sortedRelated = sortedRelated
        self.sortedUnrelated = sortedUnrelated
        if let r = sortedRelated, let u = sortedUnrelated { sortedAll = mergeSorted(r, u) }
    }

    package var all: PairAccumulator {
        var a = unrelated
        a.merge(related)
        return a
    }

    package func accumulator(_ c: PairClass) -> PairAccumulator? {
        switch c {
        case .all: return all
        case .related: return isLabeled ? related : nil
        case .unrelated: return isLabeled ? unrelated : nil
        }
    }

    /// Ascending values of a class, when the pass kept them.
    package func sortedValues(_ c: PairClass) -> [Float]? {
        switch c {
        case .all: return sortedAll
        case .related: return isLabeled ? sortedRelated : nil
        case .unrelated: return isLabeled ? sortedUnrelated : nil
        }
    }

    /// numpy's linear quantile of a class: exact from kept values, else from the fine histogram
    /// (error below one bin width).
    package func quantile(_ c: PairClass, _ q: Double) -> Double? {
        guard let a = accumulator(c), a.count > 0 else { return nil }
        if let values = sortedValues(c) { return exactQuantile(values, q) }
        return histogramQuantile(a, cumulative: cumulativeCounts(a), q)
    }

    /// Pairs of a class with similarity ≥ t: exact from kept values, else counted by fine bins
    /// (a bin straddling t counts when its left edge is ≥ t).
    package func count(_ c: PairClass, atLeast t: Double) -> Int {
        if let values = sortedValues(c) {
            var lo = 0
            var hi = values.count
            while lo < hi {
                let mid = (lo + hi) / 2
                if Double(values[mid]) < t { lo = mid + 1 } else { hi = mid }
            }
            return values.count - lo
        }
        guard let a = accumulator(c) else { return 0 }
        var n: UInt64 = 0
        for (b, count) in a.histogram.enumerated() where -1 + Double(b) * a.binWidth >= t { n += count }
        return Int(n)
    }

    package func statistics(_ c: PairClass) -> PairStatistics? {
        guard let a = accumulator(c), a.count > 0 else { return nil }
        if let values = sortedValues(c) { return PairStatistics(accumulator: a, quantile: { exactQuantile(values, $0) }, errorBound: 0) }
        let cumulative = cumulativeCounts(a)
        return PairStatistics(accumulator: a, quantile: { histogramQuantile(a, cumulative: cumulative, $0) }, errorBound: a.binWidth)
    }

}

package func mergeSorted(_ a: [Float], _ b: [Float]) -> [Float] {
    var out = [Float]()
    out.reserveCapacity(a.count + b.count)
    var i = 0
    var j = 0
    while i < a.count && j < b.count {
        if a[i] <= b[j] {
            out.append(a[i])
            i += 1
        } else {
            out.append(b[j])
            j += 1
        }
    }
    out.append(contentsOf: a[i...])
    out.append(contentsOf: b[j...])
    return out
}

/// The pairwise pass: every i<j cosine of N unit vectors, computed tile by tile with BLAS
/// (`ssyrk` on diagonal tiles, `sgemm` elsewhere) and streamed into histograms and consumers.
/// Memory is O(N·d + tile²); N×N is never held.
///
/// Items are first sorted by label, so a row's related pairs are one contiguous run of columns
/// and the histogram loop needs no per-pair label test.
package struct PairEngine: Sendable {
    package var bins: Int
    /// Largest tile edge in rows (a 2048² Float tile is 16 MiB); the pass takes it when it fits
    /// the cache, else a smaller power of two (`cacheTile`), and small N smaller tiles.
    package var tileSize: Int
    /// Up to this many pairs the pass also keeps the values, for exact quantiles.
    package var exactPairLimit: Int
    package var workers: Int

    package init(
        bins: Int = 65_536, tileSize: Int = 2048, exactPairLimit: Int = 2_000_000,
        workers: Int = ProcessInfo.processInfo.activeProcessorCount
    ) {
        precondition(bins >= 2 && tileSize >= 1 && workers >= 1)
        self.bins = bins
        self.tileSize = tileSize
        self.exactPairLimit = exactPairLimit
        self.workers = workers
    }

    /// Read from sysfs once per process, not once per pass.
    package static let lastLevelCache = CPUFeatures.lastLevelCacheBytes()

    /// `limit` when its tile and the two row panels it is computed from, 4·t·(t + 2d) bytes, fit
    /// the last-level cache (so the histogram and the consumers read the tile back from cache),
    /// else the largest power of two below it that fits, at least 256. Measured on this machine
    /// (32 MiB L3, d = 384): time at N = 20 000 is flat within 6% from t = 512 to 4096.
    package static func cacheTile(limit: Int, dimensions d: Int, cacheBytes: Int? = lastLevelCache) -> Int {
        let cache = cacheBytes ?? 32 << 20
        func fits(_ t: Int) -> Bool { 4 * t * (t + 2 * d) <= cache }
        guard !fits(limit), limit > 256 else { return limit }
        var t = 256
        while t * 2 < limit && fits(t * 2) { t *= 2 }
        return t
    }

    /// The tile edge the pass uses on N × d vectors: the cache's, at least four tiles a side when N allows, so both
    /// workers have tiles to take.
    package func tileEdge(items n: Int, dimensions d: Int) -> Int {
        Swift.max(1, Swift.min(Self.cacheTile(limit: tileSize, dimensions: d), n, Swift.max(256, (n + 3) / 4)))
    }

    /// The number of tile (ti, tj), ti ≤ tj, among the `side`·(`side` + 1)/2 tiles of the pass, numbered row by row.
    package static func tileNumber(_ ti: Int, _ tj: Int, side: Int) -> Int { ti * side - ti * (ti - 1) / 2 + (tj - ti) }

    /// The share of the pass's tiles that are bridge tiles (`PassBlock`): the 2·side − 1 on the diagonal and next to it.
    package func bridgeShare(items n: Int, dimensions d: Int) -> Double {
        let t = tileEdge(items: n, dimensions: d)
        let side = Double((n + t - 1) / t)
        return (2 * side - 1) / (side * (side + 1) / 2)
    }

    /// The tiles (ti, tj), ti ≤ tj, of a pass of `side` tiles a side, in tile-number order (`tileNumber`).
    package static func tilePairs(side: Int) -> [(Int, Int)] { (0..<side).flatMap { ti in (ti..<side).map { tj in (ti, tj) } } }

    /// How many of the N rows each of `shards` shards seeded with the bridge forest reads: the row blocks its own tiles
    /// touch (the tile order is walked once for all of them).
    package func rowsRead(items n: Int, dimensions d: Int, shards: Int) -> [Int] {
        let t = tileEdge(items: n, dimensions: d)
        let side = (n + t - 1) / t
        let tiles = Self.tilePairs(side: side)
        return PairShard.runs(side: side, shards: shards).map { run in
            Set(run.flatMap { [tiles[$0].0, tiles[$0].1] }).reduce(0) { $0 + Swift.min(t, n - $1 * t) }
        }
    }

    /// Runs the pass on one machine.
    /// - Parameters:
    ///   - x: unit vectors, one row per item.
    ///   - labels: one topic per row, or nil (then every pair is in the `all` class only).
    ///   - consumers: what else reads each tile (the spanning forest, the neighbour lists, average linkage).
    ///   - progress: tiles done and the total, as tiles finish.
    /// - Returns: the histograms and moments of every pair, per class.
    package func run(
        _ x: Matrix, labels: [Int32]? = nil, consumers: [PairConsumer] = [],
        progress: ((_ done: Int, _ total: Int) -> Void)? = nil
    ) -> PairDistribution {
        let layout = PassLayout(engine: self, items: x.rows, dimensions: x.cols, labels: labels, shard: .whole, consumers: consumers)
        let totals = accumulate(x.vectors(of: layout.positions), layout, consumers: consumers, progress: progress)
        return PassTotals.fold([totals], tiles: layout.tiles.count)
    }

    /// A pass that only hands the tiles to `consumers` (no histograms): a second pass for what
    /// the first one's results decide (HDBSCAN's tree, once the core distances are known).
    package func feed(_ x: Matrix, consumers: [PairConsumer]) {
        let layout = PassLayout(engine: self, items: x.rows, dimensions: x.cols, labels: nil, shard: .whole, consumers: consumers)
        _ = accumulate(x.vectors(of: layout.positions), layout, consumers: consumers, countsPairs: false)
    }

    /// The pass over one shard's tiles (`PairShard.tiles(side:)`): a partial state that `PairPartial.merge` folds with
    /// the other shards' into exactly the unsharded result. It reads from `x` only the rows its tiles touch.
    package func pass(
        _ x: any PassVectors, labels: [Int32]? = nil, shard: PairShard, consumers: [PairConsumer] = [],
        bridge: BridgeTiles = .computed, progress: ((_ done: Int, _ total: Int) -> Void)? = nil
    ) throws -> PairPartial {
        let layout = PassLayout(
            engine: self, items: x.rows, dimensions: x.cols, labels: labels, shard: shard, consumers: consumers, bridge: bridge)
        let totals = accumulate(try x.vectors(of: layout.positions), layout, consumers: consumers, progress: progress)
        return PairPartial(
            items: x.rows, dimensions: x.cols, tiles: layout.tiles.count, tileEdge: layout.edge, shard: shard,
            isLabeled: labels != nil, related: totals.related, unrelated: totals.unrelated, tileSums: totals.tileSums,
            relatedValues: totals.relatedValues, unrelatedValues: totals.unrelatedValues)
    }

    /// Every tile of `layout` through BLAS, its pairs counted (unless `countsPairs` is false) and handed to `consumers`.
    /// `sorted` holds the rows the tiles touch, in `layout.positions` order.
    /// The one function over 60 lines: the workers' loop shares the tile buffers, the label runs and the
    /// per-tile sums through pointers set up here, and splitting it would pass them all as arguments.
    func accumulate(
        _ sorted: Matrix, _ layout: PassLayout, consumers: [PairConsumer], progress: ((_ done: Int, _ total: Int) -> Void)? = nil,
        countsPairs: Bool = true
    ) -> PassTotals {
        let (d, t, tiles, blocks, firstRow) = (sorted.cols, layout.edge, layout.tiles, layout.blocks, layout.firstRow)
        let keep = layout.keepsValues
        let (order, runStart, runEnd) = (layout.order, layout.runStart, layout.runEnd)
        let related = (0..<workers).map { _ in WorkerTotals(bins: bins, keepValues: keep) }
        let unrelated = (0..<workers).map { _ in WorkerTotals(bins: bins, keepValues: keep) }
        /// Progress is reported one tile at a time.
        struct Delivery {
            package var progress: ((Int, Int) -> Void)?
            package var delivered = 0
        }
        let queue = WorkQueue(count: blocks.count, state: Delivery(progress: progress))
        let workerCount = Swift.max(1, Swift.min(workers, blocks.count))
        for consumer in consumers { consumer.prepare(workers: workerCount) }
        let sharedConsumers = UnsafeSendable(consumers)
        // Per tile: related sum, related sum of squares, unrelated sum, unrelated sum of squares.
        let tileSums = UnsafeMutablePointer<Double>.allocate(capacity: 4 * tiles.count)
        tileSums.initialize(repeating: 0, count: 4 * tiles.count)
        defer { tileSums.deallocate() }

        // Each worker takes whole tiles: a single-threaded BLAS Gram, then its histogram. Two
        // workers on two cores overlap one tile's Gram with another's histogram, and no BLAS
        // thread spins while the histogram runs.
        let blasThreads = openblas_get_num_threads()
        openblas_set_num_threads(1)
        defer { openblas_set_num_threads(blasThreads) }
        sorted.withUnsafePointer { a in
            order.withUnsafeBufferPointer { item in
                runStart.withUnsafeBufferPointer { starts in
                    runEnd.withUnsafeBufferPointer { ends in
                        let shared = UnsafeSendable((a: a, item: item.baseAddress!, starts: starts, ends: ends, sums: tileSums))
                        DispatchQueue.concurrentPerform(iterations: workerCount) { worker in
                            let (a, item, starts, ends, sums) = shared.value
                            let tile = UnsafeMutablePointer<Float>.allocate(capacity: t * t)
                            defer { tile.deallocate() }
                            while let job = queue.take() {
                                let block = blocks[job]
                                let (r0, c0, rc, cc) = (block.rowStart, block.colStart, block.rowCount, block.colCount)
                                let (rows, columns) = (a + firstRow[r0 / t] * d, a + firstRow[c0 / t] * d)
                                if block.isDiagonal {
                                    cblas_ssyrk(
                                        CblasRowMajor, CblasUpper, CblasNoTrans, Int32(rc), Int32(d), 1, rows, Int32(d), 0, tile, Int32(t))
                                } else {
                                    cblas_sgemm(
                                        CblasRowMajor, CblasNoTrans, CblasTrans, Int32(rc), Int32(cc), Int32(d), 1,
                                        rows, Int32(d), columns, Int32(d), 0, tile, Int32(t))
                                }
                                let view = SimilarityTile(
                                    rowStart: r0, rowCount: rc, colStart: c0, colCount: cc,
                                    isDiagonal: block.isDiagonal, values: tile, stride: t, item: item)
                                if countsPairs, let k = block.tile {
                                    histogram(view, starts: starts, ends: ends, related: related[worker], unrelated: unrelated[worker])
                                    (sums[4 * k], sums[4 * k + 1]) = related[worker].takeTileSums()
                                    (sums[4 * k + 2], sums[4 * k + 3]) = unrelated[worker].takeTileSums()
                                }
                                for consumer in sharedConsumers.value where block.tile != nil || consumer.takesBridgeTiles {
                                    consumer.consume(view, worker: worker)
                                }
                                queue.withState { d in
                                    d.delivered += 1
                                    d.progress?(d.delivered, blocks.count)
                                }
                            }
                        }
                    }
                }
            }
        }

        for consumer in consumers { consumer.finish() }
        func merged(_ parts: [WorkerTotals]) -> PairAccumulator {
            parts.map { $0.finish() }.reduce(into: PairAccumulator(bins: bins)) { $0.merge($1) }
        }
        return PassTotals(
            related: merged(related), unrelated: merged(unrelated),
            tileSums: Dictionary(uniqueKeysWithValues: layout.own.map { k in (k, (0..<4).map { tileSums[4 * k + $0] }) }),
            // Sorted, so a part's bytes do not depend on which worker took which tile (a requeued task writes the same part).
            relatedValues: keep ? related.flatMap { $0.exactValues! }.sorted() : nil,
            unrelatedValues: keep ? unrelated.flatMap { $0.exactValues! }.sorted() : nil, isLabeled: layout.isLabeled)
    }

    /// Positions sorted by label (stable), and each position's run [start, end) of same-label positions (itself alone
    /// without labels).
    package static func labelRuns(_ labels: [Int32]?, items n: Int) -> (order: [Int32], start: [Int], end: [Int]) {
        guard let l = labels else { return (Array(0..<Int32(n)), Array(0..<n), Array(1..<n + 1)) }
        let order = (0..<Int32(n)).sorted { (l[Int($0)], $0) < (l[Int($1)], $1) }
        var (start, end) = ([Int](repeating: 0, count: n), [Int](repeating: n, count: n))
        var s = 0
        while s < n {
            var e = s + 1
            while e < n && l[Int(order[e])] == l[Int(order[s])] { e += 1 }
            for p in s..<e { (start[p], end[p]) = (s, e) }
            s = e
        }
        return (order, start, end)
    }

    /// Adds each row's three runs (unrelated, related, unrelated) to the worker's totals.
    private func histogram(
        _ tile: SimilarityTile, starts: UnsafeBufferPointer<Int>, ends: UnsafeBufferPointer<Int>,
        related: WorkerTotals, unrelated: WorkerTotals
    ) {
        for a in 0..<tile.rowCount {
            let row = tile.values + a * tile.stride
            let first = tile.firstColumn(ofRow: a)
            let position = tile.rowStart + a
            let relLo = Swift.min(Swift.max(starts[position] - tile.colStart, first), tile.colCount)
            let relHi = Swift.min(Swift.max(ends[position] - tile.colStart, relLo), tile.colCount)
            unrelated.add(row + first, relLo - first)
            related.add(row + relLo, relHi - relLo)
            unrelated.add(row + relHi, tile.colCount - relHi)
        }
    }
}

/// How a pass gets the bridge tiles (`PassBlock`) its spanning forest reads besides the shard's own tiles.
package enum BridgeTiles: Sendable {
    /// A shard computes them (when a consumer takes them); it then reads every row.
    case computed
    /// The forest was seeded with the bridge forest (`BridgeForest`), which gives the same forest: none are computed,
    /// and the shard reads only the rows of its own tiles.
    case seeded
    /// The bridge forest itself: the bridge tiles alone, fed to the consumers; no pair is counted.
    case alone
}

/// A tile of the pass: one of the shard's own, or a bridge tile: another shard's tile on the diagonal or next to it,
/// fed only to the consumers that take them (`PairConsumer.takesBridgeTiles`). Bridge tiles give a shard's spanning
/// forest a tree over every item before its own tiles, as the whole pass's first tiles give its forest; without them
/// a shard's forest rejected few pairs and a quarter of the tiles cost more than all of them (N = 20 000, 4 shards:
/// 2.4–4.0 s against 1.9 s). They are 2 of every N/t + 1 tiles (4% at N = 200 000), not counted. Computed in every
/// shard they were 60% of a 16-way shard's own Gram at N = 200 000, so a sharded run computes their forest once
/// (`BridgeForest`, `BridgeTiles.seeded`). Blocks of 256 instead of the tile edge cost less but joined the items by
/// lighter paths: the 4 shards of N = 200 000 then took 105–118 s of CPU against 75–78 s.
package struct PassBlock {
    /// The tile's number in the pass (its pairs are counted); nil for a bridge tile.
    package var tile: Int?
    package var rowStart: Int, rowCount: Int, colStart: Int, colCount: Int
    package var isDiagonal: Bool { rowStart == colStart }

    package init(tile: Int?, rows r0: Int, columns c0: Int, edge: Int, items n: Int) {
        self.tile = tile
        (rowStart, colStart) = (r0, c0)
        (rowCount, colCount) = (Swift.min(edge, n - r0), Swift.min(edge, n - c0))
    }
}
