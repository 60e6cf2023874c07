import ThemeLabCore
import ThemeLabCorpus
import ThemeLabEncoder
import ThemeLabMeasures
import ThemeLabMethods
import ThemeLabPairs

/// C2: centring (subtracting the mean unit vector) spreads the unrelated pairs out around 0.
package enum C2CentringSpreads: CorpusClaim {
    package static let id = "C2"
    package static let reported = "centred unrelated median −0.036, related p99 0.513"
    package static let short = "centring spreads unrelated pairs around 0"
    /// "Around 0": the centred unrelated median is within this of 0 (the author's was −0.036).
    package static let maximumCentredMedian = 0.05

    /// The centred unrelated median, and how much wider the centred unrelated band is than the raw one: a paired
    /// difference, both bands being measured on the same replicates.
    package static func evidence(
        raw: SpaceAnalysis, centred: SpaceAnalysis, _ ru: PairStatistics, _ cu: PairStatistics, _ paired: PairedReplicates
    ) -> [ClaimsReport.Evidence] {
        let widening = paired.estimate(centred.replicateSeparation?[.bandWidth]?.values, raw.replicateSeparation?[.bandWidth]?.values) {
            x, y in x.flatMap { a in y.map { a - $0 } }
        }
        return [
            .init("centred unrelated median", cu.median, centred.replicateStatistics?[.unrelated]?[.median]),
            .init("band widening (centred − raw)", (cu.p99 - cu.p1) - (ru.p99 - ru.p1), widening),
        ]
    }

    package static func isNearZero(_ median: Double) -> Bool { abs(median) < maximumCentredMedian }

    /// Holds when the median is near 0 and the band widened; partly when one of the two.
    package static func verdict(median: Double, widening: Double) -> Verdict {
        let (near, spread) = (isNearZero(median), widening > 0)
        return near && spread ? .holds : (near || spread ? .partly : .doesNotHold)
    }

    package static func finding(_ a: CorpusAnalysis, _ paired: PairedReplicates) -> Finding? {
        guard let raw = a.space(.raw), let centred = a.space(.centred), let ru = raw.statistics[.unrelated],
            let cu = centred.statistics[.unrelated], let cr = centred.statistics[.related]
        else { return nil }
        let (rawBand, centredBand) = (ru.p99 - ru.p1, cu.p99 - cu.p1)
        return Finding(
            space: .centred,
            ours:
                "unrelated median \(formatShort(cu.median)), related p99 \(formatShort(cr.p99)); band "
                + "\(formatShort(rawBand)) → \(formatShort(centredBand))",
            evidence: evidence(raw: raw, centred: centred, ru, cu, paired),
            reason:
                "\(isNearZero(cu.median) ? "unrelated centred near 0" : "unrelated median not near 0"); "
                + (centredBand > rawBand ? "band widened" : "band did not widen")
        ) { verdict(median: $0[0], widening: $0[1]) }
    }
}
