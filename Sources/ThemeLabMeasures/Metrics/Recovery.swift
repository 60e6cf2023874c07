import ThemeLabCore
import ThemeLabPairs

/// How well groups recover topics: every metric of docs/method.md, "Claims and definitions", for one grouping.
package struct Recovery: Codable, Sendable, Equatable {
    package var groups: Int
    package var topics: Int
    package var ari: Double
    package var nmi: Double
    package var homogeneity: Double
    package var completeness: Double
    package var vMeasure: Double
    package var pairPrecision: Double?
    package var pairRecall: Double?
    package var pairF1: Double?
    package var purity: Double
    package var singletonShare: Double
    package var largestGroupShare: Double

    /// Every metric of `groups` against `topics`.
    /// - Parameters:
    ///   - topics: each item's true topic.
    ///   - groups: each item's group, in the same item order.
    package init<C: Hashable, K: Hashable>(topics: [C], groups: [K]) { self.init(Contingency(classes: topics, clusters: groups)) }

    /// The labels the stages pass: a concrete entry point, so callers in other targets do not run it generic.
    package init(topics: [Int32], groups: [Int32]) { self.init(Contingency(classes: topics, clusters: groups)) }

    private init(_ c: Contingency) {
        self.groups = c.clusterSizes.count
        self.topics = c.classSizes.count
        ari = adjustedRandIndex(c)
        nmi = normalizedMutualInformation(c)
        (homogeneity, completeness, vMeasure) = homogeneityCompletenessVMeasure(c)
        pairPrecision = ThemeLabMeasures.pairPrecision(c)
        pairRecall = ThemeLabMeasures.pairRecall(c)
        pairF1 = ThemeLabMeasures.pairF1(c)
        purity = ThemeLabMeasures.purity(c)
        singletonShare = ThemeLabMeasures.singletonShare(c)
        largestGroupShare = ThemeLabMeasures.largestGroupShare(c)
    }
}
