import ThemeLabCore

/// Disjoint sets over 0..<n with union by size and path halving; inlinable, for the other stages' inner loops.
package struct UnionFind: Sendable {
    @usableFromInline var parent: [Int32]
    @usableFromInline var size: [Int32]

    @inlinable package init(count: Int) {
        parent = (0..<Int32(count)).map { $0 }
        size = [Int32](repeating: 1, count: count)
    }

    @inlinable package mutating func find(_ x: Int) -> Int {
        var x = Int32(x)
        while parent[Int(x)] != x {
            parent[Int(x)] = parent[Int(parent[Int(x)])]
            x = parent[Int(x)]
        }
        return Int(x)
    }

    /// Joins the sets of a and b; false when they were already one.
    @discardableResult @inlinable
    package mutating func union(_ a: Int, _ b: Int) -> Bool {
        var ra = find(a)
        var rb = find(b)
        guard ra != rb else { return false }
        if size[ra] < size[rb] { swap(&ra, &rb) }
        parent[rb] = Int32(ra)
        size[ra] += size[rb]
        return true
    }

    /// The groups of `count` items once every pair is joined, numbered by first appearance: a cut of a
    /// forest or dendrogram is the merges at or above its height, joined.
    package static func groups<Pairs: Sequence>(of count: Int, joining pairs: Pairs) -> [Int32] where Pairs.Element == (Int, Int) {
        var sets = UnionFind(count: count)
        for (a, b) in pairs { sets.union(a, b) }
        return sets.labels()
    }

    /// Group labels 0..<k numbered by first appearance.
    package mutating func labels() -> [Int32] {
        renumbered((0..<parent.count).map { Int32(find($0)) })
    }
}
