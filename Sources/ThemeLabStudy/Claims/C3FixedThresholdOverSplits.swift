import ThemeLabCore
import ThemeLabCorpus
import ThemeLabEncoder
import ThemeLabMeasures
import ThemeLabMethods
import ThemeLabPairs

/// C3: the journal method's fixed threshold (0.55, tuned on synthetic vectors) over-splits real text: leader assignment at it
/// makes more groups than there are topics.
package enum C3FixedThresholdOverSplits: CorpusClaim {
    package static let id = "C3"
    package static let reported = "26 sentences → 25 themes"
    package static let short = "the fixed threshold 0.55 over-splits real text"
    /// The journal method's threshold, read with its grouping (the leader) in the centred space.
    package static let rule = FixedThreshold(value: 0.55)
    /// "Over-splits": at least this many groups per topic (the author saw 25 themes for 26 sentences); more groups than
    /// topics but fewer than this is "partly".
    package static let overSplitFactor = 2.0

    /// Leader groups at the threshold, with their estimate over replicates.
    package static func evidence(_ row: GroupingOutcome, groups: Int) -> [ClaimsReport.Evidence] {
        [.init("leader groups at \(formatArgument(rule.value))", Double(groups), row.replicates?[.groups])]
    }

    package static func verdict(groups: Double, topics: Double) -> Verdict {
        groups >= overSplitFactor * topics ? .holds : (groups > topics ? .partly : .doesNotHold)
    }

    package static func finding(_ a: CorpusAnalysis, _: PairedReplicates) -> Finding? {
        guard let topics = a.corpus.topics, let row = a.space(.centred)?.outcome(rule: rule, grouping: LeaderGrouping()),
            let g = row.groups
        else { return nil }
        return Finding(
            space: .centred, ours: "\(a.corpus.items) items → \(g) leader groups (\(topics) topics)", evidence: evidence(row, groups: g),
            reason: g > topics ? "more groups than topics" : "no over-splitting"
        ) { verdict(groups: $0[0], topics: Double(topics)) }
    }
}
