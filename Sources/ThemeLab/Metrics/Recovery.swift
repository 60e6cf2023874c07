/// How well groups recover topics: every metric DESIGN.md lists, for one grouping.
public struct Recovery: Codable, Sendable, Equatable {
    public var groups: Int
    public var topics: Int
    public var ari: Double
    public var nmi: Double
    public var homogeneity: Double
    public var completeness: Double
    public var vMeasure: Double
    public var pairPrecision: Double?
    public var pairRecall: Double?
    public var pairF1: Double?
    public var purity: Double
    public var singletonShare: Double
    public var largestGroupShare: Double

    public init<C: Hashable, K: Hashable>(topics: [C], groups: [K]) {
        let c = Contingency(classes: topics, clusters: groups)
        self.groups = c.clusterSizes.count
        self.topics = c.classSizes.count
        ari = adjustedRandIndex(c)
        nmi = normalizedMutualInformation(c)
        (homogeneity, completeness, vMeasure) = homogeneityCompletenessVMeasure(c)
        pairPrecision = ThemeLab.pairPrecision(c)
        pairRecall = ThemeLab.pairRecall(c)
        pairF1 = ThemeLab.pairF1(c)
        purity = ThemeLab.purity(c)
        singletonShare = ThemeLab.singletonShare(c)
        largestGroupShare = ThemeLab.largestGroupShare(c)
    }

    /// Metric names and values, in report order (nil where undefined).
    /// The metrics' names as `named` lists them (and the CSV columns).
    public static let metricNames = [
        "groups", "ari", "nmi", "homogeneity", "completeness", "v_measure", "pair_precision", "pair_recall",
        "pair_f1", "purity", "singleton_share", "largest_group_share",
    ]

    public var named: [(String, Double?)] {
        [
            ("groups", Double(groups)), ("ari", ari), ("nmi", nmi), ("homogeneity", homogeneity), ("completeness", completeness),
            ("v_measure", vMeasure), ("pair_precision", pairPrecision), ("pair_recall", pairRecall), ("pair_f1", pairF1),
            ("purity", purity), ("singleton_share", singletonShare), ("largest_group_share", largestGroupShare),
        ]
    }
}
