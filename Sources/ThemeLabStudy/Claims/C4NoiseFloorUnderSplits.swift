import ThemeLabCore
import ThemeLabCorpus
import ThemeLabEncoder
import ThemeLabMeasures
import ThemeLabMethods
import ThemeLabPairs

/// C4: the journal method's noise floor k/√d under-splits: it sits below the corpus's 90th percentile, and connected components at
/// it make fewer groups than there are topics.
package enum C4NoiseFloorUnderSplits: CorpusClaim {
    package static let id = "C4"
    package static let reported = "0.177 (d = 512) below a real journal's p90; under-splits"
    package static let short = "the noise floor 4/√d under-splits"
    /// The journal method's floor, 4/√d, read with connected components in the centred space.
    package static let rule = NoiseFloorThreshold(k: 4)
    /// The similarity the floor is set against ("below a real journal's p90").
    package static let percentile = PercentileThreshold(percent: 90)
    /// The floor as the table names it.
    package static let floorName = "\(formatArgument(rule.k))/√d"

    /// How far p90 lies above the floor (the floor is fixed, so its interval is p90's shifted), and the components at
    /// the floor, with their estimates over replicates.
    package static func evidence(
        floor: Double, p90: ThresholdOutcome, p90Value: Double, _ row: GroupingOutcome, groups: Int
    ) -> [ClaimsReport.Evidence] {
        [
            .init(
                "p90 − \(floorName)", p90Value - floor,
                p90.replicates.map { Estimate(n: $0.n, mean: $0.mean - floor, sd: $0.sd, low: $0.low - floor, high: $0.high - floor) }),
            .init("components groups at \(floorName)", Double(groups), row.replicates?[.groups]),
        ]
    }

    /// Holds when the floor is below p90 (margin > 0) and components make fewer groups than topics; partly when one.
    package static func verdict(margin: Double, groups: Double, topics: Double) -> Verdict {
        let (below, under) = (margin > 0, groups < topics)
        return below && under ? .holds : (below || under ? .partly : .doesNotHold)
    }

    package static func finding(_ a: CorpusAnalysis, _: PairedReplicates) -> Finding? {
        guard let topics = a.corpus.topics, let centred = a.space(.centred), let floor = centred.threshold(rule)?.value,
            let p90 = centred.threshold(percentile), let p90Value = p90.value,
            let row = centred.outcome(rule: rule, grouping: SingleLinkageComponents()), let g = row.groups
        else { return nil }
        return Finding(
            space: .centred,
            ours: "\(floorName) \(formatShort(floor)) vs p90 \(formatShort(p90Value)); components \(g) groups (\(topics) topics)",
            evidence: evidence(floor: floor, p90: p90, p90Value: p90Value, row, groups: g),
            reason:
                "\(floor < p90Value ? "floor below p90" : "floor above p90"); "
                + "\(g < topics ? "fewer groups than topics" : "not fewer groups than topics")"
        ) { verdict(margin: $0[0], groups: $0[1], topics: Double(topics)) }
    }
}
