import ThemeLabCore
import ThemeLabMeasures
import ThemeLabPairs

/// The p-th percentile of all pair similarities (numpy's linear definition). It assumes the
/// related pairs are the top (100 − p)% (claim C5).
package struct PercentileThreshold: ThresholdRule {
    package let percent: Double

    package init(percent: Double) {
        self.percent = percent
    }
    package var name: String { "percentile(\(formatArgument(percent)))" }
    package var isDataDerived: Bool { true }
    package func threshold(in context: ThresholdContext) -> Double? { context.distribution.quantile(.all, percent / 100) }
}

extension PercentileThreshold {
    /// Its registry entry (`thresholdRuleRegistry`).
    package static let entry = RegistryEntry<any ThresholdRule>(
        "percentile", forms: ["percentile(p)"], parameters: [Parameter("p", .interval(0...100))],
        summary: "the p-th percentile of all pair similarities (default 90; C5)",
        examples: ["percentile(90)"]
    ) { PercentileThreshold(percent: $0.value(at: 0) ?? 90) }
}
