import ThemeLabCore
import ThemeLabMeasures
import ThemeLabPairs

/// The median over items of the similarity to their k-th nearest neighbour: the cut at which a
/// typical item keeps k neighbours.
///
/// Why: a per-item scale (as in self-tuning spectral clustering, Zelnik-Manor & Perona 2004,
/// which scales by the distance to the k-th neighbour) turned into one global threshold. It
/// needs no two-hump shape at all, only that a typical topic has more than k members.
/// numpy's linear median over the N values.
package struct NeighbourMedianThreshold: ThresholdRule {
    package let k: Int
    package var name: String { "knn-median(\(k))" }
    package var neighbours: Int { k }
    package var isDataDerived: Bool { true }

    package func threshold(in context: ThresholdContext) -> Double? {
        guard let n = context.neighbours else { return nil }
        let kth = (0..<n.items).compactMap { n.similarities(of: $0, count: k).dropFirst(k - 1).first }.sorted()
        return kth.isEmpty ? nil : exactQuantile(kth, 0.5)
    }

    package func whyNoThreshold(in context: ThresholdContext) -> String {
        context.neighbours == nil ? "no nearest-neighbour similarities were collected" : "no item has \(k) neighbours"
    }
}

extension NeighbourMedianThreshold {
    /// Its registry entry (`thresholdRuleRegistry`).
    package static let entry = RegistryEntry<any ThresholdRule>(
        "knn-median", forms: ["knn-median(k)"], parameters: [.count("k")],
        summary: "the median over items of the similarity to their k-th nearest neighbour (default 10)", examples: ["knn-median(3)"]
    ) { NeighbourMedianThreshold(k: $0.whole(at: 0) ?? 10) }
}
