import ThemeLabCore
import ThemeLabCorpus
import ThemeLabEncoder
import ThemeLabMeasures
import ThemeLabMethods
import ThemeLabPairs

/// One of the claims of the journal method's author (README, "Claims and definitions"). Its criteria are named constants on the
/// conforming type; the quantities it rests on and the verdict they give are functions of their own.
package protocol Claim {
    /// "C1" … "C9".
    static var id: String { get }
    /// The figure the journal method's author reported.
    static var reported: String { get }
    /// The claim in a few words, as REPORT.md's summary names it.
    static var short: String { get }
}

/// A claim checked on every corpus analysis (C1–C6): one row of the claims table per analysis that has what it reads.
package protocol CorpusClaim: Claim {
    /// What the claim finds on `a`; nil when `a` lacks a space, statistic, rule or grouping the claim reads.
    static func finding(_ a: CorpusAnalysis, _ paired: PairedReplicates) -> Finding?
}

/// What a claim found on one analysis.
package struct Finding {
    /// The space the claim is read in.
    package var space: EmbeddingSpace
    /// Our figures, as the table shows them.
    package var ours: String
    /// The quantities the verdict rests on, in the order `verdict` reads them.
    package var evidence: [ClaimsReport.Evidence]
    /// Why, at the corpus's own figures.
    package var reason: String
    /// The verdict at given values of the quantities (the corpus's figures, or a corner of their intervals).
    package var verdict: ([Double]) -> Verdict
}

extension CorpusClaim {
    /// The claims-table row of `a`: the verdict at the finding's quantities, or "inconclusive" with what flips when a
    /// corner of their intervals gives another.
    package static func row(_ a: CorpusAnalysis, _ paired: PairedReplicates) -> ClaimsReport.Row? {
        guard let f = finding(a, paired) else { return nil }
        let (verdict, flips) = ClaimsReport.decide(f.evidence, f.verdict)
        return ClaimsReport.Row(
            claim: id, reported: reported, corpus: a.corpus.name, source: a.source, space: f.space.description, ours: f.ours,
            quantities: ClaimsReport.describe(f.evidence), verdict: verdict, reason: flips.map { "\(f.reason); \($0)" } ?? f.reason,
            topics: a.corpus.topics, figures: f.evidence.map(ClaimsReport.Figure.init))
    }
}

/// A quantity combined per replicate from two series (a paired difference, the better of two), estimated on the
/// resamples of the analysis's own estimates so that it is paired like them.
package struct PairedReplicates {
    package let bootstrap: PercentileBootstrap?

    package init(_ a: CorpusAnalysis, seed: UInt64) { bootstrap = a.replicateBootstrap(seed: seed) }

    /// The estimate of `combine` over the replicates of `x` and `y`; nil without replicates or either series.
    package func estimate(_ x: [Double?]?, _ y: [Double?]?, _ combine: (Double?, Double?) -> Double?) -> Estimate? {
        guard let bootstrap, let x, let y else { return nil }
        return bootstrap.estimate(zip(x, y).map(combine))
    }
}
