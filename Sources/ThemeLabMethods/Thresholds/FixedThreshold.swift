import ThemeLabCore
import ThemeLabMeasures
import ThemeLabPairs

/// A constant threshold; the app first used 0.55, tuned on synthetic vectors (claim C3).
package struct FixedThreshold: ThresholdRule {
    package var readsOnlyThePairHistogram: Bool { true }
    package let value: Double

    package init(value: Double) {
        self.value = value
    }
    package var name: String { "fixed(\(formatArgument(value)))" }
    package func threshold(in context: ThresholdContext) -> Double? { value }
}
