import ThemeLabCore
import ThemeLabMeasures
import ThemeLabPairs

/// The Cohesion Ratio as a criterion (`CohesionRatio`, Neveditsin, Lingras & Mago 2025, as reconstructed), highest best:
/// `average-cohesion` over average linkage's candidate cuts, `leiden-cohesion` over Leiden's resolutions. The paper
/// proposes it to evaluate a clustering without labels; choosing the level by it is this project's use. Its two open
/// points are optional arguments: `(c,s)`, c = 1 for the positive part of the cosine (0: the cosine), s = 1 to count a
/// group of one as a pair at the background (0: leave it out). All candidates are scored in one sweep over the pairs.
package struct CohesionCriterion: PartitionCriterion {
    package let ratio: CohesionRatio

    package init(_ ratio: CohesionRatio = CohesionRatio()) { self.ratio = ratio }

    package var name: String {
        let args = [ratio.clipped, ratio.singletonPair].map { $0 ? "1" : "0" }
        let kept = ratio.singletonPair ? (ratio.clipped ? [] : [args[0]]) : args
        return "cohesion" + (kept.isEmpty ? "" : "(\(kept.joined(separator: ",")))")
    }
    package var summary: String { "average linkage's cut of highest Cohesion Ratio (arXiv 2511.19350, as reconstructed)" }
    package var higherIsBetter: Bool { true }

    package func score(_ x: Matrix, groups: [Int32]) -> Double? { ratio.ratios(x, partitions: [groups])[0] }
    package func scores(_ x: Matrix, partitions: [[Int32]]) -> [Double?] { ratio.ratios(x, partitions: partitions) }

    /// The arguments: the positive part, and a singleton's virtual pair.
    package static let parameters = [
        Parameter("the positive part c (1: max(0, cosine), 0: the cosine)", .count(0...1)),
        Parameter("the singleton pair s (1: a group of one counts as a pair at the background, 0: left out)", .count(0...1)),
    ]

    /// From arguments `parameters` have checked.
    package init(_ parsed: RuleName) {
        self.init(
            CohesionRatio(clipped: parsed.whole(at: 0).map { $0 == 1 } ?? true, singletonPair: parsed.whole(at: 1).map { $0 == 1 } ?? true))
    }

    /// `average-cohesion` (`CriterionCut`) and `leiden-cohesion` (`LeidenSelection`).
    package static let entries: [RegistryEntry<any Grouping>] = [
        RegistryEntry(
            "average-cohesion", forms: ["average-cohesion", "average-cohesion(c,s)"], parameters: parameters,
            summary: "average linkage's cut of highest Cohesion Ratio (arXiv 2511.19350, as reconstructed)",
            examples: ["average-cohesion", "average-cohesion(0,0)"]
        ) { CriterionCut(criterion: CohesionCriterion($0)) },
        RegistryEntry(
            "leiden-cohesion", forms: ["leiden-cohesion", "leiden-cohesion(c,s)"], parameters: parameters,
            summary: "Leiden's partition (k = round(0.75·√N), 13 resolutions) of highest Cohesion Ratio",
            examples: ["leiden-cohesion", "leiden-cohesion(1,0)"]
        ) { LeidenSelection(criterion: CohesionCriterion($0)) },
    ]
}
