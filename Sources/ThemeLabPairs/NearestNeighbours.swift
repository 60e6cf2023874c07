import ThemeLabCore

/// Each item's `k` most similar other items, collected in the pairwise pass (a consumer): what the
/// neighbour-based threshold rules, HDBSCAN's core distances and Leiden's graph read.
/// Memory O(N · k · workers).
///
/// Per worker and item a list ordered by similarity (descending), ties by item number (ascending),
/// so the lists do not depend on which worker saw which tile. A pair is looked at only when it is
/// not below the row's or the column's current k-th value, which after the first tiles almost no
/// pair is (tested eight at a time). `finish` merges the workers' lists.
package final class NearestNeighbours: PairConsumer, @unchecked Sendable {
    /// One worker's lists: item i's at [i * k, i * k + k); similarity −∞ and item `Int32.max` where not yet filled.
    package final class Lists: @unchecked Sendable {
        package var values: [Float]
        package var indices: [Int32]
        package init(items: Int, k: Int) {
            values = [Float](repeating: -.infinity, count: items * k)
            indices = [Int32](repeating: .max, count: items * k)
        }
    }

    package let items: Int
    package let k: Int
    private var lists: [Lists]

    package init(items: Int, k: Int) {
        precondition(k >= 1)
        self.items = items
        self.k = k
        lists = [Lists(items: items, k: k)]
    }

    package func prepare(workers: Int) {
        while lists.count < workers { lists.append(Lists(items: items, k: k)) }
    }

    /// True when (w, j) comes before (v, i): more similar, or as similar and a lower item number.
    @inline(__always) package static func precedes(_ w: Float, _ j: Int32, _ v: Float, _ i: Int32) -> Bool { w > v || (w == v && j < i) }

    /// Puts item u at similarity w into item v's list (values at `top`, items at `index`) if it comes before the k-th.
    @inline(__always) package static func offer(
        _ top: UnsafeMutablePointer<Float>, _ index: UnsafeMutablePointer<Int32>, _ k: Int, _ v: Int, _ u: Int32, _ w: Float
    ) {
        let (values, items) = (top + v * k, index + v * k)
        guard Self.precedes(w, u, values[k - 1], items[k - 1]) else { return }
        var p = k - 1
        while p > 0 && Self.precedes(w, u, values[p - 1], items[p - 1]) {
            values[p] = values[p - 1]
            items[p] = items[p - 1]
            p -= 1
        }
        values[p] = w
        items[p] = u
    }

    /// The tile's column items and each one's current k-th value (lists at `top`), in buffers the caller deallocates.
    @inline(__always) package static func columns(
        of tile: SimilarityTile, top: UnsafeMutablePointer<Float>, k: Int
    ) -> (items: UnsafeMutableBufferPointer<Int32>, kth: UnsafeMutableBufferPointer<Float>) {
        let columns = UnsafeMutableBufferPointer<Int32>.allocate(capacity: tile.colCount)
        let columnKth = UnsafeMutableBufferPointer<Float>.allocate(capacity: tile.colCount)
        for b in 0..<tile.colCount {
            columns[b] = tile.item[tile.colStart + b]
            columnKth[b] = top[Int(columns[b]) * k + k - 1]
        }
        return (columns, columnKth)
    }

    package func consume(_ tile: SimilarityTile, worker: Int) {
        let k = self.k
        let list = lists[worker]
        list.values.withUnsafeMutableBufferPointer { top in
            list.indices.withUnsafeMutableBufferPointer { index in
                let (top, index) = (top.baseAddress!, index.baseAddress!)
                let (columns, columnKth) = Self.columns(of: tile, top: top, k: k)
                defer {
                    columns.deallocate()
                    columnKth.deallocate()
                }
                for a in 0..<tile.rowCount {
                    let row = tile.values + a * tile.stride
                    let i = tile.item[tile.rowStart + a]
                    let rowKth = top + Int(i) * k + k - 1
                    @inline(__always) func pair(_ b: Int) {
                        Self.offer(top, index, k, Int(i), columns[b], row[b])
                        Self.offer(top, index, k, Int(columns[b]), i, row[b])
                        columnKth[b] = top[Int(columns[b]) * k + k - 1]
                    }
                    var b = tile.firstColumn(ofRow: a)
                    if !tile.isDiagonal {
                        // Eight at a time against the row's k-th value and each column's (ties go to `offer`).
                        let wide = tile.colCount & ~7
                        var floor = SIMD8<Float>(repeating: rowKth.pointee)
                        while b < wide {
                            let v = UnsafeRawPointer(row + b).loadUnaligned(as: SIMD8<Float>.self)
                            let kth = UnsafeRawPointer(columnKth.baseAddress! + b).loadUnaligned(as: SIMD8<Float>.self)
                            let passing = (v .>= kth) .| (v .>= floor)
                            if any(passing) {
                                for l in 0..<8 where passing[l] { pair(b + l) }
                                floor = SIMD8(repeating: rowKth.pointee)
                            }
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
    }

    package func finish() {
        guard lists.count > 1 else { return }
        let merged = lists[0]
        for other in lists.dropFirst() {
            for v in 0..<items {
                let range = (v * k)..<(v * k + k)
                let best = (Array(zip(merged.values[range], merged.indices[range])) + Array(zip(other.values[range], other.indices[range])))
                    .sorted { Self.precedes($0.0, $0.1, $1.0, $1.1) }.prefix(k)
                merged.values.replaceSubrange(range, with: best.map(\.0))
                merged.indices.replaceSubrange(range, with: best.map(\.1))
            }
        }
        lists = [merged]
    }

    /// Item v's `count` (≤ k) highest similarities, descending; fewer when N − 1 < count.
    package func similarities(of v: Int, count: Int) -> ArraySlice<Float> {
        let list = lists[0].values[(v * k)..<(v * k + Swift.min(count, k))]
        return list.prefix { $0 > -.infinity }
    }

    /// Item v's `count` (≤ k) nearest items, most similar first (ties by item number).
    package func neighbours(of v: Int, count: Int) -> ArraySlice<Int32> {
        lists[0].indices[(v * k)..<(v * k + Swift.min(count, k))].prefix { $0 != .max }
    }

    /// Every item's `count` highest similarities, item by item.
    package func allSimilarities(count: Int) -> [Float] {
        (0..<items).flatMap { similarities(of: $0, count: count) }
    }
}

extension NearestNeighbours {
    /// HDBSCAN's core similarities: each item's (k − 1)-th highest similarity to another item (+∞ for k = 1,
    /// distance 0).
    package func coreSimilarities(k: Int) -> [Float] {
        precondition(k >= 1 && k - 1 <= self.k)
        guard k > 1 else { return [Float](repeating: .infinity, count: items) }
        return (0..<items).map { similarities(of: $0, count: k - 1).last ?? -.infinity }
    }
}
