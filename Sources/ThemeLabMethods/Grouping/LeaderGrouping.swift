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

    /// The leader's ceiling, on thresholds fixed by the data alone (never by the rules asked for): on a corpus of at most
    /// `exactItems` items, every threshold at which its partition changes when there are at most `exactLimit`
    /// (`LeaderAlgorithm.breakpoints`: small corpora, where a pair similarity may fall between two of them), else
    /// `gridSize` thresholds at the all-pair quantiles 1 − 10^−x, x evenly from 0.3 to 5 (dense in the upper tail,
    /// where its best cut lies; the tests show a rule's value adds at most 0.002 to it on the study's corpora). The first
    /// of the lowest thresholds among equal ARIs, as a sweep from the bottom finds it.
    package func ceiling(in pass: PassProducts, topics: [Int32], request: GroupingRequest) throws -> Ceiling? {
        let exact =
            pass.vectors.rows <= Self.exactItems
            ? try LeaderAlgorithm.breakpoints(pass.vectors, order: request.order, limit: Self.exactLimit) : nil
        let thresholds = exact ?? Self.grid(pass.distribution)
        let labels = try LeaderAlgorithm.group(pass.vectors, thresholds: thresholds, order: request.order)
        let cuts = zip(thresholds, labels).map { t, groups in
            BestCut(threshold: t, ari: Recovery(topics: topics, groups: groups).ari, groups: Set(groups).count)
        }
        var best = cuts.sorted { $0.threshold < $1.threshold }.reduce(BestCut(threshold: .infinity, ari: -.infinity, groups: 0)) {
            $1.ari > $0.ari ? $1 : $0
        }
        best.curve = CurvePoint.thinned(cuts.map { CurvePoint(threshold: $0.threshold, ari: $0.ari) }, keeping: best.threshold)
        return Ceiling(grouping: key, search: exact == nil ? Self.gridSearch : Ceiling.everyCut, best)
    }

    /// The explorer's leader grid (besides every rule's value): 24 of those quantiles, coarser than the ceiling's, since the
    /// page carries a partition for each.
    package static func thresholdGrid(_ d: PairDistribution) -> [Double] { grid(d, size: 24) }

    /// The most thresholds at which the partition changes that the ceiling tries all of, and the most items it looks for
    /// them on (each costs a sweep of N²/2 additions; a corpus of 600 items already changes more than 256 times).
    package static let exactLimit = 256
    package static let exactItems = 512
    /// How many all-pair quantiles the ceiling tries otherwise.
    package static let gridSize = 64
    package static let gridSearch = "64 thresholds at all-pair quantiles 1 − 10^−x, x from 0.3 to 5"

    /// The distinct thresholds at the all-pair quantiles 1 − 10^−x, `size` values of x evenly from 0.3 to 5, increasing.
    package static func grid(_ d: PairDistribution, size: Int = gridSize) -> [Double] {
        Set((0..<size).compactMap { d.quantile(.all, 1 - pow(10, -(0.3 + Double($0) * 4.7 / Double(size - 1)))) }).sorted()
    }
}

extension LeaderGrouping {
    /// Its registry entry (`groupingRegistry`).
    package static let entry = RegistryEntry<any Grouping>(
        "leader", summary: "the journal method's leader grouping in corpus order, with its spread over seeded shuffles"
    ) { _ in LeaderGrouping() }
}
