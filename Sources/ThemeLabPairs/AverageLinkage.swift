import CKernels
import ThemeLabCore

/// Average-linkage (UPGMA) agglomeration on cosine similarity, exact: the full dendrogram by
/// the nearest-neighbour chain (Murtagh 1983; Müllner 2011), with the Lance–Williams update
/// s(k, a∪b) = (n_a·s(k,a) + n_b·s(k,b))/(n_a + n_b). Average linkage is reducible, so the chain
/// gives the same dendrogram as merging the most similar pair at each step, and cuts at any
/// threshold or group count come from one dendrogram.
/// Memory: the condensed similarity matrix, N(N−1)/2 Float32s (800 MB at N = 20 000), filled by
/// the streaming pass. Time O(N²).
package final class AverageLinkage: PairConsumer {
    package static let maxItems = 25_000

    package struct Merge: Sendable, Equatable {
        package var a: Int
        package var b: Int
        /// Average similarity between the two merged groups.
        package var similarity: Float
    }

    package let items: Int
    /// Upper triangle, row by row; each tile writes only its own cells, so workers never collide.
    private var condensed: UnsafeMutableBufferPointer<Float>

    package init(items: Int) throws {
        guard items <= Self.maxItems else {
            throw ThemeLabError.input(
                "average linkage holds N(N−1)/2 similarities; \(items) items exceeds its limit of \(Self.maxItems) "
                    + "(\(Self.maxItems * (Self.maxItems - 1) / 2 * 4 / 1_000_000) MB)"
            )
        }
        self.items = items
        condensed = .allocate(capacity: items * (items - 1) / 2)
        condensed.initialize(repeating: 0)
    }

    deinit { condensed.deallocate() }

    @inline(__always) package func index(_ i: Int, _ j: Int) -> Int {
        let (a, b) = i < j ? (i, j) : (j, i)
        return a * items - a * (a + 1) / 2 + (b - a - 1)
    }

    package func consume(_ tile: SimilarityTile, worker: Int) {
        for a in 0..<tile.rowCount {
            let row = tile.values + a * tile.stride
            let i = Int(tile.item[tile.rowStart + a])
            for b in tile.firstColumn(ofRow: a)..<tile.colCount {
                condensed[index(i, Int(tile.item[tile.colStart + b]))] = row[b]
            }
        }
    }

    /// The N − 1 merges, by the nearest-neighbour chain (overwrites the similarity matrix: a merged-away group's
    /// similarities become −∞, so the scans need no test of which groups are left).
    package func dendrogram() -> Dendrogram {
        let n = items
        var active = [Bool](repeating: true, count: n)
        var size = [Int](repeating: 1, count: n)
        var merges: [Merge] = []
        var chain: [Int] = []
        var remaining = n
        var nextStart = 0
        while remaining > 1 {
            if chain.isEmpty {
                while !active[nextStart] { nextStart += 1 }
                chain.append(nextStart)
            }
            let a = chain[chain.count - 1]
            let previous = chain.count >= 2 ? chain[chain.count - 2] : -1
            let (found, best) = nearest(to: a, previous: previous)
            guard found == previous else {
                chain.append(found)
                continue
            }
            chain.removeLast(2)
            let (keep, drop) = a < found ? (a, found) : (found, a)
            merges.append(Merge(a: keep, b: drop, similarity: best))
            merge(keep, drop, sizes: Float(size[keep]), Float(size[drop]))
            active[drop] = false
            size[keep] += size[drop]
            remaining -= 1
        }
        let tree = Dendrogram(items: n, merges: merges)
        tree.checkInvariants()
        return tree
    }

    /// The group most similar to `a`, the first in item order among equals, unless none beats `previous` (the chain's
    /// last link, kept on a tie): a scan down column a (items before it), then along row a (items after it).
    private func nearest(to a: Int, previous: Int) -> (item: Int, similarity: Float) {
        var (b, best) = (previous, previous >= 0 ? condensed[index(a, previous)] : -Float.infinity)
        var position = a - 1
        for c in 0..<a {
            if condensed[position] > best { (b, best) = (c, condensed[position]) }
            position += items - c - 2
        }
        guard a + 1 < items else { return (b, best) }
        let start = index(a, a + 1)
        let row = UnsafeBufferPointer(rebasing: condensed[start..<start + items - a - 1])
        if let (offset, value) = firstMaximum(row), value > best { (b, best) = (a + 1 + offset, value) }
        return (b, best)
    }

    /// s(k, keep∪drop) = (n_keep·s(k, keep) + n_drop·s(k, drop))/(n_keep + n_drop) for every k (−∞ stays −∞), then
    /// drop's similarities become −∞.
    private func merge(_ keep: Int, _ drop: Int, sizes na: Float, _ nb: Float) {
        let n = items
        func average(_ p: Int, _ q: Int) { condensed[p] = (na * condensed[p] + nb * condensed[q]) / (na + nb) }
        // k < keep: down columns keep and drop; keep < k < drop: along row keep, down column drop (both step n − k − 2).
        var (p, q) = (keep - 1, drop - 1)
        for k in 0..<keep {
            average(p, q)
            (p, q) = (p + n - k - 2, q + n - k - 2)
        }
        p = index(keep, keep + 1)
        q += n - keep - 2
        for k in (keep + 1)..<drop {
            average(p, q)
            p += 1
            q += n - k - 2
        }
        // k > drop: along rows keep and drop, eight at a time (the same operations on each lane).
        let (rowKeep, rowDrop, count) = (index(keep, drop) + 1, drop + 1 < n ? index(drop, drop + 1) : 0, n - drop - 1)
        let (vna, vnb, total) = (SIMD8<Float>(repeating: na), SIMD8<Float>(repeating: nb), SIMD8<Float>(repeating: na + nb))
        let raw = UnsafeMutableRawPointer(condensed.baseAddress!)
        var k = 0
        while k + 8 <= count {
            let a = raw.loadUnaligned(fromByteOffset: 4 * (rowKeep + k), as: SIMD8<Float>.self)
            let b = raw.loadUnaligned(fromByteOffset: 4 * (rowDrop + k), as: SIMD8<Float>.self)
            raw.storeBytes(of: (vna * a + vnb * b) / total, toByteOffset: 4 * (rowKeep + k), as: SIMD8<Float>.self)
            k += 8
        }
        for k in k..<count { average(rowKeep + k, rowDrop + k) }
        // Drop's similarities: down its column, then along its row.
        q = drop - 1
        for k in 0..<drop {
            condensed[q] = -.infinity
            q += n - k - 2
        }
        for k in 0..<count { condensed[rowDrop + k] = -.infinity }
    }
}

