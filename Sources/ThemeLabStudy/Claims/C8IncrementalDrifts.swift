import ThemeLabCore
import ThemeLabCorpus
import ThemeLabEncoder
import ThemeLabMeasures
import ThemeLabMethods
import ThemeLabPairs

/// C8: incremental assignment drifts: with never-regroup, the journal falls further behind regrouping from scratch as
/// it grows, and a group that swallowed much becomes a magnet (its largest group grows).
package enum C8IncrementalDrifts: Claim {
    package static let id = "C8"
    package static let reported = "why the journal method regroups from scratch"
    package static let short = "assigning without regrouping drifts"

    /// The figures on one journal × rule: never-regroup (policy `never`) against always-regroup (`always`), paired by
    /// order (`timelines[order][policy]`), between the quarter save and the last.
    package static func figures(
        _ timelines: [[JournalReplay.Timeline]], always a: Int, never n: Int, _ bootstrap: PercentileBootstrap
    ) -> DriftFigures {
        let last = timelines[0][0].ari.count - 1
        let quarter = last / 4
        func paired(_ f: (JournalReplay.Timeline, JournalReplay.Timeline) -> Double) -> Estimate {
            bootstrap.estimate(timelines.map { f($0[a], $0[n]) })
        }
        let growth = paired { ($0.ari[last] - $1.ari[last]) - ($0.ari[quarter] - $1.ari[quarter]) }
        let magnet = paired { $1.largestShare[last] - $1.largestShare[quarter] }
        return DriftFigures(
            gapFinal: paired { $0.ari[last] - $1.ari[last] }, gapGrowth: growth, magnetGrowth: magnet,
            magnetExcess: paired { $1.largestShare[last] - $0.largestShare[last] },
            verdict: verdict(gapGrowth: growth, magnetGrowth: magnet))
    }

    /// Holds when the ARI gap grows and never's largest group grows, each with its whole interval above 0; in part when
    /// one does; does not hold when both intervals are at or below 0; else inconclusive.
    package static func verdict(gapGrowth g: Estimate, magnetGrowth m: Estimate) -> Verdict {
        switch (g.low > 0, m.low > 0) {
        case (true, true): .holds
        case (true, false), (false, true): .inPart
        default: g.high <= 0 && m.high <= 0 ? .doesNotHold : .inconclusive
        }
    }
}
