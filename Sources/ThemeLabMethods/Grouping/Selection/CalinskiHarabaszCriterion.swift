import ThemeLabCore
import ThemeLabMeasures

/// The Calinski–Harabasz variance ratio on the space's unit vectors (`calinskiHarabasz(_:groups:)`).
package struct CalinskiHarabaszCriterion: PartitionCriterion {
    package var name: String { "calinski-harabasz" }
    package var summary: String { "average linkage's cut of highest Calinski–Harabasz ratio" }
    package var higherIsBetter: Bool { true }
    package func score(_ x: Matrix, groups: [Int32]) -> Double? { calinskiHarabasz(x, groups: groups) }
    package static let entry = CriterionCut.entry(CalinskiHarabaszCriterion())
}
