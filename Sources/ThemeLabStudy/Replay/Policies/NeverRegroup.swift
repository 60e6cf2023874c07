import ThemeLabCore
import ThemeLabCorpus
import ThemeLabEncoder
import ThemeLabMeasures
import ThemeLabMethods
import ThemeLabPairs

/// Incremental assignment only, after the journal's first regroup (claim C8: does it drift?).
package struct NeverRegroup: RegroupPolicy {
    package var name: String { "never" }
    package var regroupsAtLaunch: Bool { false }
    package func regroups(after save: SaveContext) -> Bool { false }
}

extension NeverRegroup {
    /// Its registry entry (`regroupPolicyRegistry`).
    package static let entry = RegistryEntry<any RegroupPolicy>(
        "never", summary: "incremental assignment only, after the journal's first regroup (C8)"
    ) { _ in NeverRegroup() }
}
