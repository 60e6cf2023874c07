/// Incremental assignment only, after the journal's first regroup (claim C8: does it drift?).
struct NeverRegroup: RegroupPolicy {
    public var name: String { "never" }
    var regroupsAtLaunch: Bool { false }
    public func regroups(after save: SaveContext) -> Bool { false }
}
