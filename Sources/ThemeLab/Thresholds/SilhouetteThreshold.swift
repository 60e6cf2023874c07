import Foundation

/// The cut of the average-linkage dendrogram with the highest mean silhouette (cosine), as a
/// similarity threshold: the weakest merge that cut keeps.
///
/// Why: a quality criterion on the grouping itself rather than on the shape of the pair
/// histogram, so it does not depend on the related share or on two humps. Candidates are 32
/// group counts spaced geometrically from 2 to N/2 (every count for small N). Needs the
/// dendrogram, so N ≤ the average-linkage limit.
public struct SilhouetteThreshold: ThresholdRule {
    public var name: String { "silhouette" }
    public var needsDendrogram: Bool { true }
    public var isDataDerived: Bool { true }

    public func threshold(in context: ThresholdContext) -> Double? {
        guard let tree = context.dendrogram, let x = context.vectors, x.rows >= 3 else { return nil }
        let merges = tree.merges.map(\.similarity).sorted(by: >)
        let most = Swift.max(2, x.rows / 2)
        let counts = Set((0..<32).map { Int((2 * pow(Double(most) / 2, Double($0) / 31)).rounded()) }).sorted()
        var best = -Double.infinity, choice: Double?
        for k in counts where k <= x.rows - 1 && k <= merges.count {
            guard let s = silhouette(x, groups: tree.cut(groups: k)), s > best else { continue }
            best = s
            choice = Double(merges[x.rows - k - 1])
        }
        return choice
    }

    public func whyNoThreshold(in context: ThresholdContext) -> String {
        context.dendrogram == nil ? "needs the average-linkage dendrogram (N ≤ \(AverageLinkage.maxItems))" : "fewer than 3 items"
    }
}
