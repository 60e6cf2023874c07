import ThemeLabCore
import ThemeLabMeasures
import ThemeLabPairs

/// The best ARI any threshold gives a grouping (label-informed): what a rule's regret is
/// measured against.
package struct Ceiling: Codable, Sendable, Equatable {
    package var grouping: GroupingKey
    /// Which thresholds were tried.
    package var search: String
    package var threshold: Double
    package var ari: Double
    package var groups: Int
    /// The parameter searched instead of a threshold (`m` for HDBSCAN, `γ` for Leiden), whose best
    /// value `threshold` then holds.
    package var parameter: String?
    /// The best ARI over replicates, and on each.
    package var replicates: Estimate?
    package var replicateARI: [Double?]?
    /// ARI against the threshold (`BestCut.curve`) for a grouping cut at thresholds; nil for a parameter search.
    package var curve: [CurvePoint]?

    /// The search of a grouping whose every cut is scored (`BestCut`): its curve is exact between the cuts.
    package static let everyCut = "every cut"

    package init(grouping: GroupingKey, search: String, _ cut: BestCut, parameter: String? = nil) {
        self.grouping = grouping
        self.search = search
        self.parameter = parameter
        threshold = cut.threshold
        ari = cut.ari
        groups = cut.groups
        curve = cut.curve.isEmpty ? nil : cut.curve
    }
}

/// The best ARI over a grouping's own parameter values (noise as singletons), as a ceiling; its search says when the best
/// is the grid's first or last value, where a wider grid might find more (the ceiling may then be understated).
package func bestParameter(
    _ grouping: GroupingKey, _ parameter: String, values: [Double], topics: [Int32], labels: (Double) throws -> [Int32]
) rethrows -> Ceiling? {
    var best: BestCut?
    for v in values {
        let groups = GroupingCut.noiseAsSingletons(try labels(v))
        let ari = Recovery(topics: topics, groups: groups).ari
        if best.map({ ari > $0.ari }) ?? true { best = BestCut(threshold: v, ari: ari, groups: Set(groups).count) }
    }
    let listed = values.map(formatArgument).joined(separator: ", ")
    return best.map { b in
        let edge = values.count > 1 && (b.threshold == values.min() || b.threshold == values.max())
        let search = "\(parameter) ∈ {\(listed)}" + (edge ? "; best at the grid's edge, so the ceiling may be understated" : "")
        return Ceiling(grouping: grouping, search: search, b, parameter: parameter)
    }
}
