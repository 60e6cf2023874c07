import ThemeLabCore
import ThemeLabCorpus
import ThemeLabEncoder
import ThemeLabMeasures
import ThemeLabMethods
import ThemeLabPairs

/// The journal method's policy (claim C9): regroup at launch; between launches regroup when the corpus has
/// grown by a factor g since the last regroup (N ≥ g·N_last) or its mean has moved
/// (cos(μ_now, μ_last) < 1 − τ). τ = 2 turns the drift test off; τ = 0 regroups on any movement.
package struct JournalMethodPolicy: RegroupPolicy {
    /// The journal method's g ("grown by half again").
    package static let defaultGrowth = 1.5
    /// The τ the harness takes for "the average has actually moved" (cos < 0.99, about 8°), fixed
    /// before any replay was run; the report sweeps a grid around it.
    package static let defaultDrift = 0.01

    package let growth: Double
    package let drift: Double

    package init(growth: Double, drift: Double) {
        self.growth = growth
        self.drift = drift
    }

    package var name: String { "app(\(formatArgument(growth)),\(formatArgument(drift)))" }
    package var regroupsAtLaunch: Bool { true }

    package func regroups(after save: SaveContext) -> Bool {
        Double(save.items) >= growth * Double(save.itemsAtLastRegroup) || save.meanCosine() < 1 - drift
    }
}

extension JournalMethodPolicy {
    /// Its registry entry (`regroupPolicyRegistry`).
    package static let entry = RegistryEntry<any RegroupPolicy>(
        "app", forms: ["app(g,τ)"],
        parameters: [Parameter("growth g", .above(1, atMost: 1000)), Parameter("drift τ", .interval(0...2))],
        summary: "the journal method's: at launch, then when N ≥ g·N_last or cos(μ_now, μ_last) < 1 − τ (default g = 1.5, τ = 0.01)",
        examples: ["app", "app(1.5,0.01)"]
    ) { JournalMethodPolicy(growth: $0.value(at: 0) ?? defaultGrowth, drift: $0.value(at: 1) ?? defaultDrift) }
}
