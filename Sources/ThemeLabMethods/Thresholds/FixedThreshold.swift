import ThemeLabCore
import ThemeLabMeasures
import ThemeLabPairs

/// A constant threshold; the journal method first used 0.55, tuned on synthetic vectors (claim C3).
package struct FixedThreshold: ThresholdRule {
    package var readsOnlyThePairHistogram: Bool { true }
    package let value: Double

    package init(value: Double) {
        self.value = value
    }
    package var name: String { "fixed(\(formatArgument(value)))" }
    package func threshold(in context: ThresholdContext) -> Double? { value }
}

extension FixedThreshold {
    /// Its registry entry (`thresholdRuleRegistry`).
    package static let entry = RegistryEntry<any ThresholdRule>(
        "fixed", forms: ["fixed(t)"], parameters: [Parameter("t", .real)],
        summary: "a constant t (default 0.55, the journal method's first; claim C3)",
        examples: ["fixed(0.55)"]
    ) { FixedThreshold(value: $0.value(at: 0) ?? 0.55) }
}
