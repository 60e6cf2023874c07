/// The groupings an analysis can run. Threshold groupings run once per threshold rule; the
/// label-informed references use k = number of topics and no threshold.
public enum GroupingMethod: String, CaseIterable, Codable, Sendable {
    /// Connected components of "similarity ≥ t" (single linkage).
    case components
    /// The app's centroid assignment in corpus order, plus seeded shuffles.
    case leader
    /// Average linkage cut at t.
    case average
    /// Spherical k-means with k = topics (label-informed reference).
    case kmeansK = "kmeans-k"
    /// Average linkage cut into k = topics groups (label-informed reference).
    case averageK = "average-k"

    public var isLabelInformed: Bool { self == .kmeansK || self == .averageK }

    public init(name: String) throws {
        guard let m = GroupingMethod(rawValue: name) else {
            throw ThemeLabError.usage("unknown grouping '\(name)' (expected \(GroupingMethod.allCases.map(\.rawValue).joined(separator: ", ")))")
        }
        self = m
    }
}
