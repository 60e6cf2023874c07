import Foundation
import ThemeLabCore
import ThemeLabMeasures
import ThemeLabPairs

/// Modularity with a resolution γ (Newman & Girvan 2004; Reichardt & Bornholdt 2006), as igraph's
/// `Graph.modularity(membership, weights, resolution)` computes it:
/// Q = 1/(2m) Σ_ij (A_ij − γ k_i k_j / (2m)) δ(c_i, c_j) = Σ_c [I_c / m − γ (K_c / 2m)²],
/// with I_c the weight inside community c (self-loops included) and K_c its total degree.
/// `degree` and `m` are the graph's own (`WeightedGraph.degree`, `totalWeight`), given by a caller that evaluates many
/// memberships of one graph.
package func modularity(
    _ graph: WeightedGraph, membership: [Int32], resolution gamma: Double, degree: [Double]? = nil, m: Double? = nil
) -> Double {
    let m = m ?? graph.totalWeight
    guard m > 0 else { return .nan }
    let communities = Int(membership.max() ?? -1) + 1
    var inside = [Double](repeating: 0, count: communities)
    var total = [Double](repeating: 0, count: communities)
    let degree = degree ?? graph.degree
    for v in 0..<graph.nodeCount {
        let c = Int(membership[v])
        total[c] += degree[v]
        inside[c] += graph.loop[v]
        for e in graph.start[v]..<graph.start[v + 1] where membership[Int(graph.target[e])] == membership[v] {
            inside[c] += graph.weight[e] / 2
        }
    }
    return zip(inside, total).reduce(0) { $0 + $1.0 / m - gamma * ($1.1 / (2 * m)) * ($1.1 / (2 * m)) }
}

