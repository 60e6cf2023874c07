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
        "percentile", forms: ["percentile(p)"], arguments: 0...1, summary: "the p-th percentile of all pair similarities (default 90; C5)",
        examples: ["percentile(90)"]
    ) { name in
        let p = name.argument ?? 90
        guard (0...100).contains(p) else { throw ThemeLabError.usage("percentile(\(p)): p must be within 0...100") }
        return PercentileThreshold(percent: p)
    }
}
