import Foundation
import ThemeLabCore
import ThemeLabMeasures
import ThemeLabPairs

/// `leiden-sqrt(c,γ)`: Leiden communities (`Leiden`, modularity at resolution γ, default 2) of the symmetrised
/// k-nearest-neighbour graph with k = round(c·√N) (`NeighbourhoodSize`). `leiden(k,γ)` with a fixed k has no answer
/// when k ≥ N and splits a topic larger than about k into pieces; here k follows the corpus, so the graph is as
/// sparse on 12 entries as on 4 500. c and γ are chosen on the tuning corpora only (Experiments/rules-tuning.json).
package struct LeidenSqrtGrouping: Grouping {
    package var parameters: ScaledNeighbourGraph
    package var neighbourhood: NeighbourhoodSize { parameters.neighbourhood }
    package var resolution: Double { parameters.resolution }

    package init(scale: Double, resolution: Double = 2) {
        parameters = ScaledNeighbourGraph(scale: scale, resolution: resolution, defaultResolution: 2)
    }

    package init(_ parsed: RuleName) { parameters = ScaledNeighbourGraph(parsed, defaultResolution: 2) }

    package var name: String { parameters.name("leiden-sqrt") }
    package var kind: GroupingKind { .cutsItself }
    package var dependsOn: RunDependence { .seed }
    package func needs(items: Int) -> PassNeeds { parameters.needs(items: items) }

    package func groups(_ request: GroupingRequest, in pass: PassProducts) throws -> GroupingCut {
        guard let k = neighbourhood.neighbours(items: pass.vectors.rows) else {
            return GroupingCut(labels: nil, note: neighbourhood.tooFewItems(name, items: pass.vectors.rows))
        }
        return GroupingCut(labels: try pass.leiden(k: k, resolution: resolution, seed: request.seed))
    }

    /// Its own ceiling: the best γ at this corpus's k.
    package func ceiling(in pass: PassProducts, topics: [Int32], request: GroupingRequest) throws -> Ceiling? {
        guard let k = neighbourhood.neighbours(items: pass.vectors.rows) else { return nil }
        return try bestParameter(key, "γ", values: LeidenGrouping.resolutionGrid(resolution), topics: topics) {
            try pass.leiden(k: k, resolution: $0, seed: request.seed)
        }
    }
}

extension LeidenSqrtGrouping {
    /// Its registry entry (`groupingRegistry`).
    package static let entry = RegistryEntry<any Grouping>(
        "leiden-sqrt", forms: ["leiden-sqrt(c)", "leiden-sqrt(c,γ)"], parameters: ScaledNeighbourGraph.parameters,
        summary: "Leiden on the k-nearest-neighbour graph with k = round(c·√N), resolution γ (default 2)",
        examples: ["leiden-sqrt(1)", "leiden-sqrt(1,2)"]
    ) { LeidenSqrtGrouping($0) }
}
