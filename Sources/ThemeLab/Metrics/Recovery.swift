/// How well groups recover topics: every metric of docs/method.md, "Claims and definitions", for one grouping.
public struct Recovery: Codable, Sendable, Equatable {
    public var groups: Int
    public var topics: Int
    public var ari: Double
    public var nmi: Double
    public var homogeneity: Double
    public var completeness: Double
    var vMeasure: Double
    var pairPrecision: Double?
    var pairRecall: Double?
    var pairF1: Double?
    public var purity: Double
    var singletonShare: Double
    var largestGroupShare: Double

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
}
