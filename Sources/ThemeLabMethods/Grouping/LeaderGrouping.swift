import Foundation
import ThemeLabCore
import ThemeLabMeasures
import ThemeLabPairs

/// The journal method's grouping (`LeaderAlgorithm`) in corpus order, with its spread over seeded shuffles of
/// the visiting order.
package struct LeaderGrouping: Grouping {
    package var dependsOn: RunDependence { .order }
    package init() {}

    package var name: String { "leader" }

    package func groups(_ request: GroupingRequest, in pass: PassProducts) throws -> GroupingCut {
        try groups(at: [try request.threshold()], request, in: pass)[0]
    }

    /// Every threshold from one product per visiting order: the corpus order, then each seeded shuffle.
    package func groups(at thresholds: [Double], _ request: GroupingRequest, in pass: PassProducts) throws -> [GroupingCut] {
        let x = pass.vectors
        let labels = try LeaderAlgorithm.group(x, thresholds: thresholds, order: request.order)
        guard request.shuffles > 0 else { return labels.map { GroupingCut(labels: $0) } }
        let runs = try (0..<request.shuffles).map { s in
            let order = SeededRandom.permutation(count: x.rows, seed: request.seed &+ UInt64(s) &+ 1)
            return try LeaderAlgorithm.group(x, thresholds: thresholds, order: order)
        }
        return labels.indices.map { k in
            GroupingCut(labels: labels[k], spread: spread(runs.map { $0[k] }, topics: request.labels))
        }
    }

    /// The spread of the groupings of `runs` (one per shuffle) and of their recovery of `topics`.
    private func spread(_ runs: [[Int32]], topics: [Int32]?) -> LeaderSpread {
        let recoveries = topics.map { l in runs.map { Recovery(topics: l, groups: $0) } }
        return LeaderSpread(
            shuffles: runs.count, groups: .init(runs.map { Double(Set($0).count) }),
            ari: recoveries.map { .init($0.map(\.ari)) }, nmi: recoveries.map { .init($0.map(\.nmi)) },
            pairF1: recoveries.map { .init($0.map { $0.pairF1 ?? 0 }) })
    }

    /// The 24 thresholds the leader's ceiling sweeps besides the rules' values: all-pair quantiles 1 − 10^−x, x from 0.3
    /// to 5 (dense in the upper tail).
    package static func thresholdGrid(_ d: PairDistribution) -> [Double] {
        (0..<24).compactMap { d.quantile(.all, 1 - pow(10, -(0.3 + Double($0) * 4.7 / 23))) }
    }

    /// Leader has no nested cuts to sweep: the best ARI over 24 thresholds at all-pair quantiles
    /// 1 − 10^−x (x from 0.3 to 5, dense in the upper tail) and every rule's value.
    package func ceiling(in pass: PassProducts, topics: [Int32], ruled: [BestCut], request: GroupingRequest) throws -> Ceiling? {
        let thresholds = Set(Self.thresholdGrid(pass.distribution)).subtracting(ruled.map(\.threshold)).sorted()
        let labels = try LeaderAlgorithm.group(pass.vectors, thresholds: thresholds, order: request.order)
        let cuts =
            ruled
            + zip(thresholds, labels).map { t, groups in
                BestCut(threshold: t, ari: Recovery(topics: topics, groups: groups).ari, groups: Set(groups).count)
            }
        // The first of the lowest thresholds among equal ARIs, as a sweep from the bottom finds it.
        var best = cuts.sorted { $0.threshold < $1.threshold }.reduce(BestCut(threshold: .infinity, ari: -.infinity, groups: 0)) {
            $1.ari > $0.ari ? $1 : $0
        }
        best.curve = CurvePoint.thinned(cuts.map { CurvePoint(threshold: $0.threshold, ari: $0.ari) }, keeping: best.threshold)
        return Ceiling(grouping: key, search: "24 quantile thresholds and the rules' values", best)
    }
}

extension LeaderGrouping {
    /// Its registry entry (`groupingRegistry`).
    package static let entry = RegistryEntry<any Grouping>(
        "leader", summary: "the journal method's leader grouping in corpus order, with its spread over seeded shuffles"
    ) { _ in LeaderGrouping() }
}
