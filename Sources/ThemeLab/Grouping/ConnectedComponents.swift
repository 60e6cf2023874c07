/// Connected components of the graph "similarity ≥ t" (single linkage cut at t), for several
/// thresholds in one streaming pass: a union-find per threshold, fed tile by tile.
/// Time O(pairs above the lowest threshold × thresholds), memory O(N × thresholds).
public final class ConnectedComponents: PairConsumer {
    public let thresholds: [Double]
    private var sets: [UnionFind]
    private let ascending: [Int]
    private let lowest: Float

    public init(items: Int, thresholds: [Double]) {
        self.thresholds = thresholds
        sets = thresholds.map { _ in UnionFind(count: items) }
        ascending = thresholds.indices.sorted { thresholds[$0] < thresholds[$1] }
        lowest = Float(thresholds.min() ?? .infinity)
    }

    public func consume(_ tile: SimilarityTile) {
        let cut = ascending.map { Float(thresholds[$0]) }
        for a in 0..<tile.rowCount {
            let row = tile.values + a * tile.stride
            let i = Int(tile.item[tile.rowStart + a])
            for b in tile.firstColumn(ofRow: a)..<tile.colCount where row[b] >= lowest {
                let v = row[b], j = Int(tile.item[tile.colStart + b])
                var k = 0
                while k < cut.count && cut[k] <= v {
                    sets[ascending[k]].union(i, j)
                    k += 1
                }
            }
        }
    }

    /// Component labels (by first appearance) for threshold number `index`.
    public func labels(_ index: Int) -> [Int32] { sets[index].labels() }
}
