import ThemeLabCore
import ThemeLabMeasures
import ThemeLabPairs

/// A label-free criterion that scores the candidate cuts of average linkage (`CriterionCurve`), so the level of
/// grouping is chosen without labels. Adding one is a file with a type conforming to this protocol and its
/// `CriterionCut.entry` in `groupingRegistry`.
package protocol CutCriterion: Sendable {
    /// The grouping is `average-NAME`.
    var name: String { get }
    /// One line for help texts and docs.
    var summary: String { get }
    var higherIsBetter: Bool { get }
    /// Whether its scores draw on the seed (subsamples, samples).
    var isSeeded: Bool { get }
    /// A score per candidate group count of `tree` (nil where undefined), on the space's unit vectors `x`.
    func scores(_ counts: [Int], tree: Dendrogram, vectors x: Matrix, seed: UInt64) throws -> [Double?]
}

/// A criterion computed on each cut's partition alone.
package protocol PartitionCriterion: CutCriterion {
    func score(_ x: Matrix, groups: [Int32]) -> Double?
    /// The score of each of `partitions`: `score` of each, unless the criterion shares work between them.
    func scores(_ x: Matrix, partitions: [[Int32]]) -> [Double?]
}

extension CutCriterion {
    package var isSeeded: Bool { false }
}

extension PartitionCriterion {
    package func scores(_ x: Matrix, partitions: [[Int32]]) -> [Double?] { partitions.map { score(x, groups: $0) } }

    package func scores(_ counts: [Int], tree: Dendrogram, vectors x: Matrix, seed: UInt64) throws -> [Double?] {
        scores(x, partitions: counts.map { tree.cut(groups: $0) })
    }
}

/// `average-CRITERION`: average linkage cut at the candidate group count the criterion scores best (the fewest groups
/// among equals); its threshold-free answer is always one of average linkage's own partitions.
package struct CriterionCut: Grouping {
    package let criterion: any CutCriterion

    package var name: String { "average-\(criterion.name)" }
    package var kind: GroupingKind { .cutsItself }
    package var dependsOn: RunDependence { criterion.isSeeded ? .seed : [] }
    package func needs(items: Int) -> PassNeeds { PassNeeds(averageLinkage: true) }

    /// The scored candidates, or why there are none.
    package func curve(_ pass: PassProducts, seed: UInt64) throws -> Result<(Dendrogram, CriterionCurve), NoteOnly> {
        switch try pass.dendrogram() {
        case .success(let tree):
            let x = pass.vectors
            return .success(
                (tree, try CriterionCurve(tree: tree, items: x.rows) { try criterion.scores($0, tree: tree, vectors: x, seed: seed) }))
        case .failure(let why): return .failure(NoteOnly("\(name): \(why)"))
        }
    }

    package func groups(_ request: GroupingRequest, in pass: PassProducts) throws -> GroupingCut {
        switch try curve(pass, seed: request.seed) {
        case .success(let (tree, curve)):
            guard let best = curve.best(higherIsBetter: criterion.higherIsBetter) else {
                return GroupingCut(labels: nil, note: "\(name): no candidate cut has a defined score (\(pass.vectors.rows) items)")
            }
            return GroupingCut(labels: tree.cut(groups: best.groups))
        case .failure(let why): return GroupingCut(labels: nil, note: why.note)
        }
    }

    /// The registry entry of the grouping a criterion makes.
    package static func entry(_ criterion: some CutCriterion) -> RegistryEntry<any Grouping> {
        RegistryEntry("average-\(criterion.name)", summary: criterion.summary) { _ in CriterionCut(criterion: criterion) }
    }
}
