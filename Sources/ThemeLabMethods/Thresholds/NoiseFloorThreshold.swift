import ThemeLabCore
import ThemeLabMeasures
import ThemeLabPairs

/// k/√d: for random unit vectors in d dimensions cosines have standard deviation 1/√d, so
/// k/√d sits k standard deviations above chance (claim C4; the journal method uses k = 4).
package struct NoiseFloorThreshold: ThresholdRule {
    package var readsOnlyThePairHistogram: Bool { true }
    package let k: Double

    package init(k: Double) {
        self.k = k
    }
    package var name: String { "noise-floor(\(formatArgument(k)))" }
    package func threshold(in context: ThresholdContext) -> Double? { k / Double(context.dimensions).squareRoot() }
}

extension NoiseFloorThreshold {
    /// Its registry entry (`thresholdRuleRegistry`).
    package static let entry = RegistryEntry<any ThresholdRule>(
        "noise-floor", forms: ["noise-floor(k)"], parameters: [Parameter("k", .real)],
        summary: "k/√d, k standard deviations above chance (default 4; C4)",
        examples: ["noise-floor(4)"]
    ) { NoiseFloorThreshold(k: $0.value(at: 0) ?? 4) }
}
