import ThemeLabCore
import ThemeLabMeasures
import ThemeLabPairs

/// Two Gaussians fitted by EM to each item's `k` nearest-neighbour similarities; the threshold
/// is where the weighted curves cross between the means.
///
/// Why: like `knn-otsu`, the neighbour lists restore a sizeable related share, and unlike the
/// all-pairs `mixture` the share (the mixture weight) is estimated from the data rather than
/// fixed by the histogram's shape. EM runs on the 256-bin histogram of the neighbour
/// similarities, starting from Otsu's split.
package struct NeighbourMixtureThreshold: AnsweringThresholdRule {
    package let k: Int
    package var name: String { "knn-mixture(\(k))" }
    package var neighbours: Int { k }

    package func fit(_ context: ThresholdContext) -> MixtureCrossingThreshold.Fit? {
        // A constant input leaves one filled bin, and EM then leaves a component empty (nil).
        guard let values = context.neighbours?.allSimilarities(count: k), let h = CoarseHistogram(values: values, bins: 256) else {
            return nil
        }
        let centres = h.centres
        let occupied = h.counts.indices.filter { h.counts[$0] > 0 }
        return MixtureCrossingThreshold.fit(
            occupied.map { centres[$0] }, weights: occupied.map { h.counts[$0] },
            split: otsu(h), sigmaFloor: (h.edges[1] - h.edges[0]) / 2)
    }

    /// One EM fit for both the threshold and the reason.
    package func answer(in context: ThresholdContext) -> RuleAnswer {
        context.neighbours == nil
            ? .none(reason: "no nearest-neighbour similarities were collected") : MixtureCrossingThreshold.answer(fit(context))
    }
}

extension NeighbourMixtureThreshold {
    /// Its registry entry (`thresholdRuleRegistry`).
    package static let entry = RegistryEntry<any ThresholdRule>(
        "knn-mixture", forms: ["knn-mixture(k)"], parameters: [.count("k")],
        summary: "two Gaussians fitted to each item's k nearest-neighbour similarities, where they cross (default 10)",
        examples: ["knn-mixture(3)"]
    ) { NeighbourMixtureThreshold(k: $0.whole(at: 0) ?? 10) }
}
