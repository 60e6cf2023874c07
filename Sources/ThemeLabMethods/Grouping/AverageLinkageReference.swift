import ThemeLabCore
import ThemeLabMeasures
import ThemeLabPairs

/// Average linkage cut into k = the number of topics groups (label-informed reference).
package struct AverageLinkageReference: Grouping {
    package var name: String { "average-k" }
    package var kind: GroupingKind { .labelInformedReference }
    package func needs(items: Int) -> PassNeeds { PassNeeds(averageLinkage: true) }

    package func groups(_ request: GroupingRequest, in pass: PassProducts) throws -> GroupingCut {
        switch try pass.dendrogram() {
        case .success(let tree): return GroupingCut(labels: tree.cut(groups: try request.topics()))
        case .failure(let why): return GroupingCut(labels: nil, note: "\(why)")
        }
    }
}

extension AverageLinkageReference {
    /// Its registry entry (`groupingRegistry`).
    package static let entry = RegistryEntry<any Grouping>(
        "average-k", summary: "average linkage cut into the number of topics (label-informed reference)"
    ) { _ in AverageLinkageReference() }
}
