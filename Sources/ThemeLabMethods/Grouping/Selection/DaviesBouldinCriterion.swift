import ThemeLabCore
import ThemeLabMeasures

/// The Davies–Bouldin index on the space's unit vectors (`daviesBouldin(_:groups:)`), lower better.
package struct DaviesBouldinCriterion: PartitionCriterion {
    package var name: String { "davies-bouldin" }
    package var summary: String { "average linkage's cut of lowest Davies–Bouldin index" }
    package var higherIsBetter: Bool { false }
    package func score(_ x: Matrix, groups: [Int32]) -> Double? { daviesBouldin(x, groups: groups) }
    package static let entry = CriterionCut.entry(DaviesBouldinCriterion())
}
