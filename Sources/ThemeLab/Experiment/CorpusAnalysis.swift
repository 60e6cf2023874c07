import Foundation

/// The harness's answer for one corpus × vector source: per space, the distribution,
/// separation, every threshold and every grouping's recovery.
public struct CorpusAnalysis: Codable, Sendable {
    public struct CorpusSummary: Codable, Sendable, Equatable {
        public var name: String
        public var items: Int
        public var topics: Int?
        public var labeled: Bool
        /// Same-topic pairs / all pairs.
        var relatedPairShare: Double?
    }
    public var corpus: CorpusSummary
    /// The encoder and layer, or the embeddings file, the vectors came from.
    public var source: String
    public var dimensions: Int
    public var spaces: [SpaceAnalysis]
    var notes: [String]
    /// How the replicates behind every estimate were drawn (nil: one sample).
    public var replicates: ReplicateSet?
}

public struct SpaceAnalysis: Codable, Sendable {
    public var space: String
    public var quantileMethod: String
    /// How the 256-bin histogram Otsu and Kittler–Illingworth read was counted (optional, so
    /// results and baselines written before it still load).
    var thresholdHistogram: String?
    public var statistics: [PairClass: PairStatistics]
    public var separation: Separation?
    public var thresholds: [ThresholdOutcome]
    public var groupings: [GroupingOutcome]
    /// Per threshold grouping, the best ARI any threshold gives (labeled corpora only; optional
    /// for the same reason).
    var ceilings: [Ceiling]?
    /// Counts per class over 200 equal bins on [-1, 1], for plots.
    public var histogram: [PairClass: [Int]]
    /// Over replicates: each statistic (`PairStatistics.Statistic`) and separation figure (`Separation.Figure`).
    var replicateStatistics: [PairClass: [PairStatistics.Statistic: Estimate]]?
    var replicateSeparation: [Separation.Figure: Estimate]?
}

extension CorpusAnalysis {
    /// The analysis in one space, when it ran.
    public func space(_ space: EmbeddingSpace) -> SpaceAnalysis? { spaces.first { $0.space == space.description } }
}

/// The one way reports look results up: by the space, class, rule and grouping as values.
extension SpaceAnalysis {
    public func threshold(_ rule: ThresholdRule) -> ThresholdOutcome? { thresholds.first { $0.rule == rule.name } }

    /// The row of `grouping` at `rule`'s threshold (nil rule: a label-informed reference's row).
    func outcome(rule: ThresholdRule?, grouping: Grouping) -> GroupingOutcome? {
        groupings.first { $0.rule == rule?.name && $0.grouping == grouping.name }
    }
}

public struct ThresholdOutcome: Codable, Sendable, Equatable {
    public var rule: String
    public var value: Double?
    var labelInformed: Bool
    /// Pairs with similarity ≥ the threshold, and how many of them are related.
    var pairsAbove: Int?
    var relatedAbove: Int?
    /// Why there is no value.
    public var note: String?
    /// The threshold over replicates (those where the rule gives one).
    public var replicates: Estimate?
    /// Over replicates, of the pairs at or above the threshold: precision (share related) and recall (share of
    /// related pairs).
    var replicatePairs: [ThresholdOutcome.PairShare: Estimate]?

    /// The two shares of `replicatePairs`.
    enum PairShare: String, CaseIterable, Sendable, Codable, CodingKeyRepresentable { case precision, recall }
}

public struct GroupingOutcome: Codable, Sendable, Equatable {
    public var grouping: String
    /// The threshold rule and its value (nil for the k = topics references).
    public var rule: String?
    public var threshold: Double?
    var labelInformed: Bool
    public var groups: Int?
    public var recovery: Recovery?
    /// Leader only: the metrics over seeded shuffles of the visiting order.
    public var spread: LeaderSpread?
    /// Why a cell is N/A.
    public var note: String?
    /// Over replicates: each metric (`Metric.recovery`, and the noise share) where the cell has a value.
    public var replicates: [Metric: Estimate]?
    /// The ARI of each replicate (nil where N/A), for paired comparisons and regret.
    var replicateARI: [Double?]?
    /// Groupings that leave items out (HDBSCAN): how many, and the recovery without them. The
    /// headline `recovery` counts each noise item as a group of its own.
    public var noise: NoiseOutcome?
}

extension GroupingOutcome {
    /// The row of `cut` (at rule `t`'s threshold, or without one); noise counts as singletons in `recovery` against `topics`.
    init(_ grouping: String, _ cut: GroupingCut, rule t: ThresholdOutcome?, labelInformed: Bool, topics: [Int32]?) {
        let grouped = cut.labels.map(GroupingCut.noiseAsSingletons)
        self.init(
            grouping: grouping, rule: t?.rule, threshold: t?.value, labelInformed: labelInformed || (t?.labelInformed ?? false),
            groups: grouped.map { Set($0).count }, recovery: grouped.flatMap { a in topics.map { Recovery(topics: $0, groups: a) } },
            spread: cut.spread, note: cut.note, noise: cut.labels.flatMap { NoiseOutcome(labels: $0, topics: topics) })
    }
}

/// The items a grouping left as noise: their share, and the recovery of the grouped items alone.
public struct NoiseOutcome: Codable, Sendable, Equatable {
    public var items: Int
    public var share: Double
    /// Recovery over the items not left as noise (nil without labels or when every item is noise).
    var recoveryExcludingNoise: Recovery?

    /// Nil when no item is noise (−1).
    init?(labels: [Int32], topics: [Int32]?) {
        let kept = labels.indices.filter { labels[$0] >= 0 }
        guard kept.count < labels.count else { return nil }
        items = labels.count - kept.count
        share = Double(items) / Double(labels.count)
        recoveryExcludingNoise =
            kept.isEmpty ? nil : topics.map { t in Recovery(topics: kept.map { t[$0] }, groups: kept.map { labels[$0] }) }
    }
}
