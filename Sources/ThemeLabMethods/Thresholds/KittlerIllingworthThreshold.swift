import Foundation
import ThemeLabCore
import ThemeLabMeasures
import ThemeLabPairs

/// Minimum-error thresholding (Kittler & Illingworth 1986): model the histogram as two
/// Gaussians split at bin t and pick the t minimising
/// J(t) = 1 + 2[P₁ ln σ₁ + P₂ ln σ₂] − 2[P₁ ln P₁ + P₂ ln P₂]
/// over the same 256-bin histogram Otsu uses (class 1 = bins 0…t; the result is bin t's centre,
/// as for Otsu). Splits leaving a class with zero variance are skipped.
package struct KittlerIllingworthThreshold: ThresholdRule {
    package var readsOnlyThePairHistogram: Bool { true }
    package let bins: Int

    package init(bins: Int) {
        self.bins = bins
    }
    package var name: String { bins == 256 ? "kittler-illingworth" : "kittler-illingworth(\(bins))" }

    package func threshold(in context: ThresholdContext) -> Double? {
        context.coarseHistogram(bins: bins).flatMap(kittlerIllingworth)
    }
}

/// The minimum-error split of a histogram: the centre of the last bin of class 1, or nil when
/// no split leaves two classes with spread.
package func kittlerIllingworth(_ h: CoarseHistogram) -> Double? {
    let centres = h.centres
    let total = h.counts.reduce(0, +)
    var best = Double.infinity
    var choice: Double?
    for t in 0..<(h.counts.count - 1) {
        func moments(_ range: Range<Int>) -> (p: Double, sigma: Double) {
            var w = 0.0
            var m = 0.0
            for i in range {
                w += h.counts[i]
                m += h.counts[i] * centres[i]
            }
            guard w > 0 else { return (0, 0) }
            let mean = m / w
            var v = 0.0
            for i in range { v += h.counts[i] * (centres[i] - mean) * (centres[i] - mean) }
            return (w / total, (v / w).squareRoot())
        }
        let (p1, s1) = moments(0..<(t + 1))
        let (p2, s2) = moments((t + 1)..<h.counts.count)
        guard p1 > 0, p2 > 0, s1 > 0, s2 > 0 else { continue }
        let j = 1 + 2 * (p1 * log(s1) + p2 * log(s2)) - 2 * (p1 * log(p1) + p2 * log(p2))
        if j < best {
            best = j
            choice = centres[t]
        }
    }
    return choice
}

extension KittlerIllingworthThreshold {
    /// Its registry entry (`thresholdRuleRegistry`).
    package static let entry = RegistryEntry<any ThresholdRule>(
        "kittler-illingworth", parameters: [.count("bins")], summary: "minimum-error thresholding on the 256-bin all-pairs histogram",
        examples: ["kittler-illingworth"]
    ) { KittlerIllingworthThreshold(bins: $0.whole(at: 0) ?? 256) }
}
