import ThemeLabCore
import ThemeLabCorpus
import ThemeLabEncoder
import ThemeLabMeasures
import ThemeLabMethods
import ThemeLabPairs

/// Regroup from scratch after every save: the shown groups are always fresh (staleness ARI 1) at
/// the largest cost. The reference every other policy is measured against.
package struct AlwaysRegroup: RegroupPolicy {
    package var name: String { "always" }
    package var regroupsAtLaunch: Bool { false }
    package func regroups(after save: SaveContext) -> Bool { true }
}

extension AlwaysRegroup {
    /// Its registry entry (`regroupPolicyRegistry`).
    package static let entry = RegistryEntry<any RegroupPolicy>(
        "always", summary: "regroup from scratch after every save (the reference)"
    ) { _ in AlwaysRegroup() }
}
