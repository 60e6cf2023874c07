import ThemeLabCore
import ThemeLabCorpus
import ThemeLabEncoder
import ThemeLabMeasures
import ThemeLabMethods
import ThemeLabPairs

/// C5: the 90th percentile breaks a corpus whose related-pair share is not a tenth: average linkage at p90 loses ARI
/// against the label-informed oracle threshold.
package enum C5PercentileNeedsATenth: CorpusClaim {
    package static let id = "C5"
    package static let reported = "seed's same-topic share about a fifth; p90 breaks"
    package static let short = "the 90th percentile breaks unless a tenth of pairs are related"
    /// The rule under test, read with average linkage in the centred space.
    package static let rule = PercentileThreshold(percent: 90)
    /// What it is measured against: the label-informed threshold of best pair F1.
    package static let oracle = OracleThreshold()
    /// The related-pair share p90 assumes: the tenth of pairs above it.
    package static let assumedShare = 0.1
    /// A share within this of `assumedShare` counts as a tenth, where the claim does not apply.
    package static let shareTolerance = 0.05
    /// "Breaks": the oracle's ARI exceeds p90's by more than this.
    package static let minimumARILoss = 0.1

    /// The oracle's ARI minus p90's, with its paired estimate over replicates.
    package static func evidence(
        oracle: GroupingOutcome, oracleARI: Double, p90: GroupingOutcome, p90ARI: Double, _ paired: PairedReplicates
    ) -> [ClaimsReport.Evidence] {
        let loss = paired.estimate(oracle.replicateARI, p90.replicateARI) { ($0 ?? 0) - ($1 ?? 0) }
        return [.init("oracle ARI − p90 ARI (average)", oracleARI - p90ARI, loss)]
    }

    /// Whether `share` is close enough to a tenth that the claim does not apply.
    package static func nearTenth(_ share: Double) -> Bool { abs(share - assumedShare) <= shareTolerance }

    package static func verdict(loss: Double, share: Double) -> Verdict {
        nearTenth(share) ? .shareNearTenth : (loss > minimumARILoss ? .holds : .doesNotHold)
    }

    package static func finding(_ a: CorpusAnalysis, _ paired: PairedReplicates) -> Finding? {
        guard a.corpus.topics != nil, let share = a.corpus.relatedPairShare, let centred = a.space(.centred),
            let p90 = centred.outcome(rule: rule, grouping: AverageLinkageCut()), let p90ARI = p90.recovery?.ari,
            let best = centred.outcome(rule: oracle, grouping: AverageLinkageCut()), let oracleARI = best.recovery?.ari
        else { return nil }
        let loss = oracleARI - p90ARI
        return Finding(
            space: .centred,
            ours: "related share \(formatShort(share)); average ARI at p90 \(formatShort(p90ARI)) vs oracle \(formatShort(oracleARI))",
            evidence: evidence(oracle: best, oracleARI: oracleARI, p90: p90, p90ARI: p90ARI, paired),
            reason: nearTenth(share)
                ? "share close to the assumed tenth"
                : (loss > minimumARILoss ? "p90 loses \(formatShort(loss)) ARI" : "p90 within \(minimumARILoss) ARI of the oracle")
        ) { verdict(loss: $0[0], share: share) }
    }
}
