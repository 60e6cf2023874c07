import Foundation
import Testing
@testable import ThemeLab

/// Groupings against scipy (Fixtures/scipy-grouping.*, made by
/// scripts/fixtures/make_grouping_fixtures.py) and hand-worked cases. Partitions are compared
/// up to renaming (ARI = 1).
@Suite struct GroupingTests {
    struct Cut: Decodable { var threshold: Double?; var k: Int?; var labels: [Int] }
    struct File: Decodable { var average_by_threshold: [Cut]; var average_by_k: [Cut]; var components: [Cut]; var merge_similarities: [Double] }
    static let file = try! JSONDecoder().decode(File.self, from: Data(contentsOf: URL(fileURLWithPath: fixture("scipy-grouping.json"))))

    func samePartition(_ a: [Int32], _ b: [Int]) -> Bool {
        Recovery(topics: b, groups: a).ari == 1 && Set(a).count == Set(b).count
    }

    func unitVectors() throws -> Matrix { try unitRows(try NPY.read(path: fixture("scipy-grouping.npy"))) }

    @Test func averageLinkageMatchesScipy() throws {
        let x = try unitVectors()
        let linkage = try AverageLinkage(items: x.rows)
        _ = PairEngine(tileSize: 16).run(x, consumers: [linkage])
        let tree = linkage.dendrogram()
        let ours = tree.merges.map { Double($0.similarity) }.sorted(by: >)
        let theirs = Self.file.merge_similarities.sorted(by: >)
        #expect(zip(ours, theirs).allSatisfy { abs($0 - $1) < 1e-5 }, "merge heights")
        for cut in Self.file.average_by_threshold {
            #expect(samePartition(tree.cut(atSimilarity: cut.threshold!), cut.labels), "cut at \(cut.threshold!)")
        }
        for cut in Self.file.average_by_k {
            #expect(samePartition(tree.cut(groups: cut.k!), cut.labels), "k = \(cut.k!)")
        }
    }

    @Test func connectedComponentsMatchScipyForSeveralThresholdsInOnePass() throws {
        let x = try unitVectors()
        let components = ConnectedComponents(items: x.rows, thresholds: Self.file.components.map { $0.threshold! })
        _ = PairEngine(tileSize: 16).run(x, labels: (0..<60).map { Int32($0 / 15) }, consumers: [components])
        for (i, cut) in Self.file.components.enumerated() {
            #expect(samePartition(components.labels(i), cut.labels), "components at \(cut.threshold!)")
        }
    }

    @Test func leaderByHand() throws {
        // Unit vectors at 0°, 10°, 90°, 95°, 50°: with t = 0.9 the first two and the next two
        // group; 50° is ~0.69 from both centroids and starts its own group.
        let angles: [Double] = [0, 10, 90, 95, 50]
        let x = Matrix(rows: 5, cols: 2, storage: angles.flatMap { [Float(cos($0 * .pi / 180)), Float(sin($0 * .pi / 180))] })
        #expect(try LeaderGrouping.group(x, threshold: 0.9) == [0, 0, 1, 1, 2])
        // t = 0.75 in corpus order: 50° is cos 45° = 0.71 from the 5° centroid and cos 42.5° = 0.74
        // from the 92.5° one, so it stays alone. Visited first, it founds a group that 90°
        // (cos 40° = 0.77) and then 95° (cos 25° from the 70° centroid) join: order matters.
        #expect(try LeaderGrouping.group(x, threshold: 0.75) == [0, 0, 1, 1, 2])
        #expect(try LeaderGrouping.group(x, threshold: 0.75, order: [4, 0, 1, 2, 3]) == [1, 1, 0, 0, 0])
        #expect(SeededRandom.permutation(count: 5, seed: 1).sorted() == [0, 1, 2, 3, 4])
        #expect(SeededRandom.permutation(count: 50, seed: 1) == SeededRandom.permutation(count: 50, seed: 1))
    }

    @Test func sphericalKMeansRecoversSeparatedTopicsDeterministically() throws {
        // Four topics along orthogonal axes with small noise: any sensible run recovers them exactly.
        var rng = SeededRandom(seed: 5)
        var x = Matrix(rows: 40, cols: 8)
        for i in 0..<40 { for k in 0..<8 { x[i, k] = (k == i / 10 ? 1 : 0) + Float(0.05 * rng.gaussian()) } }
        x = try unitRows(x)
        let a = SphericalKMeans.cluster(x, k: 4, seed: 3)
        #expect(a == SphericalKMeans.cluster(x, k: 4, seed: 3))
        #expect(Recovery(topics: (0..<40).map { $0 / 10 }, groups: a).ari == 1)
    }

    @Test func limitsAreClearErrors() {
        #expect(errorMessage { _ = try AverageLinkage(items: 30_000) }?.contains("exceeds its limit of 25000") == true)
    }
}
