import CKernels
import Foundation
import ThemeLabCore

/// The maximum spanning forest of the complete similarity graph, built in the one pairwise pass.
/// Its edges with weight ≥ t join exactly the connected components of "similarity ≥ t" (single
/// linkage cut at t), so one pass answers every threshold, including ones chosen after the pass.
///
/// Streaming: a pair can be in the forest only if no path of strictly heavier pairs joins its
/// ends (cycle property). Workers test each pair against a snapshot of the forest built so far —
/// component labels of the forest cut at `levels` weights, plus a fast path for pairs below the
/// forest's lightest edge once it spans every item — and keep the few that pass as candidates.
/// When a worker's candidates fill its buffer, Kruskal folds them into the forest and a new
/// snapshot is published. Any maximum spanning forest gives the same components, so results do
/// not depend on the schedule. Memory O(N · levels + buffer); no N×N state.
///
/// With `cores` (HDBSCAN), each pair's weight is its mutual-reachability similarity
/// min(s, core_i, core_j), never above s, so the tests on s still reject safely.
package final class SpanningForest: PairConsumer, @unchecked Sendable {
    /// One edge: two items (i < j) and their cosine.
    package struct Edge: Codable, Sendable, Equatable {
        package var i: Int32, j: Int32, w: Float

        /// The edge between items a and b (either order) of weight w.
        static func between(_ a: Int, _ b: Int, w: Float) -> Edge { Edge(i: Int32(Swift.min(a, b)), j: Int32(Swift.max(a, b)), w: w) }
    }

    /// What workers test pairs against; immutable once published.
    package final class Snapshot: @unchecked Sendable {
        /// The heaviest level at which each item is joined to one root item (−∞ if never): two
        /// items are joined by a path no lighter than the smaller of their two reaches, so pairs
        /// below it are rejected without a lookup — nearly all pairs once the forest spans.
        package let reach: [Float]
        /// Descending cut weights; level k joins forest edges with weight ≥ levels[k].
        package let levels: [Float]
        /// Component of item i at level k, at [k * items + i] (built level by level, sequentially).
        package let labels: [Int32]

        package init(items: Int, forest: [Edge], levelCount: Int) {
            let f = forest.count
            var cuts: [Float] = []
            for k in 0..<Swift.min(levelCount, f) {
                let w = forest[(k + 1) * f / Swift.min(levelCount, f) - 1].w
                if cuts.last != w { cuts.append(w) }
            }
            levels = cuts
            let l = cuts.count
            var labels = [Int32](repeating: 0, count: items * l)
            var reach = [Float](repeating: -.infinity, count: items)
            labels.withUnsafeMutableBufferPointer { labels in
                var sets = UnionFind(count: items)
                var e = 0
                for (k, cut) in cuts.enumerated() {
                    while e < f && forest[e].w >= cut {
                        sets.union(Int(forest[e].i), Int(forest[e].j))
                        e += 1
                    }
                    // An item's root at this level is that of its root one level up (the same root, fewer steps).
                    let (level, above) = (labels.baseAddress! + k * items, labels.baseAddress! + Swift.max(k - 1, 0) * items)
                    for v in 0..<items { level[v] = Int32(sets.find(k == 0 ? v : Int(above[v]))) }
                }
                guard let root = forest.first.map({ Int($0.i) }) else { return }
                for k in (0..<l).reversed() {
                    let level = labels.baseAddress! + k * items
                    for v in 0..<items where level[v] == level[root] { reach[v] = cuts[k] }
                }
            }
            self.labels = labels
            self.reach = reach
        }

        /// True when the snapshot proves the pair is not in the maximum spanning forest.
        @inline(__always) package func rejects(_ i: Int, _ j: Int, _ w: Float) -> Bool {
            if w < Swift.min(reach[i], reach[j]) { return true }
            // The lightest level still strictly above w: its edges form a path heavier than w.
            var lo = 0
            var hi = levels.count
            while lo < hi {
                let mid = (lo + hi) / 2
                if levels[mid] > w { lo = mid + 1 } else { hi = mid }
            }
            guard lo > 0 else { return false }
            let level = (lo - 1) * reach.count
            return labels[level + i] == labels[level + j]
        }

        /// The columns b < n of one tile row whose pair (item, columns[b]) this snapshot does not reject (nor is NaN),
        /// written to `kept` in order, and their number: `rejects` on every pair, by `tl_forest_row` on `path`.
        func keep(
            row: UnsafePointer<Float>, _ n: Int, item: Int, columns: UnsafePointer<Int32>, columnReach: [Float], rowCap: Float,
            columnCap: [Float]?, path: KernelPath, into kept: inout [Int32]
        ) -> Int {
            levels.withUnsafeBufferPointer { l in
                labels.withUnsafeBufferPointer { b in
                    var snapshot = tl_forest_snapshot(
                        levels: l.baseAddress, level_count: Int32(l.count), labels: b.baseAddress, items: reach.count)
                    return tl_forest_row(
                        path.code, row, n, Int32(item), columns, reach[item], columnReach, rowCap, columnCap, &snapshot, &kept)
                }
            }
        }
    }

    /// One worker's candidates.
    package final class Buffer: @unchecked Sendable {
        package var edges: [Edge] = []
        /// Prim's room for a diagonal tile's columns as rows (`tl_prim`), kept for the worker's next diagonal tile.
        var columns: [Float] = []
    }

    package let items: Int
    /// Each item's core similarity, when the weights are mutual-reachability similarities.
    package let cores: [Float]?
    /// Candidates a worker holds before folding them in.
    package let capacity: Int
    package let levelCount: Int
    /// The C kernels' path for the test of each tile row (every path keeps the same pairs).
    package let path: KernelPath
    /// Guards `snapshot` and the counters (held briefly); `folding` guards `forest`.
    private let lock = NSLock()
    private let folding = NSLock()
    private var forest: [Edge] = []
    private var snapshot: Snapshot
    private var buffers: [Buffer] = []
    /// Pairs that passed the snapshot test, and how often the forest was rebuilt (for benchmarks).
    package private(set) var candidates = 0
    package private(set) var rebuilds = 0
    package private(set) var foldSeconds = 0.0

    package init(items: Int, levels: Int = 32, capacity: Int? = nil, cores: [Float]? = nil, path: KernelPath = .best) {
        precondition(cores.map { $0.count == items } ?? true)
        self.items = items
        self.path = path
        self.cores = cores
        self.levelCount = levels
        self.capacity = capacity ?? Swift.max(1 << 16, items)
        snapshot = Snapshot(items: items, forest: [], levelCount: levels)
    }

    /// A forest already built (for example merged from shards).
    package init(items: Int, edges: [Edge]) {
        self.items = items
        cores = nil
        levelCount = 32
        capacity = 0
        path = .best
        forest = Self.kruskal(items: items, edges)
        snapshot = Snapshot(items: items, forest: [], levelCount: 0)
        checkInvariants()
    }

    /// Starts the forest from `edges` (a bridge forest, `BridgeForest`): real pairs, so what they reject is out of the
    /// whole forest too. Before the first tile.
    package func seed(_ edges: [Edge]) {
        forest = Self.kruskal(items: items, edges, sorted: forest)
        snapshot = Snapshot(items: items, forest: forest, levelCount: levelCount)
    }

    /// The forest's edges, heaviest first (ties by item numbers).
    package var edges: [Edge] { forest }

    /// The weight of pair (i, j) at similarity s: s, or its mutual-reachability similarity.
    @inline(__always) package func weight(_ s: Float, _ i: Int, _ j: Int) -> Float {
        guard let cores else { return s }
        return Swift.min(s, cores[i], cores[j])
    }

    package func prepare(workers: Int) {
        while buffers.count < workers { buffers.append(Buffer()) }
    }

    /// A shard's forest also reads the bridge tiles: their edges are real pairs, so a pair they reject is out of the
    /// whole forest too (cycle property), and every edge of the whole forest is still in the forest of the shard that
    /// owns its tile; the merge's Kruskal over the parts' union gives the unsharded forest.
    package var takesBridgeTiles: Bool { true }

    package func consume(_ tile: SimilarityTile, worker: Int) {
        let buffer = buffers[worker]
        if tile.isDiagonal {
            buffer.edges.append(contentsOf: prim(tile, columns: &buffer.columns))
            if buffer.edges.count >= capacity { _ = fold(buffer) }
            return
        }
        var snap = lock.withLock { snapshot }
        let columnCap = columnCaps(tile)
        // Two blocks the forest does not join yet: bridge them with the tile's heaviest pair
        // first, so the snapshot can reject the rest instead of keeping every pair.
        let first = Int(tile.item[tile.rowStart])
        let other = Int(tile.item[tile.colStart])
        if !snap.rejects(first, other, -.infinity) {
            buffer.edges.append(heaviest(tile, columnCap: columnCap))
            snap = fold(buffer)
        }
        var columnReach = (0..<tile.colCount).map { snap.reach[Int(tile.item[tile.colStart + $0])] }
        var kept = [Int32](repeating: 0, count: tile.colCount)
        for a in 0..<tile.rowCount {
            let i = Int(tile.item[tile.rowStart + a])
            let count = snap.keep(
                row: tile.values + a * tile.stride, tile.colCount, item: i, columns: tile.item + tile.colStart,
                columnReach: columnReach, rowCap: cores?[i] ?? .infinity, columnCap: columnCap, path: path, into: &kept)
            for b in kept[..<count].lazy.map(Int.init) {
                let j = Int(tile.item[tile.colStart + b])
                buffer.edges.append(.between(i, j, w: weight(tile.values[a * tile.stride + b], i, j)))
            }
            if buffer.edges.count >= capacity {
                snap = fold(buffer)
                columnReach = (0..<tile.colCount).map { snap.reach[Int(tile.item[tile.colStart + $0])] }
            }
        }
    }

    package func finish() {
        for b in buffers where !b.edges.isEmpty { _ = fold(b) }
        buffers = []
        checkInvariants()
    }

    /// Kruskal over the forest and a worker's candidates; publishes the new snapshot. One fold
    /// at a time; the other worker keeps testing against the previous snapshot meanwhile.
    private func fold(_ buffer: Buffer) -> Snapshot {
        let taken = buffer.edges
        buffer.edges.removeAll(keepingCapacity: true)
        return folding.withLock {
            let start = Date()
            forest = Self.kruskal(items: items, taken, sorted: forest)
            let next = Snapshot(items: items, forest: forest, levelCount: levelCount)
            lock.withLock {
                snapshot = next
                candidates += taken.count
                rebuilds += 1
                foldSeconds += Date().timeIntervalSince(start)
            }
            return next
        }
    }

    /// Each column item's core similarity, the cap on its pairs' weights (mutual reachability); nil without cores.
    private func columnCaps(_ tile: SimilarityTile) -> [Float]? {
        cores.map { c in (0..<tile.colCount).map { c[Int(tile.item[tile.colStart + $0])] } }
    }

    /// The tile's heaviest pair (an off-diagonal tile: every cell is a pair), its column items' caps `columnCaps(tile)`.
    func heaviest(_ tile: SimilarityTile, columnCap: [Float]?) -> Edge {
        var best = -Float.infinity
        var at = (0, 0)
        for a in 0..<tile.rowCount {
            let rowCap = cores?[Int(tile.item[tile.rowStart + a])] ?? .infinity
            let b = tl_heaviest_row(path.code, tile.values + a * tile.stride, tile.colCount, rowCap, columnCap, &best)
            if b < tile.colCount { at = (a, b) }
        }
        let i = Int(tile.item[tile.rowStart + at.0])
        let j = Int(tile.item[tile.colStart + at.1])
        return .between(i, j, w: best)
    }

    /// The maximum spanning tree of a diagonal tile's items (dense Prim, O(t²)): only its edges
    /// can be in the whole forest. Diagonal tiles come first in the pass, so every item is in the
    /// forest before the snapshot test starts on the other tiles.
    package func prim(_ tile: SimilarityTile, columns: inout [Float]) -> [Edge] {
        let t = tile.rowCount
        guard t > 1 else { return [] }
        if columns.count < t * (t - 1) / 2 { columns = [Float](repeating: 0, count: t * (t - 1) / 2) }
        let item = { (a: Int32) in Int(tile.item[tile.rowStart + Int(a)]) }
        let caps = cores.map { c in (0..<Int32(t)).map { c[item($0)] } }
        var (parent, child, weight) = (
            [Int32](repeating: 0, count: t - 1), [Int32](repeating: 0, count: t - 1), [Float](repeating: 0, count: t - 1)
        )
        guard tl_prim(path.code, tile.values, tile.stride, Int32(t), caps, &columns, &parent, &child, &weight) == 1 else {
            fatalError("out of memory for the spanning tree of a \(t)-item tile")
        }
        return (0..<t - 1).map { .between(item(parent[$0]), item(child[$0]), w: weight[$0]) }
    }

    /// The maximum spanning forest of `edges`: heaviest first, ties by (i, j), so the result is
    /// one definite forest. `sorted` is a forest already in that order (merged, not re-sorted).
    package static func kruskal(items: Int, _ edges: [Edge], sorted: [Edge] = []) -> [Edge] {
        let fresh = inOrder(edges)
        var sets = UnionFind(count: items)
        var kept: [Edge] = []
        kept.reserveCapacity(Swift.min(items, sorted.count + fresh.count))
        var a = 0
        var b = 0
        while kept.count < items - 1 && (a < sorted.count || b < fresh.count) {
            let e: Edge
            if b == fresh.count || (a < sorted.count && precedes(sorted[a], fresh[b])) {
                e = sorted[a]
                a += 1
            } else {
                e = fresh[b]
                b += 1
            }
            if sets.union(Int(e.i), Int(e.j)) { kept.append(e) }
        }
        return kept
    }

    @inline(__always) package static func precedes(_ x: Edge, _ y: Edge) -> Bool { (x.w, y.i, y.j) > (y.w, x.i, x.j) }

    /// Edges heaviest first, ties by (i, j): a radix-friendly sort on one 64-bit key per edge
    /// (weight, then i), then equal (weight, i) runs put in j order.
    package static func inOrder(_ edges: [Edge]) -> [Edge] {
        let keys = edges.indices.map { k -> (UInt64, Int) in
            let bits = edges[k].w.bitPattern
            let ascending = bits & 0x8000_0000 != 0 ? ~bits : bits | 0x8000_0000  // order-preserving
            return (UInt64(~ascending) << 32 | UInt64(UInt32(bitPattern: edges[k].i)), k)
        }.sorted { $0.0 < $1.0 || ($0.0 == $1.0 && edges[$0.1].j < edges[$1.1].j) }
        return keys.map { edges[$0.1] }
    }

    /// Debug builds: traps naming the broken invariants (`invariantViolations`); compiled out of release builds.
    package func checkInvariants() {
        #if DEBUG
            let broken = Self.invariantViolations(items: items, edges: forest)
            precondition(broken.isEmpty, "spanning forest: \(broken.joined(separator: "; "))")
        #endif
    }

    /// What `edges` breaks of a forest's contract on `items` items: at most items − 1 edges, endpoints
    /// i < j in range, heaviest first with ties by (i, j), no cycle.
    package static func invariantViolations(items: Int, edges: [Edge]) -> [String] {
        var broken: [String] = []
        if edges.count > Swift.max(items - 1, 0) { broken.append("\(edges.count) edges on \(items) items") }
        var sets = UnionFind(count: items)
        for (k, e) in edges.enumerated() {
            guard 0 <= e.i && e.i < e.j && Int(e.j) < items else {
                broken.append("edge \(k) (\(e.i), \(e.j)) is not i < j within 0..<\(items)")
                continue
            }
            if k > 0 && !precedes(edges[k - 1], e) { broken.append("edge \(k) is out of order (heaviest first, ties by i, j)") }
            if !sets.union(Int(e.i), Int(e.j)) { broken.append("edge \(k) (\(e.i), \(e.j)) closes a cycle") }
        }
        return broken
    }

    /// Components of "similarity ≥ t", numbered by first appearance.
    package func labels(atLeast t: Double) -> [Int32] {
        UnionFind.groups(of: items, joining: forest.lazy.filter { Double($0.w) >= t }.map { (Int($0.i), Int($0.j)) })
    }
}
