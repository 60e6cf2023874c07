import ThemeLabCore
import ThemeLabCorpus
import ThemeLabEncoder
import ThemeLabMeasures
import ThemeLabMethods
import ThemeLabPairs

/// When the groups a user sees are rebuilt from scratch; between regroups each save is assigned
/// incrementally (`IncrementalGroups`). Adding a policy is one file: a type conforming to this
/// protocol, plus a line in `regroupPolicy(named:)`.
package protocol RegroupPolicy: Sendable {
    /// The name used in experiment files and reports.
    var name: String { get }
    /// Whether the app regroups when a launch starts, over the items saved before it.
    var regroupsAtLaunch: Bool { get }
    /// Whether the save just added is followed by a regroup (instead of incremental assignment).
    func regroups(after save: SaveContext) -> Bool
}

/// What a policy may look at when a save arrives.
package struct SaveContext {
    /// Items in the journal, the new save included.
    package var items: Int
    /// Items at the last regroup (N_last).
    package var itemsAtLastRegroup: Int
    /// cos(μ_now, μ_last): the mean of the unit vectors now against the one at the last regroup, computed when asked.
    package var meanCosine: () -> Double
}

/// Every policy by name: `always`, `never`, `launch-only`, `app(g,τ)` (`app` alone: g = 1.5, τ = 0.01).
package func regroupPolicy(named text: String) throws -> RegroupPolicy {
    let name = try RuleName(text)
    switch name.base {
    case "always":
        try name.takes(atMost: 0)
        return AlwaysRegroup()
    case "never":
        try name.takes(atMost: 0)
        return NeverRegroup()
    case "launch-only":
        try name.takes(atMost: 0)
        return LaunchRegroup()
    case "app":
        try name.takes(atMost: 2)
        let g = name.arguments.count > 0 ? name.arguments[0] : AppRegroupPolicy.appGrowth
        let tau = name.arguments.count > 1 ? name.arguments[1] : AppRegroupPolicy.appDrift
        guard g > 1, g <= 1000 else { throw ThemeLabError.usage("\(text): growth g must be > 1 and ≤ 1000 (regroup when N ≥ g·N_last)") }
        guard (0...2).contains(tau) else {
            throw ThemeLabError.usage("\(text): drift τ must be within [0, 2] (regroup when cos(μ_now, μ_last) < 1 − τ)")
        }
        return AppRegroupPolicy(growth: g, drift: tau)
    default:
        throw ThemeLabError.usage("unknown policy '\(text)' (expected always, never, launch-only, app(g,τ))")
    }
}
