import Foundation
import ThemeLabCore
import ThemeLabMeasures
import ThemeLabPairs

/// `average-modularity(c,γ)`: average linkage's cut chosen without labels, as the one that maximises the modularity
/// (resolution γ, default 1) of the corpus's symmetrised k-nearest-neighbour graph, k = round(c·√N)
/// (`NeighbourhoodSize`). Average linkage's best threshold is the ceiling every method is measured against; the
/// threshold rules miss it because they read only the distribution of all pairs. Modularity asks of a cut what
/// topics are: more neighbour links inside groups than degree alone predicts (Newman 2006); a cut too high splits
/// topics (links cross groups), one too low joins them (the γ·K_c² term grows). Only the N − 1 cuts of the
/// dendrogram are candidates, so the answer is always one of average linkage's own partitions.
package struct AverageModularityGrouping: Grouping {
    package var parameters: ScaledNeighbourGraph
    package var neighbourhood: NeighbourhoodSize { parameters.neighbourhood }
    package var resolution: Double { parameters.resolution }

    package init(scale: Double, resolution: Double = 1) {
        parameters = ScaledNeighbourGraph(scale: scale, resolution: resolution, defaultResolution: 1)
    }

    package init(_ parsed: RuleName) { parameters = ScaledNeighbourGraph(parsed, defaultResolution: 1) }

    package var name: String { parameters.name("average-modularity") }
    package var kind: GroupingKind { .cutsItself }
    /// The dendrogram, and the neighbour graph at the corpus's k.
    package func needs(items: Int) -> PassNeeds {
        var needs = parameters.needs(items: items)
        needs.averageLinkage = true
        return needs
    }

    /// The sweep over the dendrogram's cuts, or why there is none.
    package func sweep(_ pass: PassProducts) throws -> Result<ModularitySweep, NoteOnly> {
        let n = pass.vectors.rows
        guard let k = neighbourhood.neighbours(items: n) else { return .failure(NoteOnly(neighbourhood.tooFewItems(name, items: n)!)) }
        switch try pass.dendrogram() {
        case .success(let tree): return .success(ModularitySweep(tree: tree, graph: try pass.neighbourGraph(k: k)))
        case .failure(let why): return .failure(NoteOnly("\(name): \(why)"))
        }
    }

    package func groups(_ request: GroupingRequest, in pass: PassProducts) throws -> GroupingCut {
        switch try sweep(pass) {
        case .success(let s): return GroupingCut(labels: s.groups(resolution: resolution))
        case .failure(let why): return GroupingCut(labels: nil, note: why.note)
        }
    }

    /// Its own ceiling: the best γ for this corpus's k.
    package func ceiling(in pass: PassProducts, topics: [Int32], request: GroupingRequest) throws -> Ceiling? {
        guard case .success(let s) = try sweep(pass) else { return nil }
        return bestParameter(key, "γ", values: LeidenGrouping.resolutionGrid(resolution), topics: topics) { s.groups(resolution: $0) }
    }
}

/// Why a grouping has no groups on a corpus: the note on its row.
package struct NoteOnly: Error {
    package var note: String
    package init(_ note: String) { self.note = note }
}

/// The modularity of a graph at every cut of a dendrogram, from one pass over its merges (most similar first):
/// after s merges, the weight inside groups I_s and Σ_c K_c² (K_c: total degree of group c) give
/// Q_s(γ) = I_s / m − γ Σ_c K_c² / (2m)², the formula of `modularity(_:membership:resolution:)`. Merging groups A and B
/// adds the weight between them to I and 2·K_A·K_B to Σ K²; the weight between them is summed over the smaller
/// group's edges (each item is on the smaller side at most log₂ N times: O(E log N) for E edges).
package struct ModularitySweep {
    package let tree: Dendrogram
    /// I_s and Σ_c K_c² for s = 0 … N − 1 merges.
    package private(set) var inside: [Double]
    package private(set) var squaredDegrees: [Double]
    package let totalWeight: Double

    package init(tree: Dendrogram, graph: WeightedGraph) {
        self.tree = tree
        totalWeight = graph.totalWeight
        let n = tree.items
        var group = (0..<n).map { $0 }
        var members = (0..<n).map { [$0] }
        var degree = graph.degree
        inside = [graph.loop.reduce(0, +)]
        squaredDegrees = [degree.reduce(0) { $0 + $1 * $1 }]
        for merge in Self.mostSimilarFirst(tree) {
            var (small, large) = (group[merge.a], group[merge.b])
            if members[small].count > members[large].count { swap(&small, &large) }
            var between = 0.0
            for v in members[small] {
                for e in graph.start[v]..<graph.start[v + 1] where group[Int(graph.target[e])] == large { between += graph.weight[e] }
            }
            for v in members[small] { group[v] = large }
            members[large] += members[small]
            members[small] = []
            inside.append(inside.last! + between)
            squaredDegrees.append(squaredDegrees.last! + 2 * degree[small] * degree[large])
            degree[large] += degree[small]
        }
    }

    /// The merges in the order the cuts take them: most similar first, ties in the order performed (as `Dendrogram.cut(groups:)`).
    package static func mostSimilarFirst(_ tree: Dendrogram) -> [AverageLinkage.Merge] {
        tree.merges.indices.sorted { (tree.merges[$0].similarity, -$0) > (tree.merges[$1].similarity, -$1) }.map { tree.merges[$0] }
    }

    /// Q after `merges` merges at resolution γ (NaN for a graph without edges).
    package func modularity(merges s: Int, resolution gamma: Double) -> Double {
        let m = totalWeight
        return m > 0 ? inside[s] / m - gamma * squaredDegrees[s] / (4 * m * m) : .nan
    }

    /// The cut of largest modularity (the fewest merges among equals); every item alone on a graph without edges.
    package func groups(resolution gamma: Double) -> [Int32] {
        var best = 0
        for s in inside.indices where modularity(merges: s, resolution: gamma) > modularity(merges: best, resolution: gamma) { best = s }
        return tree.cut(groups: tree.items - best)
    }
}

extension AverageModularityGrouping {
    /// Its registry entry (`groupingRegistry`).
    package static let entry = RegistryEntry<any Grouping>(
        "average-modularity", forms: ["average-modularity(c)", "average-modularity(c,γ)"], parameters: ScaledNeighbourGraph.parameters,
        summary: "average linkage's cut of highest modularity on the k = round(c·√N) neighbour graph (γ default 1)",
        examples: ["average-modularity(1)", "average-modularity(2,2)"]
    ) { AverageModularityGrouping($0) }
}
