import Foundation
import ThemeLabCore
import ThemeLabCorpus
import ThemeLabEncoder
import ThemeLabMeasures
import ThemeLabMethods
import ThemeLabPairs

/// The harness's answer for one corpus × vector source: per space, the distribution,
/// separation, every threshold and every grouping's recovery.
package struct CorpusAnalysis: Codable, Sendable {
    package struct CorpusSummary: Codable, Sendable, Equatable {
        package var name: String
        package var items: Int
        package var topics: Int?
        package var labeled: Bool
        /// Same-topic pairs / all pairs.
        package var relatedPairShare: Double?
    }
    package var corpus: CorpusSummary
    /// The encoder and layer, or the embeddings file, the vectors came from.
    package var source: String
    package var dimensions: Int
    package var spaces: [SpaceAnalysis]
    package var notes: [String]
    /// How the replicates behind every estimate were drawn (nil: one sample).
    package var replicates: ReplicateSet?
    /// The items, with the rows' `members` (the corpus's own analysis only); not written into the results JSON.
    package var items: [CorpusItem]?

    package enum CodingKeys: String, CodingKey { case corpus, source, dimensions, spaces, notes, replicates }
}

package struct SpaceAnalysis: Codable, Sendable {
    package var space: EmbeddingSpace
    package var quantileMethod: String
    /// How the 256-bin histogram Otsu and Kittler–Illingworth read was counted (optional, so
    /// results and baselines written before it still load).
    package var thresholdHistogram: String?
    package var statistics: [PairClass: PairStatistics]
    package var separation: Separation?
    package var thresholds: [ThresholdOutcome]
    package var groupings: [GroupingOutcome]
    /// Per threshold grouping, the best ARI any threshold gives (labeled corpora only; optional
    /// for the same reason).
    package var ceilings: [Ceiling]?
    /// Counts per class over 200 equal bins on [-1, 1], for plots.
    package var histogram: [PairClass: [Int]]
    /// Over replicates: each statistic (`PairStatistics.Statistic`) and separation figure (`Separation.Figure`).
    package var replicateStatistics: [PairClass: [PairStatistics.Statistic: Estimate]]?
    package var replicateSeparation: [Separation.Figure: Estimate]?
    /// What the threshold explorer page draws (the corpus's own analysis, when a page is asked for); not written.
    package var explorer: ExplorerSpace? = nil

    package enum CodingKeys: String, CodingKey {
        case space, quantileMethod, thresholdHistogram, statistics, separation, thresholds, groupings, ceilings, histogram
        case replicateStatistics, replicateSeparation
    }
}

extension CorpusAnalysis {
    /// The analysis in one space, when it ran.
    package func space(_ space: EmbeddingSpace) -> SpaceAnalysis? { spaces.first { $0.space == space } }
}

/// The one way reports look results up: by the space, class, rule and grouping as values.
extension SpaceAnalysis {
    package func threshold(_ rule: ThresholdRule) -> ThresholdOutcome? { thresholds.first { $0.rule == rule.key } }

    /// The row of `grouping` at `rule`'s threshold (nil rule: a label-informed reference's row).
    package func outcome(rule: ThresholdRule?, grouping: Grouping) -> GroupingOutcome? {
        groupings.first { $0.rule == rule?.key && $0.grouping == grouping.key }
    }
}

package struct ThresholdOutcome: Codable, Sendable, Equatable {
    package var rule: RuleKey
    package var value: Double?
    package var labelInformed: Bool
    /// Pairs with similarity ≥ the threshold, and how many of them are related.
    package var pairsAbove: Int?
    package var relatedAbove: Int?
    /// Why there is no value.
    package var note: String?
    /// The threshold over replicates (those where the rule gives one).
    package var replicates: Estimate?
    /// Over replicates, of the pairs at or above the threshold: precision (share related) and recall (share of
    /// related pairs).
    package var replicatePairs: [ThresholdOutcome.PairShare: Estimate]?

    /// The two shares of `replicatePairs`.
    package enum PairShare: String, CaseIterable, Sendable, Codable, CodingKeyRepresentable { case precision, recall }
}

package struct GroupingOutcome: Codable, Sendable, Equatable {
    package var grouping: GroupingKey
    /// The threshold rule and its value (nil for the k = topics references).
    package var rule: RuleKey?
    package var threshold: Double?
    package var labelInformed: Bool
    package var groups: Int?
    package var recovery: Recovery?
    /// Leader only: the metrics over seeded shuffles of the visiting order.
    package var spread: LeaderSpread?
    /// Why a cell is N/A.
    package var note: String?
    /// Groupings that depend on order or a seed, the corpus's own analysis: the ARI between this partition and a rerun
    /// in another visiting order with another seed (`Analysis.addRerunAgreement`).
    package var rerunARI: Double? = nil
    /// Over replicates: each metric (`Metric.recovery`, and the noise share) where the cell has a value.
    package var replicates: [Metric: Estimate]?
    /// The ARI of each replicate (nil where N/A), for paired comparisons and regret.
    package var replicateARI: [Double?]?
    /// Groupings that leave items out (HDBSCAN): how many, and the recovery without them. The
    /// headline `recovery` counts each noise item as a group of its own.
    package var noise: NoiseOutcome?
    /// The cut's partition until the analysis turns it into `members` (or drops it, for a replicate); not written.
    package var partition: [Int32]?
    /// Which entries form each group (the corpus's own analysis only); not written into the results JSON.
    package var members: GroupMembers?

    package enum CodingKeys: String, CodingKey {
        case grouping, rule, threshold, labelInformed, groups, recovery, spread, note, rerunARI, replicates, replicateARI, noise
    }
}

extension GroupingOutcome {
    /// The row of `cut` (at rule `t`'s threshold, or without one); noise counts as singletons in `recovery` against `topics`.
    package init(_ grouping: GroupingKey, _ cut: GroupingCut, rule t: ThresholdOutcome?, labelInformed: Bool, topics: [Int32]?) {
        let grouped = cut.labels.map(GroupingCut.noiseAsSingletons)
        self.init(
            grouping: grouping, rule: t?.rule, threshold: t?.value, labelInformed: labelInformed || (t?.labelInformed ?? false),
            groups: grouped.map { Set($0).count }, recovery: grouped.flatMap { a in topics.map { Recovery(topics: $0, groups: a) } },
            spread: cut.spread, note: cut.note, noise: cut.labels.flatMap { NoiseOutcome(labels: $0, topics: topics) },
            partition: cut.labels)
    }
}

/// The items a grouping left as noise: their share, and the recovery of the grouped items alone.
package struct NoiseOutcome: Codable, Sendable, Equatable {
    package var items: Int
    package var share: Double
    /// Recovery over the items not left as noise (nil without labels or when every item is noise).
    package var recoveryExcludingNoise: Recovery?

    /// Nil when no item is noise (−1).
    package init?(labels: [Int32], topics: [Int32]?) {
        let kept = labels.indices.filter { labels[$0] >= 0 }
        guard kept.count < labels.count else { return nil }
        items = labels.count - kept.count
        share = Double(items) / Double(labels.count)
        recoveryExcludingNoise =
            kept.isEmpty ? nil : topics.map { t in Recovery(topics: kept.map { t[$0] }, groups: kept.map { labels[$0] }) }
    }
}
