import Foundation

/// C7: the corpus mean can be kept as per-theme running sums: summing the themes' sum-vectors gives exactly the
/// sentence mean (measured on unit vectors, on the corpus and its subsamples).
enum C7ThemeSumsGiveTheMean: Claim {
    static let id = "C7"
    static let reported = "summing theme sum-vectors gives exactly the sentence mean"
    static let short = "per-theme sums give the corpus mean exactly"
    /// "Partly": not the same bits, but no coordinate differs by more than this (rounding of Float64 sums, far below
    /// anything a Float32 vector can show).
    static let maximumPartlyDifference = 1e-12

    /// The largest absolute difference from the plain mean, with its estimate over subsamples.
    static func evidence(_ r: ReproductionReport.ThemeSumsResult) -> [ClaimsReport.Evidence] {
        [.init("largest absolute difference", r.maxAbsDifference, r.replicates)]
    }

    static func verdict(difference: Double) -> Verdict {
        difference == 0 ? .holds : (difference < maximumPartlyDifference ? .partly : .doesNotHold)
    }

    /// The claims-table row (figures in scientific notation: they are zero or rounding).
    static func row(_ r: ReproductionReport.ThemeSumsResult) -> ClaimsReport.Row {
        func scientific(_ x: Double) -> String { String(format: "%.1e", x) }
        let (decided, flips) = ClaimsReport.decide(evidence(r)) { verdict(difference: $0[0]) }
        return ClaimsReport.Row(
            claim: id, reported: reported, corpus: r.corpus, source: r.source, space: "unit vectors",
            ours: "largest absolute difference \(scientific(r.maxAbsDifference))\(r.identicalBits ? ", identical bits" : "")"
                + (r.replicates.map { ", identical bits on \(r.identicalReplicates) of \($0.n) subsamples" } ?? ""),
            quantities: "largest absolute difference "
                + (r.replicates.map {
                    "\(scientific($0.mean)) [\(scientific($0.low)), \(scientific($0.high))] (own draw \(scientific(r.maxAbsDifference)))"
                } ?? scientific(r.maxAbsDifference)),
            verdict: decided, reason: "Float64 sums of Float32 vectors" + (flips.map { "; \($0)" } ?? ""),
            figures: evidence(r).map(ClaimsReport.Figure.init))
    }
}
