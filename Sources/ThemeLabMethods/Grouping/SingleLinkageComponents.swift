import ThemeLabCore
import ThemeLabMeasures
import ThemeLabPairs

/// Connected components of "similarity ≥ t" (single linkage), read off the maximum spanning
/// forest the pass builds, so every threshold costs O(N) after one pass.
package struct SingleLinkageComponents: Grouping {
    package init() {}

    package var name: String { "components" }
    package func needs(items: Int) -> PassNeeds { PassNeeds(spanningForest: true) }

    package func groups(_ request: GroupingRequest, in pass: PassProducts) throws -> GroupingCut {
        GroupingCut(labels: try pass.spanningForest().labels(atLeast: try request.threshold()))
    }

    /// Every cut of the forest (each edge weight).
    package func ceiling(in pass: PassProducts, topics: [Int32], request: GroupingRequest) throws -> Ceiling? {
        let merges = try pass.spanningForest().edges.map { (Int($0.i), Int($0.j), $0.w) }
        return Ceiling(grouping: key, search: Ceiling.everyCut, BestCut(items: pass.vectors.rows, merges: merges, topics: topics))
    }
}

extension SingleLinkageComponents {
    /// Its registry entry (`groupingRegistry`).
    package static let entry = RegistryEntry<any Grouping>(
        "components", summary: "connected components of similarity ≥ t (single linkage, from the spanning forest)"
    ) { _ in SingleLinkageComponents() }
}
