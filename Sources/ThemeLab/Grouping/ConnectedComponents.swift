/// Connected components of the graph "similarity ≥ t" (single linkage cut at t), for several
/// thresholds in one streaming pass: a union-find per threshold and worker, fed tile by tile,
/// and the workers' forests joined at the end (union is associative).
/// Time O(pairs above the lowest threshold × thresholds), memory O(N × thresholds × workers).
public final class ConnectedComponents: PairConsumer {
    /// One worker's union-finds, one per threshold.
    final class Forest: @unchecked Sendable {
        var sets: [UnionFind]
        init(items: Int, count: Int) { sets = (0..<count).map { _ in UnionFind(count: items) } }
    }

    public let thresholds: [Double]
    private let items: Int
    private var forests: [Forest]
    private let ascending: [Int]
    private let lowest: Float

    public init(items: Int, thresholds: [Double]) {
        self.thresholds = thresholds
        self.items = items
        forests = [Forest(items: items, count: thresholds.count)]
        ascending = thresholds.indices.sorted { thresholds[$0] < thresholds[$1] }
        lowest = Float(thresholds.min() ?? .infinity)
    }

    public func prepare(workers: Int) {
        while forests.count < workers { forests.append(Forest(items: items, count: thresholds.count)) }
    }

    /// Joins every worker's forest into the first.
    public func finish() {
        let first = forests[0]
        for other in forests.dropFirst() {
            for t in thresholds.indices {
                for i in 0..<items {
                    let root = other.sets[t].find(i)
                    if root != i { first.sets[t].union(i, root) }
                }
            }
            other.sets = []
        }
        forests = [first]
    }

    public func consume(_ tile: SimilarityTile, worker: Int) {
        let forest = forests[worker]
        let cut = ascending.map { Float(thresholds[$0]) }
        for a in 0..<tile.rowCount {
            let row = tile.values + a * tile.stride
            let i = Int(tile.item[tile.rowStart + a])
            for b in tile.firstColumn(ofRow: a)..<tile.colCount where row[b] >= lowest {
                let v = row[b], j = Int(tile.item[tile.colStart + b])
                var k = 0
                while k < cut.count && cut[k] <= v {
                    forest.sets[ascending[k]].union(i, j)
                    k += 1
                }
            }
        }
    }

    /// Component labels (by first appearance) for threshold number `index`.
    public func labels(_ index: Int) -> [Int32] { forests[0].sets[index].labels() }
}