/// The largest value and the first index holding it; nil for no values. Values are finite or −∞. By the C kernel's
/// `tl_first_maximum` on `path` (every path the same index).
func firstMaximum(_ values: UnsafeBufferPointer<Float>, path: KernelPath = .best) -> (index: Int, value: Float)? {
    guard let start = values.baseAddress, !values.isEmpty else { return nil }
    let index = tl_first_maximum(path.code, start, values.count)
    return (index, values[index])  // the stored value: max(+0, −0) may give either zero
}

/// A hierarchy of merges, cut at a similarity or at a number of groups.
package struct Dendrogram: Sendable {
    package let items: Int
    /// In the order performed; each names the surviving representative of two groups.
    package let merges: [AverageLinkage.Merge]
    /// The merges' indices, most similar first (the earlier first among equals): `cut(groups:)` takes a prefix.
    private let strongestFirst: [Int]

    package init(items: Int, merges: [AverageLinkage.Merge]) {
        (self.items, self.merges) = (items, merges)
        strongestFirst = merges.indices.sorted { (merges[$0].similarity, -$0) > (merges[$1].similarity, -$1) }
    }

    /// Debug builds: traps naming the broken invariants (`invariantViolations`); compiled out of release builds.
    package func checkInvariants() {
        #if DEBUG
            let broken = invariantViolations()
            precondition(broken.isEmpty, "dendrogram: \(broken.joined(separator: "; "))")
        #endif
    }

    /// How far a merge may rise above the merges that made its groups: Float's Lance–Williams averages of equal
    /// similarities (duplicate items) can round a unit in the last place above them.
    package static let heightTolerance = 8 * Float.ulpOfOne

    /// What the merges break of a dendrogram's contract: N − 1 merges, each of two live groups' representatives
    /// a < b (b is merged once, then gone), heights not above those of the merges that made the two groups (but for
    /// rounding, `heightTolerance`), and the sizes adding up to N.
    package func invariantViolations() -> [String] {
        var broken: [String] = []
        if merges.count != Swift.max(items - 1, 0) { broken.append("\(merges.count) merges on \(items) items") }
        var size = [Int](repeating: 1, count: items)
        var height = [Float](repeating: .infinity, count: items)
        for (k, m) in merges.enumerated() {
            guard 0 <= m.a && m.a < m.b && m.b < items, size[m.a] > 0, size[m.b] > 0 else {
                broken.append("merge \(k) (\(m.a), \(m.b)) is not of two live groups a < b within 0..<\(items)")
                continue
            }
            if m.similarity > Swift.min(height[m.a], height[m.b]) + Self.heightTolerance {
                broken.append("merge \(k) at \(m.similarity) is above a merge that made its groups")
            }
            size[m.a] += size[m.b]
            size[m.b] = 0
            height[m.a] = m.similarity
        }
        if items > 0 && size.max() != items { broken.append("no group holds all \(items) items") }
        return broken
    }

    /// Groups after every merge with similarity ≥ t. Heights are monotone for average linkage,
    /// so these merges form a forest that includes all their children.
    package func cut(atSimilarity t: Double) -> [Int32] {
        UnionFind.groups(of: items, joining: merges.lazy.filter { Double($0.similarity) >= t }.map { ($0.a, $0.b) })
    }

    /// Exactly `k` groups: the N − k most similar merges.
    package func cut(groups k: Int) -> [Int32] {
        UnionFind.groups(of: items, joining: strongestFirst.prefix(max(0, items - k)).map { (merges[$0].a, merges[$0].b) })
    }
}
