/// Average linkage cut into k = the number of topics groups (label-informed reference).
struct AverageLinkageReference: Grouping {
    public var name: String { "average-k" }
    public var kind: GroupingKind { .labelInformedReference }
    func needs(items: Int) -> PassNeeds { PassNeeds(averageLinkage: true) }

    public func groups(_ request: GroupingRequest, in pass: PassProducts) throws -> GroupingCut {
        switch try pass.dendrogram() {
        case .success(let tree): return GroupingCut(labels: tree.cut(groups: try request.topics()))
        case .failure(let why): return GroupingCut(labels: nil, note: "\(why)")
        }
    }
}
