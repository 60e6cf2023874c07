import ThemeLabCore
import ThemeLabCorpus
import ThemeLabEncoder
import ThemeLabMeasures
import ThemeLabMethods
import ThemeLabPairs

/// Regroup at each launch (the journal opened), incremental assignment between launches.
package struct LaunchRegroup: RegroupPolicy {
    package var name: String { "launch-only" }
    package var regroupsAtLaunch: Bool { true }
    package func regroups(after save: SaveContext) -> Bool { false }
}

extension LaunchRegroup {
    /// Its registry entry (`regroupPolicyRegistry`).
    package static let entry = RegistryEntry<any RegroupPolicy>(
        "launch-only", summary: "regroup at each launch (the journal opened), incremental assignment between launches"
    ) { _ in LaunchRegroup() }
}
