import ThemeLabCore
import ThemeLabMeasures
import ThemeLabPairs

/// Otsu's method on each item's `k` nearest-neighbour similarities instead of on all pairs.
///
/// Why: over all pairs, the related share is about 1/topics, so with many topics the related
/// hump is a sliver under the unrelated one and Otsu splits the unrelated bulk. Among an
/// item's few nearest neighbours the related share is large by construction (all of them when
/// its topic has more than k other members), so both humps carry weight and Otsu's two-class
/// assumption holds again. Same 256-bin histogram and tie rule as `otsu`.
package struct NeighbourOtsuThreshold: ThresholdRule {
    package let k: Int
    package var name: String { "knn-otsu(\(k))" }
    package var neighbours: Int { k }

    package func threshold(in context: ThresholdContext) -> Double? {
        guard let values = context.neighbours?.allSimilarities(count: k), let h = CoarseHistogram(values: values, bins: 256) else {
            return nil
        }
        // Distinct minimum and maximum fill the first and last bins, so one filled bin means a
        // constant input, for which scikit-image returns the value.
        return h.counts.filter { $0 > 0 }.count == 1 ? Double(values[0]) : otsu(h)
    }

    package func whyNoThreshold(in context: ThresholdContext) -> String { "no nearest-neighbour similarities were collected" }
}

extension NeighbourOtsuThreshold {
    /// Its registry entry (`thresholdRuleRegistry`).
    package static let entry = RegistryEntry<any ThresholdRule>(
        "knn-otsu", forms: ["knn-otsu(k)"], parameters: [.count("k")],
        summary: "Otsu on each item's k nearest-neighbour similarities (default 10)",
        examples: ["knn-otsu(3)"]
    ) { NeighbourOtsuThreshold(k: $0.whole(at: 0) ?? 10) }
}
