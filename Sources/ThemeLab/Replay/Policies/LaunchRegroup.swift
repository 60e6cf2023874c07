/// Regroup when the app launches, incremental assignment between launches.
public struct LaunchRegroup: RegroupPolicy {
    public var name: String { "launch-only" }
    public var regroupsAtLaunch: Bool { true }
    public func regroups(after save: SaveContext) -> Bool { false }
}
