import ThemeLabCore
import ThemeLabMeasures
import ThemeLabPairs

/// `leiden-CRITERION`: a second family of candidates for the label-free criteria. Leiden on the neighbour graph with
/// k = round(0.75·√N) (`leiden-sqrt`'s c, chosen on the tuning corpora) at every resolution of
/// `LeidenGrouping.resolutionGrid` (0.05 to 8: one graph, 13 partitions), and the partition the criterion scores best
/// (among equals the one with the fewest groups, then the lowest resolution).
package struct LeidenSelection: Grouping {
    package let criterion: any PartitionCriterion
    package static let graph = ScaledNeighbourGraph(scale: 0.75, resolution: nil, defaultResolution: 1.5)

    package var name: String { "leiden-\(criterion.name)" }
    package var kind: GroupingKind { .cutsItself }
    package var dependsOn: RunDependence { .seed }
    package func needs(items: Int) -> PassNeeds { Self.graph.needs(items: items) }

    package func groups(_ request: GroupingRequest, in pass: PassProducts) throws -> GroupingCut {
        let x = pass.vectors
        guard let k = Self.graph.neighbourhood.neighbours(items: x.rows) else {
            return GroupingCut(labels: nil, note: Self.graph.neighbourhood.tooFewItems(name, items: x.rows))
        }
        let candidates = try LeidenGrouping.resolutionGrid(Self.graph.resolution).map {
            try pass.leiden(k: k, resolution: $0, seed: request.seed)
        }
        let scores = criterion.scores(x, partitions: candidates)
        guard
            let best = bestOf(
                Array(candidates.indices), higherIsBetter: criterion.higherIsBetter, score: { scores[$0] },
                groups: {
                    groupCount(candidates[$0])
                })
        else {
            return GroupingCut(labels: nil, note: "\(name): no resolution gives a partition with a defined score")
        }
        return GroupingCut(labels: candidates[best])
    }

    /// The registry entry of the grouping a criterion makes.
    package static func entry(_ criterion: some PartitionCriterion) -> RegistryEntry<any Grouping> {
        let summary = "Leiden's partition (k = round(0.75·√N), 13 resolutions) of best \(criterion.name)"
        return RegistryEntry("leiden-\(criterion.name)", summary: summary) { _ in LeidenSelection(criterion: criterion) }
    }
}
