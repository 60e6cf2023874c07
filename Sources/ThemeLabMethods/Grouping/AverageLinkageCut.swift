import ThemeLabCore
import ThemeLabMeasures
import ThemeLabPairs

/// Exact average linkage (UPGMA on 1 − cosine) cut at similarity t.
package struct AverageLinkageCut: Grouping {
    package init() {}

    package var name: String { "average" }
    package func needs(items: Int) -> PassNeeds { PassNeeds(averageLinkage: true) }

    package func groups(_ request: GroupingRequest, in pass: PassProducts) throws -> GroupingCut {
        switch try pass.dendrogram() {
        case .success(let tree): return GroupingCut(labels: tree.cut(atSimilarity: try request.threshold()))
        case .failure(let why): return GroupingCut(labels: nil, note: "\(why)")
        }
    }

    /// Every cut of the dendrogram (each merge height).
    package func ceiling(in pass: PassProducts, topics: [Int32], request: GroupingRequest) throws -> Ceiling? {
        guard case .success(let tree) = try pass.dendrogram() else { return nil }
        let merges = tree.merges.map { ($0.a, $0.b, $0.similarity) }
        return Ceiling(grouping: key, search: Ceiling.everyCut, BestCut(items: pass.vectors.rows, merges: merges, topics: topics))
    }
}

extension AverageLinkageCut {
    /// Its registry entry (`groupingRegistry`).
    package static let entry = RegistryEntry<any Grouping>(
        "average", summary: "exact average linkage (UPGMA on 1 − cosine) cut at t"
    ) { _ in AverageLinkageCut() }
}