/// The Leiden algorithm (Traag, Waltman & van Eck 2019) maximising modularity at resolution γ:
/// fast local moving of nodes (a queue of nodes whose neighbourhood changed), refinement of each
/// community into well-connected subcommunities (a singleton joins the subcommunity of largest
/// gain — the θ → 0 limit of the paper's randomised choice), aggregation by the refinement with
/// the unrefined communities as the start, repeated until no community changes; the whole
/// repeated from its own result until the quality stops rising (leidenalg's `n_iterations=-1`).
/// Node orders are seeded. The quality maximised is H = Σ_c (I_c − γ K_c² / (4m)) = m · Q.
package struct Leiden {
    package var resolution: Double
    package var seed: UInt64

    package init(resolution: Double, seed: UInt64) {
        self.resolution = resolution
        self.seed = seed
    }

    /// Community of each node, numbered by first appearance.
    package func communities(_ graph: WeightedGraph) -> [Int32] {
        var rng = SeededRandom(seed: seed)
        var membership = (0..<Int32(graph.nodeCount)).map { $0 }
        let (degree, m) = (graph.degree, graph.totalWeight)
        var quality = modularity(graph, membership: membership, resolution: resolution, degree: degree, m: m)
        for _ in 0..<50 {
            let next = once(graph, degree: degree, m: m, start: membership, rng: &rng)
            let q = modularity(graph, membership: next, resolution: resolution, degree: degree, m: m)
            guard q > quality + 1e-12 * abs(quality) else { break }
            (membership, quality) = (next, q)
        }
        return renumbered(membership)
    }

    /// One run of the algorithm from a partition of a graph with these degrees and total weight m.
    package func once(_ original: WeightedGraph, degree first: [Double], m: Double, start: [Int32], rng: inout SeededRandom) -> [Int32] {
        let twoM = 2 * m
        var graph = original
        var partition = start
        var node = (0..<Int32(original.nodeCount)).map { $0 }  // original node → node of `graph`
        var degree = first
        while true {
            moveNodes(graph, degree: degree, twoM: twoM, partition: &partition, rng: &rng)
            partition = renumbered(partition)
            let communities = groupCount(partition)
            if communities == graph.nodeCount { break }
            var refined = refine(graph, degree: degree, twoM: twoM, partition: partition, rng: &rng)
            // No subcommunity formed: aggregate by the communities themselves so the graph shrinks.
            if groupCount(refined) == graph.nodeCount { refined = partition }
            let aggregate = Self.aggregate(graph, by: refined)
            var next = [Int32](repeating: 0, count: aggregate.nodeCount)
            for v in 0..<graph.nodeCount { next[Int(refined[v])] = partition[v] }
            for v in node.indices { node[v] = refined[Int(node[v])] }
            (graph, partition, degree) = (aggregate, next, aggregate.degree)
        }
        return node.map { partition[Int($0)] }
    }

    /// Fast local moving: each node goes to the neighbouring (or an empty) community of largest
    /// gain; the neighbours outside its new community are queued again.
    package func moveNodes(_ g: WeightedGraph, degree: [Double], twoM: Double, partition: inout [Int32], rng: inout SeededRandom) {
        let n = g.nodeCount
        let gamma = resolution
        var total = [Double](repeating: 0, count: n)
        var size = [Int](repeating: 0, count: n)
        for v in 0..<n {
            total[Int(partition[v])] += degree[v]
            size[Int(partition[v])] += 1
        }
        var empty = (0..<n).filter { size[$0] == 0 }
        var queue = SeededRandom.permutation(count: n, seed: rng.next())
        var head = 0
        var queued = [Bool](repeating: true, count: n)
        var towards = [Double](repeating: 0, count: n)
        var touched: [Int] = []
        while head < queue.count {
            let v = queue[head]
            head += 1
            queued[v] = false
            let own = Int(partition[v])
            for e in g.start[v]..<g.start[v + 1] {
                let c = Int(partition[Int(g.target[e])])
                if towards[c] == 0 { touched.append(c) }
                towards[c] += g.weight[e]
            }
            total[own] -= degree[v]
            size[own] -= 1
            var best = own
            var bestGain = towards[own] - gamma * degree[v] * total[own] / twoM
            for c in touched where c != own {
                let gain = towards[c] - gamma * degree[v] * total[c] / twoM
                if gain > bestGain || (gain == bestGain && best != own && c < best) { (best, bestGain) = (c, gain) }
            }
            if bestGain < 0, size[own] > 0, let fresh = empty.popLast() { best = fresh }
            total[best] += degree[v]
            size[best] += 1
            if size[own] == 0 && own != best { empty.append(own) }
            for c in touched { towards[c] = 0 }
            touched.removeAll(keepingCapacity: true)
            guard best != own else { continue }
            partition[v] = Int32(best)
            for e in g.start[v]..<g.start[v + 1] {
                let u = Int(g.target[e])
                if !queued[u] && Int(partition[u]) != best {
                    queued[u] = true
                    queue.append(u)
                }
            }
        }
    }

    /// Within each community, singletons merged into well-connected subcommunities.
    package func refine(_ g: WeightedGraph, degree: [Double], twoM: Double, partition: [Int32], rng: inout SeededRandom) -> [Int32] {
        let n = g.nodeCount
        let gamma = resolution
        var communityTotal = [Double](repeating: 0, count: n)
        for v in 0..<n { communityTotal[Int(partition[v])] += degree[v] }
        var refined = (0..<Int32(n)).map { $0 }
        var total = degree
        var size = [Int](repeating: 1, count: n)
        // Weight from each subcommunity to the rest of its community (singletons at first).
        var outward = (0..<n).map { v in
            (g.start[v]..<g.start[v + 1]).reduce(0.0) {
                $0 + (v != Int(g.target[$1]) && partition[Int(g.target[$1])] == partition[v] ? g.weight[$1] : 0)
            }
        }
        let connected = outward
        var towards = [Double](repeating: 0, count: n)
        var touched: [Int] = []
        for v in SeededRandom.permutation(count: n, seed: rng.next()) where size[v] == 1 && refined[v] == Int32(v) {
            let whole = communityTotal[Int(partition[v])]
            guard connected[v] >= gamma * degree[v] * (whole - degree[v]) / twoM else { continue }
            for e in g.start[v]..<g.start[v + 1] {
                let u = Int(g.target[e])
                guard u != v, partition[u] == partition[v] else { continue }
                let c = Int(refined[u])
                if towards[c] == 0 { touched.append(c) }
                towards[c] += g.weight[e]
            }
            var best = v
            var bestGain = 0.0
            for c in touched where c != v && outward[c] >= gamma * total[c] * (whole - total[c]) / twoM {
                let gain = towards[c] - gamma * degree[v] * total[c] / twoM
                if gain > bestGain || (gain == bestGain && best != v && c < best) { (best, bestGain) = (c, gain) }
            }
            if best != v {
                refined[v] = Int32(best)
                outward[best] += connected[v] - 2 * towards[best]
                total[best] += degree[v]
                size[best] += 1
                size[v] = 0
            }
            for c in touched { towards[c] = 0 }
            touched.removeAll(keepingCapacity: true)
        }
        return renumbered(refined)
    }

    /// The graph of communities: edge weights between them summed, the weight inside each its self-loop.
    package static func aggregate(_ g: WeightedGraph, by community: [Int32]) -> WeightedGraph {
        let count = groupCount(community)
        var members = [[Int]](repeating: [], count: count)
        for v in 0..<g.nodeCount { members[Int(community[v])].append(v) }
        var start = [0]
        var target: [Int32] = []
        var weight: [Double] = []
        var loop = [Double](repeating: 0, count: count)
        var towards = [Double](repeating: 0, count: count)
        var touched: [Int] = []
        for c in 0..<count {
            for v in members[c] {
                loop[c] += g.loop[v]
                for e in g.start[v]..<g.start[v + 1] {
                    let d = Int(community[Int(g.target[e])])
                    if d == c {
                        loop[c] += g.weight[e] / 2
                        continue
                    }
                    if towards[d] == 0 { touched.append(d) }
                    towards[d] += g.weight[e]
                }
            }
            touched.sort()
            for d in touched {
                target.append(Int32(d))
                weight.append(towards[d])
                towards[d] = 0
            }
            touched.removeAll(keepingCapacity: true)
            start.append(target.count)
        }
        return WeightedGraph(start: start, target: target, weight: weight, loop: loop)
    }
}

