import ThemeLabCore
import ThemeLabMeasures
import ThemeLabPairs

/// Label-informed upper bound: the threshold maximising pair F1 = 2TP/(2TP + FP + FN) when the
/// pairs with similarity ≥ t are called related. Exact over the kept values (candidates are the
/// related similarities); otherwise over the fine histogram's bin edges. Never a method: reports
/// mark it as label-informed.
package struct OracleThreshold: ThresholdRule {
    package init() {}

    package var name: String { "oracle" }
    package var isLabelInformed: Bool { true }
    package var isDataDerived: Bool { true }

    package func whyNoThreshold(in context: ThresholdContext) -> String { "no related pairs (needs labels with a topic of two or more)" }

    package func threshold(in context: ThresholdContext) -> Double? {
        let d = context.distribution
        guard d.isLabeled, d.related.count > 0 else { return nil }
        let positives = Double(d.related.count)
        var best = -1.0
        var choice = 0.0
        func consider(_ t: Double, tp: Double, fp: Double) {
            let f1 = 2 * tp / (2 * tp + fp + (positives - tp))
            if f1 > best {
                best = f1
                choice = t
            }
        }
        if let related = d.sortedValues(.related), let unrelated = d.sortedValues(.unrelated) {
            // Walk thresholds from the top: at t = related[i], TP counts related ≥ t.
            var u = unrelated.count
            var i = related.count - 1
            while i >= 0 {
                let t = related[i]
                while i > 0 && related[i - 1] == t { i -= 1 }
                while u > 0 && unrelated[u - 1] >= t { u -= 1 }
                consider(Double(t), tp: Double(related.count - i), fp: Double(unrelated.count - u))
                i -= 1
            }
        } else {
            var tp = 0.0
            var fp = 0.0
            for b in stride(from: d.related.histogram.count - 1, through: 0, by: -1) {
                tp += Double(d.related.histogram[b])
                fp += Double(d.unrelated.histogram[b])
                if d.related.histogram[b] > 0 { consider(-1 + Double(b) * d.related.binWidth, tp: tp, fp: fp) }
            }
        }
        return choice
    }
}

extension OracleThreshold {
    /// Its registry entry (`thresholdRuleRegistry`).
    package static let entry = RegistryEntry<any ThresholdRule>(
        "oracle", summary: "the threshold of best pair F1 (label-informed upper bound)"
    ) { _ in OracleThreshold() }
}
