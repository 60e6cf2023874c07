import Foundation

/// `leiden-sqrt(c,γ)`: Leiden communities (`Leiden`, modularity at resolution γ, default 2) of the symmetrised
/// k-nearest-neighbour graph with k = round(c·√N) (`NeighbourhoodSize`). `leiden(k,γ)` with a fixed k has no answer
/// when k ≥ N and splits a topic larger than about k into pieces; here k follows the corpus, so the graph is as
/// sparse on 12 entries as on 4 500. c and γ are chosen on the tuning corpora only (Experiments/rules-tuning.json).
struct LeidenSqrtGrouping: Grouping {
    var neighbourhood: NeighbourhoodSize
    var resolution: Double

    init(scale: Double, resolution: Double = 2) {
        neighbourhood = NeighbourhoodSize(scale: scale)
        self.resolution = resolution
    }

    init(_ parsed: RuleName) throws {
        try parsed.takes(atMost: 2)
        neighbourhood = try NeighbourhoodSize.parsed(parsed.argument, in: parsed.text)
        resolution = try NeighbourhoodSize.resolution(parsed, at: 1, fallback: 2)
    }

    var name: String { "leiden-sqrt(\(formatArgument(neighbourhood.scale))\(resolution == 2 ? "" : "," + formatArgument(resolution)))" }
    var kind: GroupingKind { .cutsItself }
    func needs(items: Int) -> PassNeeds {
        neighbourhood.neighbours(items: items).map { PassNeeds(neighbours: $0, neighbourGraphs: [$0]) } ?? PassNeeds()
    }

    func groups(_ request: GroupingRequest, in pass: PassProducts) throws -> GroupingCut {
        guard let k = neighbourhood.neighbours(items: pass.vectors.rows) else {
            return GroupingCut(labels: nil, note: neighbourhood.tooFewItems(name, items: pass.vectors.rows))
        }
        return GroupingCut(labels: Leiden(resolution: resolution, seed: request.seed).communities(try pass.neighbourGraph(k: k)))
    }

    /// Its own ceiling: the best γ at this corpus's k.
    func ceiling(in pass: PassProducts, topics: [Int32], ruled: [BestCut], request: GroupingRequest) throws -> Ceiling? {
        guard let k = neighbourhood.neighbours(items: pass.vectors.rows) else { return nil }
        let graph = try pass.neighbourGraph(k: k)
        return bestParameter(name, "γ", values: LeidenGrouping.resolutionGrid(resolution), topics: topics) {
            Leiden(resolution: $0, seed: request.seed).communities(graph)
        }
    }
}
