import ThemeLabCore
import ThemeLabCorpus
import ThemeLabEncoder
import ThemeLabMeasures
import ThemeLabMethods
import ThemeLabPairs

/// C6: Otsu's threshold finds the valley between related and unrelated similarities: exactly the related pairs lie
/// above it, and connected components at it give one group per topic.
package enum C6OtsuFindsTheValley: CorpusClaim {
    package static let id = "C6"
    package static let reported = "seed-12: Otsu 0.333, exactly the 13 of 66 same-topic pairs above, 4 groups"
    package static let short = "Otsu's threshold finds the valley between related and unrelated"
    /// The rule under test, read with components and average linkage in the centred space.
    package static let rule = OtsuThreshold(bins: 256)
    /// "Partly": the cut is not exact, but components or average linkage at it still reach this ARI.
    package static let minimumPartlyARI = 0.5

    /// The share of pairs above the cut that are related, the share of related pairs above it, the components groups,
    /// and the better ARI of components and average linkage, each with its estimate over replicates.
    package static func evidence(
        _ t: ThresholdOutcome, above: Int, relatedAbove: Int, relatedTotal: Int, components: GroupingOutcome, groups: Int,
        average: GroupingOutcome, _ paired: PairedReplicates
    ) -> [ClaimsReport.Evidence] {
        let precision = above > 0 ? Double(relatedAbove) / Double(above) : 1
        let recall = relatedTotal > 0 ? Double(relatedAbove) / Double(relatedTotal) : 1
        let bestARI = max(components.recovery?.ari ?? 0, average.recovery?.ari ?? 0)
        return [
            .init("share of pairs above that are related", precision, t.replicatePairs?[.precision]),
            .init("share of related pairs above", recall, t.replicatePairs?[.recall]),
            .init("components groups", Double(groups), components.replicates?[.groups]),
            .init(
                "best ARI (components, average)", bestARI,
                paired.estimate(components.replicateARI, average.replicateARI) { max($0 ?? 0, $1 ?? 0) }),
        ]
    }

    /// Holds when the cut separates the classes exactly and components find the topics; partly when the better
    /// grouping still reaches `minimumPartlyARI`.
    package static func verdict(precision: Double, recall: Double, groups: Double, bestARI: Double, topics: Double) -> Verdict {
        precision == 1 && recall == 1 && groups == topics ? .holds : (bestARI >= minimumPartlyARI ? .partly : .doesNotHold)
    }

    package static func finding(_ a: CorpusAnalysis, _ paired: PairedReplicates) -> Finding? {
        guard let topics = a.corpus.topics, let centred = a.space(.centred), let t = centred.threshold(rule),
            let above = t.pairsAbove, let relatedAbove = t.relatedAbove,
            let comp = centred.outcome(rule: rule, grouping: SingleLinkageComponents()), let compGroups = comp.groups,
            let avg = centred.outcome(rule: rule, grouping: AverageLinkageCut())
        else { return nil }
        let relatedTotal = centred.statistics[.related]?.count ?? 0
        let evidence = evidence(
            t, above: above, relatedAbove: relatedAbove, relatedTotal: relatedTotal, components: comp, groups: compGroups, average: avg,
            paired)
        return Finding(
            space: .centred,
            ours:
                "Otsu \(formatShort(t.value)): \(above) pairs above, \(relatedAbove) of \(relatedTotal) related; components "
                + "\(compGroups), average \(avg.groups ?? 0) groups (ARI \(formatShort(avg.recovery?.ari))); \(topics) topics",
            evidence: evidence,
            reason: evidence[0].point == 1 && evidence[1].point == 1
                ? "separates related from unrelated exactly" : "related and unrelated overlap at Otsu's cut"
        ) { verdict(precision: $0[0], recall: $0[1], groups: $0[2], bestARI: $0[3], topics: Double(topics)) }
    }
}
