import ThemeLabCore
import ThemeLabCorpus
import ThemeLabEncoder
import ThemeLabMeasures
import ThemeLabMethods
import ThemeLabPairs

/// When the groups a user sees are rebuilt from scratch; between regroups each save is assigned
/// incrementally (`IncrementalGroups`). Adding a policy is one file: a type conforming to this
/// protocol with a registry `entry`, plus a line in `regroupPolicyRegistry`.
package protocol RegroupPolicy: Sendable {
    /// The name used in experiment files and reports.
    var name: String { get }
    /// Whether the journal method regroups when a launch (the journal opened) starts, over the items saved before it.
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

/// Every policy, in the order docs list them: a new policy is its file (a type with an `entry`) and a line here.
package let regroupPolicyRegistry = Registry<any RegroupPolicy>(
    kind: "policy", [AlwaysRegroup.entry, NeverRegroup.entry, LaunchRegroup.entry, JournalMethodPolicy.entry])

/// The policy `text` names (`regroupPolicyRegistry`): `always`, `never`, `launch-only`, `app(g,τ)` (`app` alone: g = 1.5,
/// τ = 0.01).
package func regroupPolicy(named text: String) throws -> RegroupPolicy { try regroupPolicyRegistry.parse(text) }