extension PassProducts {
    /// Leiden's communities (`Leiden`) of the k-nearest-neighbour graph at this resolution and seed: computed once per
    /// space, whichever grouping or ceiling asks first.
    package func leiden(k: Int, resolution: Double, seed: UInt64) throws -> [Int32] {
        let graph = try neighbourGraph(k: k)
        return graphPartitions.partition(GraphPartitionKey(k: k, resolution: resolution, seed: seed)) {
            Leiden(resolution: resolution, seed: seed).communities(graph)
        }
    }
}

/// `leiden(k)`, `leiden(k,γ)`: Leiden communities of the symmetrised k-nearest-neighbour graph
/// weighted by similarity, maximising modularity at resolution γ (default 1), seeded by the
/// analysis's seed.
package struct LeidenGrouping: Grouping {
    package var neighbours: Int
    package var resolution: Double

    package init(neighbours: Int, resolution: Double = 1) {
        self.neighbours = neighbours
        self.resolution = resolution
    }

    /// From arguments its entry's parameters have checked.
    package init(_ parsed: RuleName) { self.init(neighbours: parsed.whole(at: 0)!, resolution: parsed.value(at: 1) ?? 1) }

    package var name: String { "leiden(\(neighbours)\(resolution == 1 ? "" : "," + formatArgument(resolution)))" }
    package var kind: GroupingKind { .cutsItself }
    package var dependsOn: RunDependence { .seed }
    package func needs(items: Int) -> PassNeeds { PassNeeds(neighbours: neighbours, neighbourGraphs: [neighbours]) }

    package func groups(_ request: GroupingRequest, in pass: PassProducts) throws -> GroupingCut {
        if let note = tooFewItems(name, neighbours: neighbours, items: pass.vectors.rows) { return GroupingCut(labels: nil, note: note) }
        return GroupingCut(labels: try pass.leiden(k: neighbours, resolution: resolution, seed: request.seed))
    }

    /// Its own ceiling: the best γ at this k.
    package func ceiling(in pass: PassProducts, topics: [Int32], request: GroupingRequest) throws -> Ceiling? {
        guard tooFewItems(name, neighbours: neighbours, items: pass.vectors.rows) == nil else { return nil }
        return try bestParameter(key, "γ", values: Self.resolutionGrid(resolution), topics: topics) {
            try pass.leiden(k: neighbours, resolution: $0, seed: request.seed)
        }
    }
}

extension LeidenGrouping {
    /// The resolutions a Leiden grouping's own ceiling searches, with its own.
    package static func resolutionGrid(_ own: Double) -> [Double] {
        Set([0.05, 0.1, 0.2, 0.3, 0.5, 0.7, 1, 1.5, 2, 3, 5, 8, own]).sorted()
    }
}

extension LeidenGrouping {
    /// Its registry entry (`groupingRegistry`).
    package static let entry = RegistryEntry<any Grouping>(
        "leiden", forms: ["leiden(k)", "leiden(k,γ)"],
        parameters: [.count("k", required: "the number of neighbours"), Parameter("the resolution γ", .above(0, atMost: nil))],
        summary: "Leiden communities of the k-nearest-neighbour graph, modularity at resolution γ (default 1)",
        examples: ["leiden(3)", "leiden(3,2)"]
    ) { LeidenGrouping($0) }
}
