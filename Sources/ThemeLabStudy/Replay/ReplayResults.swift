import ThemeLabCore
import ThemeLabCorpus
import ThemeLabEncoder
import ThemeLabMeasures
import ThemeLabMethods
import ThemeLabPairs

/// A replay experiment's results: per journal, per rule, per policy, its timeline over saves
/// (mean and range over orders) and its summary (estimates over orders), plus claims C8 and C9.
package struct ReplayResults: Codable, Sendable {
    package var schemaVersion = 1
    package var name: String
    package var description: String?
    package var provenance: Provenance
    package var settings: ReplayPlan.Settings
    package var journals: [JournalResult]
}

package struct JournalResult: Codable, Sendable {
    package var corpus: String
    /// Where the vectors came from.
    package var source: String
    package var order: String
    /// Orders replayed (1 for the corpus's own order).
    package var orders: Int
    package var items: Int
    package var topics: Int
    package var launch: Int
    package var initial: Int
    package var rules: [RuleResult]
    /// Wall-clock seconds of the replays of this journal's orders, summed (they run side by side with other journals'):
    /// in NAME-timings.csv only, outside the byte contract of results/.
    package var seconds = 0.0

    package enum CodingKeys: String, CodingKey { case corpus, source, order, orders, items, topics, launch, initial, rules }
}

package struct RuleResult: Codable, Sendable {
    package var rule: String
    package var policies: [PolicyResult]
    package var c8: DriftFigures?
    package var c9: PolicyFigures?
}

/// A quantity over the timeline: the mean over orders and their range (min, max) at each kept save.
package struct TimelineBand: Codable, Sendable {
    package var mean: [Double]
    package var low: [Double]
    package var high: [Double]
}

/// One policy's results. The JSON keeps its summary; the timeline goes to NAME-timeline.csv and the plots.
package struct PolicyResult: Codable, Sendable {
    package var policy: String
    package var summary: PolicySummary
    package var timeline = PolicyTimeline()
    /// Wall-clock seconds of the policy's own work over orders: in NAME-timings.csv only.
    package var seconds: Estimate?

    package enum CodingKeys: String, CodingKey { case policy, summary }
}

package struct PolicyTimeline: Sendable {
    /// Items in the journal at each kept save.
    package var items: [Int] = []
    package var ari, staleness, largestShare, groups, regroups, work: TimelineBand?
}

/// Estimates over orders (95% percentile-bootstrap interval of the mean).
package struct PolicySummary: Codable, Sendable {
    package var finalAri: Estimate
    /// Staleness ARI averaged over every recorded save.
    package var meanStaleness: Estimate
    package var minStaleness: Estimate
    package var finalLargestShare: Estimate
    package var regroups: Estimate
    /// Similarities computed over the whole replay.
    package var work: Estimate
    /// Work over the always-regroup policy's work on the same order.
    package var workShare: Estimate?
}

/// Claim C8 on one journal: never-regroup against always-regroup, paired by order. "Quarter" is
/// the save a quarter of the way from the first record to the last.
package struct DriftFigures: Codable, Sendable {
    /// ARI(always) − ARI(never) at the last save.
    package var gapFinal: Estimate
    /// That gap minus the same gap at the quarter save: > 0 when never falls further behind.
    package var gapGrowth: Estimate
    /// Never's largest-group share at the last save minus at the quarter save (the magnet).
    package var magnetGrowth: Estimate
    /// Never's largest-group share minus always's, at the last save.
    package var magnetExcess: Estimate
    package var verdict: Verdict
}

/// Claim C9 on one journal: the journal method's policy against always-regroup, paired by order.
package struct PolicyFigures: Codable, Sendable {
    package var policy: String
    package var meanStaleness: Estimate
    package var workShare: Estimate
    /// ARI(always) − ARI(policy) at the last save.
    package var finalAriLoss: Estimate
    package var verdict: Verdict
}

extension RuleResult {
    /// Summaries of the timelines of every order (`timelines[order][policy]`).
    package init(rule: String, policies names: [String], timelines: [[JournalReplay.Timeline]], initial: Int, points: Int, seed: UInt64) {
        self.rule = rule
        let bootstrap = PercentileBootstrap(count: timelines.count, seed: seed)
        let records = timelines[0][0].ari.count
        let stride = max(1, (records - 1 + points - 2) / (points - 1))
        let kept = Array(Swift.stride(from: 0, to: records - 1, by: stride)) + [records - 1]
        func band(_ p: Int, _ series: (JournalReplay.Timeline) -> [Double]) -> TimelineBand {
            let columns = kept.map { k in timelines.map { series($0[p])[k] } }
            return TimelineBand(
                mean: columns.map { $0.reduce(0, +) / Double($0.count) }, low: columns.map { $0.min()! }, high: columns.map { $0.max()! })
        }
        let always = names.firstIndex(of: "always")
        let last = records - 1
        policies = names.enumerated().map { p, name in
            func estimate(_ f: (JournalReplay.Timeline) -> Double) -> Estimate { bootstrap.estimate(timelines.map { f($0[p]) }) }
            let summary = PolicySummary(
                finalAri: estimate { $0.ari[last] }, meanStaleness: estimate { $0.staleness.reduce(0, +) / Double(records) },
                minStaleness: estimate { $0.staleness.min()! }, finalLargestShare: estimate { $0.largestShare[last] },
                regroups: estimate { $0.regroups[last] }, work: estimate { $0.work[last] },
                workShare: always.map { a in bootstrap.estimate(timelines.map { $0[p].work[last] / $0[a].work[last] }) })
            let timeline = PolicyTimeline(
                items: kept.map { initial + $0 }, ari: band(p, \.ari), staleness: band(p, \.staleness),
                largestShare: band(p, \.largestShare),
                groups: band(p, \.groups), regroups: band(p, \.regroups), work: band(p, \.work))
            return PolicyResult(policy: name, summary: summary, timeline: timeline, seconds: estimate { $0.seconds[last] })
        }
        if let a = always, let n = names.firstIndex(of: "never") {
            c8 = C8IncrementalDrifts.figures(timelines, always: a, never: n, bootstrap)
        }
        if let a = always, let p = names.firstIndex(of: C9JournalMethodPolicySuffices.policy.name) {
            c9 = C9JournalMethodPolicySuffices.figures(timelines, always: a, policy: p, summary: policies[p].summary, bootstrap)
        }
    }
}
