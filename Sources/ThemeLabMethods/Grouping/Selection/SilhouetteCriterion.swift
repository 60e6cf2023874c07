import ThemeLabCore
import ThemeLabMeasures

/// The mean cosine silhouette (Rousseeuw 1987; `silhouette(_:groups:)`), exact. The `silhouette` threshold rule
/// reads the same curve, so `average-silhouette` and average linkage at that rule's threshold are one partition
/// (unless merges tie in similarity at that cut, where the threshold takes every tied merge).
package struct SilhouetteCriterion: PartitionCriterion {
    package var name: String { "silhouette" }
    package var summary: String { "average linkage's cut of highest mean cosine silhouette" }
    package var higherIsBetter: Bool { true }
    package func score(_ x: Matrix, groups: [Int32]) -> Double? { silhouette(x, groups: groups) }
    package static let entry = CriterionCut.entry(SilhouetteCriterion())
}
