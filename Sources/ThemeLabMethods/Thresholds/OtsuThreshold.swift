import ThemeLabCore
import ThemeLabMeasures
import ThemeLabPairs

/// Otsu's method (Otsu 1979), exactly as scikit-image's `threshold_otsu(values, nbins)`:
/// histogram over the observed [min, max], then the bin centre c_t maximising the
/// between-class variance w₁(t)·w₂(t)·(μ₁(t) − μ₂(t))², class 1 = bins 0…t. A constant input
/// returns that value.
package struct OtsuThreshold: ThresholdRule {
    package var readsOnlyThePairHistogram: Bool { true }
    package let bins: Int

    package init(bins: Int) {
        self.bins = bins
    }
    package var name: String { bins == 256 ? "otsu" : "otsu(\(bins))" }

    package func threshold(in context: ThresholdContext) -> Double? {
        let all = context.distribution.all
        guard all.count > 0 else { return nil }
        if all.min == all.max { return Double(all.min) }
        return context.coarseHistogram(bins: bins).map(otsu)
    }
}

/// The journal method's rule: max(Otsu, 4/√d), so the threshold never drops into the noise.
package struct OtsuFlooredThreshold: ThresholdRule {
    package var readsOnlyThePairHistogram: Bool { true }
    package let bins: Int

    package init(bins: Int) {
        self.bins = bins
    }
    package var name: String { bins == 256 ? "otsu-floored" : "otsu-floored(\(bins))" }

    package func threshold(in context: ThresholdContext) -> Double? {
        guard let t = OtsuThreshold(bins: bins).threshold(in: context) else { return nil }
        return max(t, NoiseFloorThreshold(k: 4).threshold(in: context)!)
    }
}

/// Otsu's choice on a histogram, with scikit-image's cumulative sums and first-maximum tie rule.
package func otsu(_ h: CoarseHistogram) -> Double {
    let centres = h.centres
    let n = h.counts.count
    var weight1 = [Double](repeating: 0, count: n)
    var mean1 = weight1
    var running = 0.0
    var runningMoment = 0.0
    for i in 0..<n {
        running += h.counts[i]
        runningMoment += h.counts[i] * centres[i]
        weight1[i] = running
        mean1[i] = runningMoment / running
    }
    var weight2 = [Double](repeating: 0, count: n)
    var mean2 = weight2
    running = 0
    runningMoment = 0
    for i in stride(from: n - 1, through: 0, by: -1) {
        running += h.counts[i]
        runningMoment += h.counts[i] * centres[i]
        weight2[i] = running
        mean2[i] = runningMoment / running
    }
    var best = -Double.infinity
    var index = 0
    for i in 0..<(n - 1) {
        let d = mean1[i] - mean2[i + 1]
        let v = weight1[i] * weight2[i + 1] * d * d
        if v > best {
            best = v
            index = i
        }
    }
    return centres[index]
}

extension OtsuThreshold {
    /// Its registry entry (`thresholdRuleRegistry`).
    package static let entry = RegistryEntry<any ThresholdRule>(
        "otsu", parameters: [.count("bins")], summary: "Otsu's method on the 256-bin all-pairs histogram (otsu(bins) for another count)",
        examples: ["otsu", "otsu(64)"]
    ) { OtsuThreshold(bins: $0.whole(at: 0) ?? 256) }
}

extension OtsuFlooredThreshold {
    /// Its registry entry (`thresholdRuleRegistry`).
    package static let entry = RegistryEntry<any ThresholdRule>(
        "otsu-floored", parameters: [.count("bins")], summary: "the journal method's rule: max(Otsu, 4/√d)", examples: ["otsu-floored"]
    ) { OtsuFlooredThreshold(bins: $0.whole(at: 0) ?? 256) }
}
