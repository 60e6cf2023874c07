/// Average linkage cut into k = the number of topics groups (label-informed reference).
public struct AverageLinkageReference: Grouping {
    public var name: String { "average-k" }
    public var isLabelInformed: Bool { true }
    public var needs: PassNeeds { PassNeeds(averageLinkage: true) }

    public func groups(_ request: GroupingRequest, in pass: PassProducts) throws -> GroupingCut {
        guard let tree = pass.dendrogram else { return GroupingCut(labels: nil, note: pass.dendrogramNote) }
        return GroupingCut(labels: tree.cut(groups: request.topics!))
    }
}
