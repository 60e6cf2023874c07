import ThemeLabCore
import ThemeLabCorpus
import ThemeLabEncoder
import ThemeLabMeasures
import ThemeLabMethods
import ThemeLabPairs

/// C1 (anisotropy): raw cosines of pooled contextual embeddings sit in a narrow, high band.
package enum C1NarrowRawBand: CorpusClaim {
    package static let id = "C1"
    package static let reported = "unrelated 0.86–0.94, band 0.076, all > 0.85"
    package static let short = "raw cosines sit in a narrow, high band"
    /// "High": the unrelated pairs' 1st percentile is at least this (the author saw every unrelated pair above 0.85).
    package static let minimumUnrelatedP1 = 0.8
    /// "Narrow": the unrelated band p99 − p1 is at most this wide (the author's was 0.076).
    package static let maximumBandWidth = 0.1
    /// "Partly": not a narrow high band, but the unrelated median is at least this (still well above 0).
    package static let minimumPartlyMedian = 0.5

    /// Unrelated p1, band width and unrelated median of the raw space, each with its estimate over replicates.
    package static func evidence(_ raw: SpaceAnalysis, _ u: PairStatistics) -> [ClaimsReport.Evidence] {
        let r = raw.replicateStatistics?[.unrelated]
        return [
            .init("unrelated p1", u.p1, r?[.p1]), .init("band p99 − p1", u.p99 - u.p1, raw.replicateSeparation?[.bandWidth]),
            .init("unrelated median", u.median, r?[.median]),
        ]
    }

    package static func verdict(p1: Double, band: Double, median: Double) -> Verdict {
        p1 >= minimumUnrelatedP1 && band <= maximumBandWidth ? .holds : (median >= minimumPartlyMedian ? .partly : .doesNotHold)
    }

    package static func finding(_ a: CorpusAnalysis, _: PairedReplicates) -> Finding? {
        guard let raw = a.space(.raw), let u = raw.statistics[.unrelated] else { return nil }
        let reason =
            switch verdict(p1: u.p1, band: u.p99 - u.p1, median: u.median) {
            case .holds: "unrelated pairs all high and within a narrow band"
            case .partly: "high but wide band"
            default: "unrelated raw cosines are not high (median \(formatShort(u.median)))"
            }
        return Finding(
            space: .raw, ours: "unrelated p1–p99 \(formatShort(u.p1))–\(formatShort(u.p99)), width \(formatShort(u.p99 - u.p1))",
            evidence: evidence(raw, u), reason: reason
        ) { verdict(p1: $0[0], band: $0[1], median: $0[2]) }
    }
}
