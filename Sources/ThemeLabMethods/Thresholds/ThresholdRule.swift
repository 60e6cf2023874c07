import ThemeLabCore
import ThemeLabMeasures
import ThemeLabPairs

/// A rule that picks a similarity threshold from the pair distribution; pairs with similarity
/// ≥ the threshold are taken as related. Adding a rule is one file: a type conforming to this
/// protocol with a registry `entry`, plus a line in `thresholdRuleRegistry`.
package protocol ThresholdRule: Sendable {
    /// The name used on the command line, in experiment files and in reports.
    var name: String { get }
    /// True when the rule looks at the labels (an upper bound, never a method).
    var isLabelInformed: Bool { get }
    /// The threshold, or nil when the rule has no answer for this distribution.
    func threshold(in context: ThresholdContext) -> Double?
    /// Why `threshold` is nil, for reports.
    func whyNoThreshold(in context: ThresholdContext) -> String
    /// The threshold or why there is none, from one evaluation: what the analysis asks. A rule whose reason costs what
    /// its value does answers both at once (`AnsweringThresholdRule`); the default asks `threshold`, then `whyNoThreshold`.
    func answer(in context: ThresholdContext) -> RuleAnswer
    /// How many nearest-neighbour similarities per item the rule reads (0: none).
    var neighbours: Int { get }
    /// True when the rule reads the silhouettes of average-linkage cuts (`ThresholdContext.silhouettes`).
    var needsDendrogram: Bool { get }
    /// True when the value is an observed similarity or merge height, or interpolates between two:
    /// the analysis then places it mid-gap (`ThresholdPlacement`).
    var isDataDerived: Bool { get }
    /// True when the rule reads nothing but the all-pairs histogram and the dimension, so a replay can recompute it
    /// at every save (`FreshRegroup`).
    var readsOnlyThePairHistogram: Bool { get }
}

extension ThresholdRule {
    /// Its name as a value, the key of its rows.
    package var key: RuleKey { RuleKey(name) }
    package var isLabelInformed: Bool { false }
    package var neighbours: Int { 0 }
    package var needsDendrogram: Bool { false }
    package var isDataDerived: Bool { false }
    package var readsOnlyThePairHistogram: Bool { false }
    package func whyNoThreshold(in context: ThresholdContext) -> String { "\(name) gives no threshold for this distribution" }
    package func answer(in context: ThresholdContext) -> RuleAnswer {
        threshold(in: context).map(RuleAnswer.threshold) ?? .none(reason: whyNoThreshold(in: context))
    }

    /// What the pass must gather for it on a corpus of `items` (no neighbours when k ≥ N: the rule then gives no threshold).
    package func passNeeds(items: Int) -> PassNeeds {
        PassNeeds(averageLinkage: needsDendrogram, neighbours: neighbours).restricted(toItems: items)
    }
}

/// A rule whose threshold and reason come from one evaluation that costs what the value does (the mixtures' EM): it
/// writes `answer(in:)`, and `threshold(in:)` and `whyNoThreshold(in:)` read it.
package protocol AnsweringThresholdRule: ThresholdRule {}

extension AnsweringThresholdRule {
    package func threshold(in context: ThresholdContext) -> Double? { answer(in: context).value }
    package func whyNoThreshold(in context: ThresholdContext) -> String { answer(in: context).reason ?? "" }
}

/// A rule's answer for one distribution: a threshold, or the reason it has none.
package enum RuleAnswer: Equatable, Sendable {
    case threshold(Double)
    case none(reason: String)

    package var value: Double? {
        if case .threshold(let t) = self { return t }
        return nil
    }

    package var reason: String? {
        if case .none(let reason) = self { return reason }
        return nil
    }
}

/// What a rule may look at: the pass's distribution and the space's dimension.
package struct ThresholdContext: Sendable {
    package let distribution: PairDistribution
    package let dimensions: Int
    /// The all-pairs histogram counted from the values in a pass of its own, when the first
    /// pass did not keep them (see `CoarseHistogramPass`).
    package let exactCoarse: CoarseHistogram?
    /// Each item's nearest-neighbour similarities, when a rule asked for them.
    package let neighbours: NearestNeighbours?
    /// The silhouettes of average-linkage cuts, when a rule asked for the dendrogram.
    package let silhouettes: CriterionCurve?

    package init(
        distribution: PairDistribution, dimensions: Int, exactCoarse: CoarseHistogram? = nil, neighbours: NearestNeighbours? = nil,
        silhouettes: CriterionCurve? = nil
    ) {
        self.distribution = distribution
        self.dimensions = dimensions
        self.exactCoarse = exactCoarse
        self.neighbours = neighbours
        self.silhouettes = silhouettes
    }

    /// The all-pairs histogram over the observed [min, max] with `bins` equal bins, as
    /// `numpy.histogram(values, bins)` builds it (float64 edges by linspace, last bin closed).
    /// Exact when the pass kept the values or a counted histogram of that size is given;
    /// otherwise each fine-histogram bin is placed at its centre, so a value may land one coarse
    /// bin off when it lies within 2/65 536 of an edge.
    package func coarseHistogram(bins: Int) -> CoarseHistogram? {
        let all = distribution.all
        guard all.count > 0 else { return nil }
        if let exact = exactCoarse, exact.counts.count == bins { return exact }
        if let values = distribution.sortedValues(.all) { return CoarseHistogram(values: values, bins: bins) }
        var h = CoarseHistogram(minimum: Double(all.min), maximum: Double(all.max), bins: bins)
        for (b, count) in all.histogram.enumerated() where count > 0 {
            let centre = all.centre(ofBin: b)
            h.add(min(max(centre, h.edges.first!), h.edges.last!), count: Double(count))
        }
        return h
    }
}

/// Every threshold rule, in the order help texts and docs list them: a new rule is its file (a type with an `entry`)
/// and a line here.
package let thresholdRuleRegistry = Registry<any ThresholdRule>(
    kind: "threshold rule",
    [
        FixedThreshold.entry, NoiseFloorThreshold.entry, PercentileThreshold.entry, OtsuThreshold.entry, OtsuFlooredThreshold.entry,
        KittlerIllingworthThreshold.entry, MixtureCrossingThreshold.entry, NeighbourOtsuThreshold.entry, NeighbourMixtureThreshold.entry,
        NeighbourMedianThreshold.entry, SilhouetteThreshold.entry, OracleThreshold.entry,
    ])

/// The rule `text` names (`thresholdRuleRegistry`).
package func thresholdRule(named text: String) throws -> ThresholdRule { try thresholdRuleRegistry.parse(text) }

/// The threshold rules docs/method.md ("Claims and definitions") lists, in report order.
package let standardThresholdRules: [ThresholdRule] = [
    FixedThreshold(value: 0.55), NoiseFloorThreshold(k: 4), PercentileThreshold(percent: 90), OtsuThreshold(bins: 256),
    OtsuFlooredThreshold(bins: 256), KittlerIllingworthThreshold(bins: 256), MixtureCrossingThreshold(), OracleThreshold(),
]
