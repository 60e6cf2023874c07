/// Regroup when the app launches, incremental assignment between launches.
struct LaunchRegroup: RegroupPolicy {
    public var name: String { "launch-only" }
    var regroupsAtLaunch: Bool { true }
    public func regroups(after save: SaveContext) -> Bool { false }
}
