/// Incremental assignment only, after the journal's first regroup (claim C8: does it drift?).
public struct NeverRegroup: RegroupPolicy {
    public var name: String { "never" }
    public var regroupsAtLaunch: Bool { false }
    public func regroups(after save: SaveContext) -> Bool { false }
}
