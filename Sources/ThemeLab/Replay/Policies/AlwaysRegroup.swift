/// Regroup from scratch after every save: the shown groups are always fresh (staleness ARI 1) at
/// the largest cost. The reference every other policy is measured against.
struct AlwaysRegroup: RegroupPolicy {
    public var name: String { "always" }
    var regroupsAtLaunch: Bool { false }
    public func regroups(after save: SaveContext) -> Bool { true }
}
