/// Each item's `k` highest similarities to other items, collected in the pairwise pass (a
/// consumer): what the neighbour-based threshold rules read. Memory O(N · k · workers).
///
/// Per worker and item a descending list; a pair is looked at only when it beats the row's or
/// the column's current k-th value, which after the first tiles almost no pair does (tested
/// eight at a time). `finish` merges the workers' lists.
public final class NearestNeighbours: PairConsumer, @unchecked Sendable {
    /// One worker's lists: item i's at [i * k, i * k + k), −∞ where not yet filled.
    final class Lists: @unchecked Sendable {
        var values: [Float]
        init(items: Int, k: Int) { values = [Float](repeating: -.infinity, count: items * k) }
    }

    public let items: Int
    public let k: Int
    private var lists: [Lists]

    public init(items: Int, k: Int) {
        precondition(k >= 1)
        self.items = items
        self.k = k
        lists = [Lists(items: items, k: k)]
    }

    public func prepare(workers: Int) {
        while lists.count < workers { lists.append(Lists(items: items, k: k)) }
    }

    public func consume(_ tile: SimilarityTile, worker: Int) {
        let k = self.k
        lists[worker].values.withUnsafeMutableBufferPointer { top in
            let top = top.baseAddress!
            /// Puts w into item v's list if it beats the k-th.
            func offer(_ v: Int, _ w: Float) {
                let list = top + v * k
                guard w > list[k - 1] else { return }
                var p = k - 1
                while p > 0 && list[p - 1] < w {
                    list[p] = list[p - 1]
                    p -= 1
                }
                list[p] = w
            }
            let columns = (0..<tile.colCount).map { Int(tile.item[tile.colStart + $0]) }
            var columnKth = columns.map { top[$0 * k + k - 1] }
            for a in 0..<tile.rowCount {
                let row = tile.values + a * tile.stride
                let i = Int(tile.item[tile.rowStart + a])
                func pair(_ b: Int) {
                    offer(i, row[b])
                    offer(columns[b], row[b])
                    columnKth[b] = top[columns[b] * k + k - 1]
                }
                var b = tile.firstColumn(ofRow: a)
                if !tile.isDiagonal {
                    // Eight at a time against the row's k-th value and each column's.
                    let wide = tile.colCount & ~7
                    while b < wide {
                        let v = UnsafeRawPointer(row + b).loadUnaligned(as: SIMD8<Float>.self)
                        let kth = columnKth.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: b * 4, as: SIMD8<Float>.self) }
                        let passing = (v .> kth) .| (v .> SIMD8(repeating: top[i * k + k - 1]))
                        if any(passing) { for l in 0..<8 where passing[l] { pair(b + l) } }
                        b += 8
                    }
                }
                while b < tile.colCount {
                    pair(b)
                    b += 1
                }
            }
        }
    }

    public func finish() {
        guard lists.count > 1 else { return }
        var merged = lists[0].values
        for other in lists.dropFirst() {
            for v in 0..<items {
                let mine = merged[(v * k)..<(v * k + k)]
                let theirs = other.values[(v * k)..<(v * k + k)]
                let best = (Array(mine) + Array(theirs)).sorted(by: >).prefix(k)
                merged.replaceSubrange((v * k)..<(v * k + k), with: best)
            }
        }
        lists = [Lists(items: 0, k: k)]
        lists[0].values = merged
    }

    /// Item v's `count` (≤ k) highest similarities, descending; fewer when N − 1 < count.
    public func similarities(of v: Int, count: Int) -> ArraySlice<Float> {
        let list = lists[0].values[(v * k)..<(v * k + Swift.min(count, k))]
        return list.prefix { $0 > -.infinity }
    }

    /// Every item's `count` highest similarities, item by item.
    public func allSimilarities(count: Int) -> [Float] {
        (0..<items).flatMap { similarities(of: $0, count: count) }
    }
}
