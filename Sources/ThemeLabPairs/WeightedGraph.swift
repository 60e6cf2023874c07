import Foundation
import ThemeLabCore

/// An undirected weighted graph in compressed rows: node v's neighbours are
/// `target[start[v]..<start[v + 1]]` (each edge stored from both ends), its self-loop `loop[v]`.
package struct WeightedGraph: Sendable {
    package var start: [Int]
    package var target: [Int32]
    package var weight: [Double]
    package var loop: [Double]

    package var nodeCount: Int { start.count - 1 }
    /// k_v: the weights of v's edges, a self-loop counted twice (igraph's convention).
    package var degree: [Double] {
        (0..<nodeCount).map { v in weight[start[v]..<start[v + 1]].reduce(2 * loop[v], +) }
    }
    /// m: every edge once, self-loops included.
    @inlinable package var totalWeight: Double { weight.reduce(0, +) / 2 + loop.reduce(0, +) }

    /// The graph of `edges` (i ≠ j, each once) on `nodes` nodes.
    package init(nodes: Int, edges: [(i: Int32, j: Int32, w: Double)]) {
        var count = [Int](repeating: 0, count: nodes + 1)
        for e in edges {
            count[Int(e.i) + 1] += 1
            count[Int(e.j) + 1] += 1
        }
        for v in 0..<nodes { count[v + 1] += count[v] }
        start = count
        var next = Array(count.dropLast())
        target = [Int32](repeating: 0, count: 2 * edges.count)
        weight = [Double](repeating: 0, count: 2 * edges.count)
        for e in edges {
            for (a, b) in [(e.i, e.j), (e.j, e.i)] {
                target[next[Int(a)]] = b
                weight[next[Int(a)]] = e.w
                next[Int(a)] += 1
            }
        }
        loop = [Double](repeating: 0, count: nodes)
    }

    package init(start: [Int], target: [Int32], weight: [Double], loop: [Double]) {
        self.start = start
        self.target = target
        self.weight = weight
        self.loop = loop
    }

    /// The symmetrised k-nearest-neighbour graph: an edge where either item is among the other's k
    /// most similar, weighted by their similarity; edges of similarity ≤ 0 are left out (modularity
    /// needs non-negative weights).
    package static func nearestNeighbours(_ lists: NearestNeighbours, k: Int) -> WeightedGraph {
        var keys: [(key: UInt64, w: Float)] = []
        keys.reserveCapacity(lists.items * k)
        for v in 0..<lists.items {
            for (u, s) in zip(lists.neighbours(of: v, count: k), lists.similarities(of: v, count: k)) where s > 0 {
                let (a, b) = (min(Int32(v), u), max(Int32(v), u))
                keys.append((UInt64(a) << 32 | UInt64(b), s))
            }
        }
        keys.sort { $0.key < $1.key }
        var edges: [(i: Int32, j: Int32, w: Double)] = []
        for (n, e) in keys.enumerated() where n == 0 || keys[n - 1].key != e.key {
            edges.append((Int32(e.key >> 32), Int32(truncatingIfNeeded: e.key), Double(e.w)))
        }
        return WeightedGraph(nodes: lists.items, edges: edges)
    }
}
