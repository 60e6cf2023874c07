import ThemeLabCore
import ThemeLabCorpus
import ThemeLabEncoder
import ThemeLabMeasures
import ThemeLabMethods
import ThemeLabPairs

/// C9: the journal method's policy (regroup at launch, then when the corpus grew by half or its mean moved) is enough: its shown
/// groups stay close to a fresh regroup at a fraction of always-regrouping's work.
package enum C9JournalMethodPolicySuffices: Claim {
    package static let id = "C9"
    package static let reported = "\"not on every save\""
    package static let short = "the journal method's regroup policy is enough"
    /// The policy the claim is about: the journal method's growth factor and the drift the harness takes for it.
    package static let policy = JournalMethodPolicy(growth: JournalMethodPolicy.defaultGrowth, drift: JournalMethodPolicy.defaultDrift)
    /// "Close to a fresh regroup": mean staleness ARI at least this.
    package static let closeStaleness = 0.9
    /// "A fraction of its cost": at most this share of always-regroup's work.
    package static let costFraction = 0.25

    /// The figures on one journal × rule: the journal method's policy (`policy`, with its `summary`) against always-regroup
    /// (`always`), paired by order (`timelines[order][policy]`).
    package static func figures(
        _ timelines: [[JournalReplay.Timeline]], always a: Int, policy p: Int, summary: PolicySummary, _ bootstrap: PercentileBootstrap
    ) -> PolicyFigures {
        let last = timelines[0][0].ari.count - 1
        let (staleness, share) = (summary.meanStaleness, summary.workShare!)
        return PolicyFigures(
            policy: policy.name, meanStaleness: staleness, workShare: share,
            finalAriLoss: bootstrap.estimate(timelines.map { $0[a].ari[last] - $0[p].ari[last] }),
            verdict: verdict(meanStaleness: staleness, workShare: share))
    }

    /// Holds when mean staleness ≥ `closeStaleness` and work share ≤ `costFraction`, each for the whole interval; does
    /// not hold when either interval lies wholly on the wrong side; else inconclusive.
    package static func verdict(meanStaleness s: Estimate, workShare w: Estimate) -> Verdict {
        if s.low >= closeStaleness && w.high <= costFraction { return .holds }
        if s.high < closeStaleness || w.low > costFraction { return .doesNotHold }
        return .inconclusive
    }
}
