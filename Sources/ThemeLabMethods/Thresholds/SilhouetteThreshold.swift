import ThemeLabCore
import ThemeLabMeasures
import ThemeLabPairs

/// The cut of the average-linkage dendrogram with the highest mean silhouette (cosine), as a
/// similarity threshold: the weakest merge that cut keeps.
///
/// Why: a quality criterion on the grouping itself rather than on the shape of the pair
/// histogram, so it does not depend on the related share or on two humps. Candidates are 32
/// group counts spaced geometrically from 2 to N/2 (every count for small N). Needs the
/// dendrogram, so N ≤ the average-linkage limit.
package struct SilhouetteThreshold: ThresholdRule {
    package var name: String { "silhouette" }
    package var needsDendrogram: Bool { true }
    package var isDataDerived: Bool { true }

    package func threshold(in context: ThresholdContext) -> Double? {
        context.silhouettes?.best(higherIsBetter: true)?.threshold
    }

    package func whyNoThreshold(in context: ThresholdContext) -> String {
        context.silhouettes == nil ? "needs the average-linkage dendrogram (N ≤ \(AverageLinkage.maxItems))" : "fewer than 3 items"
    }
}

extension SilhouetteThreshold {
    /// Its registry entry (`thresholdRuleRegistry`).
    package static let entry = RegistryEntry<any ThresholdRule>(
        "silhouette", summary: "the average-linkage cut of highest mean silhouette"
    ) { _ in SilhouetteThreshold() }
}
