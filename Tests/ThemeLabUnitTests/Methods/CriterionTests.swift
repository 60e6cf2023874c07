import Foundation
import Testing

@testable import ThemeLabCore
@testable import ThemeLabMeasures
@testable import ThemeLabMethods
@testable import ThemeLabPairs

/// The label-free criteria that choose average linkage's level against scikit-learn (Fixtures/criteria.json, made by
/// scripts/fixtures/make_criteria_fixtures.py on the 60 vectors of scipy-grouping.npy), and stability by hand.
@Suite struct CriterionTests {
    struct Scores: Decodable {
        var labels: [Int32]
        var calinskiHarabasz: Double
        var daviesBouldin: Double
        var silhouette: Double
        var k: Int?
    }
    struct File: Decodable {
        var counts: [Int]
        var cuts: [Scores]
        var picks: [String: Int]
        var random: Scores
        var laplacianEigenvalues: [Double]
        var eigengaps: [Double]
    }
    static let file = try! decodeFixture(File.self, "criteria.json")

    func unitVectors() throws -> Matrix { try unitRows(try NPY.read(path: fixture("scipy-grouping.npy"))) }

    @Test func criteriaMatchScikitLearn() throws {
        let x = try unitVectors()
        for cut in Self.file.cuts + [Self.file.random] {
            let groups = renumbered(cut.labels)  // scikit-learn takes any labels
            let what = "k = \(cut.k.map(String.init) ?? "random")"
            #expect(
                try #require(calinskiHarabasz(x, groups: groups)).isApproximatelyEqual(
                    to: cut.calinskiHarabasz, absoluteTolerance: 1e-5 * cut.calinskiHarabasz), "\(what)")
            #expect(
                try #require(daviesBouldin(x, groups: groups)).isApproximatelyEqual(
                    to: cut.daviesBouldin, absoluteTolerance: 1e-5 * cut.daviesBouldin), "\(what)")
            #expect(
                try #require(silhouette(x, groups: groups)).isApproximatelyEqual(to: cut.silhouette, absoluteTolerance: 1e-5), "\(what)")
        }
        // Defined for 2 ≤ G ≤ N − 1 with every label used, as scikit-learn's check_number_of_labels.
        for bad in [[Int32](repeating: 0, count: 60), (0..<60).map(Int32.init), (0..<60).map { Int32($0 % 3 * 2) }] {
            #expect(calinskiHarabasz(x, groups: bad) == nil && daviesBouldin(x, groups: bad) == nil)
        }
        #expect(calinskiHarabasz(x, groups: (0..<60).map { Int32($0 % 59) }) != nil)
    }

    @Test(arguments: [
        ("calinski_harabasz", "average-calinski-harabasz"), ("davies_bouldin", "average-davies-bouldin"),
        ("silhouette", "average-silhouette"), ("eigengap", "average-eigengap"),
    ])
    func selectorsPickScikitLearnsBestCut(_ criterion: String, _ name: String) throws {
        let x = try unitVectors()
        #expect(CriterionCurve.counts(items: 60, merges: 59) == Self.file.counts)
        let selector = try grouping(named: name)
        let pass = AdaptiveGroupingTests.pass(x, selector)
        let labels = try #require(try selector.groups(GroupingRequest(target: .ownCuts, order: Array(0..<60)), in: pass).labels)
        let expected = try #require(Self.file.cuts.first { $0.k == Self.file.picks[criterion] })
        #expect(Set(labels).count == expected.k && Recovery(topics: expected.labels.map(Int.init), groups: labels).ari == 1, "\(name)")
    }

    /// Two tight groups of 30 along orthogonal axes: every pair of subsamples cuts them apart at k = 2 (ARI 1), while a
    /// third group splits one of them along its noise, not always alike in each subsample (ARI 0.97 here, 0.88 at k = 4).
    @Test func stabilityFindsTwoSeparatedGroups() throws {
        var rng = SeededRandom(seed: 5)
        var rows: [Float] = []
        for i in 0..<60 {
            var v = (0..<8).map { _ in Float(rng.gaussian() * 0.05) }
            v[i / 30] += 1
            rows += v
        }
        let x = try unitRows(Matrix(rows: 60, cols: 8, storage: rows))
        let selector = try grouping(named: "average-stability")
        let pass = AdaptiveGroupingTests.pass(x, selector)
        let labels = try #require(try selector.groups(GroupingRequest(target: .ownCuts, order: Array(0..<60), seed: 1), in: pass).labels)
        #expect(Recovery(topics: (0..<60).map { $0 / 30 }, groups: labels).ari == 1)
        let scores = try StabilityCriterion().scores([2, 3, 4], tree: try pass.dendrogram().get(), vectors: x, seed: 1)
        #expect(scores[0] == 1 && scores[1]! < 1 && scores[2]! < 1, "\(scores)")
    }

    /// scipy's normalised Laplacian of the positive-cosine graph, eigenvalues by numpy; the gaps at every candidate count.
    @Test func laplacianSpectrumMatchesScipy() throws {
        let x = try unitVectors()
        let eigenvalues = try normalisedLaplacianEigenvalues(x)
        #expect(zip(eigenvalues, Self.file.laplacianEigenvalues).allSatisfy { abs($0 - $1) < 1e-6 })
        let tree = try AdaptiveGroupingTests.pass(x, try grouping(named: "average")).dendrogram().get()
        let gaps = try EigengapCriterion().scores(Self.file.counts, tree: tree, vectors: x, seed: 0)
        #expect(zip(gaps, Self.file.eigengaps).allSatisfy { abs($0! - $1) < 1e-6 })
        // Two orthogonal rows and an isolated one: three components, eigenvalues 0, 0, 0 (scipy: isolated diagonal 0).
        let parts = try normalisedLaplacianEigenvalues(Matrix(rows: 3, cols: 3, storage: [1, 0, 0, 0, 1, 0, 0, 0, 1]))
        #expect(parts.allSatisfy { abs($0) < 1e-12 })
    }

    /// Above the sample limit the spectrum is that of the rows a seeded permutation's first 1 000 name; counts past the
    /// sample are undefined. (Within 1e-9, not bit for bit: in this process other tests switch OpenBLAS between one and
    /// two threads, and dsyevd's bits follow; the CLI always runs one.)
    @Test func eigengapSamplesLargeCorpora() throws {
        var rng = SeededRandom(seed: 9)
        let n = EigengapCriterion.sampleLimit + 40
        let x = try unitRows(Matrix(rows: n, cols: 6, storage: (0..<(n * 6)).map { _ in Float(rng.gaussian()) }))
        let tree = try AdaptiveGroupingTests.pass(x, try grouping(named: "average")).dendrogram().get()
        let counts = [2, 3, EigengapCriterion.sampleLimit]
        let first = try EigengapCriterion().scores(counts, tree: tree, vectors: x, seed: 4)
        let sample = Array(SeededRandom.permutation(count: n, seed: 4).prefix(EigengapCriterion.sampleLimit)).sorted()
        let spectrum = try normalisedLaplacianEigenvalues(x.rows(sample))
        #expect(abs(first[0]! - (spectrum[2] - spectrum[1])) < 1e-9 && abs(first[1]! - (spectrum[3] - spectrum[2])) < 1e-9)
        #expect(first[2] == nil)
    }

    /// The `silhouette` rule and `average-silhouette` read one curve, so they give one partition.
    /// Among equal scores a selector takes the fewest groups, wherever that candidate stands; undefined scores never win.
    @Test func equalScoresGoToTheFewestGroups() {
        let candidates: [(score: Double?, groups: Int)] = [(0.5, 6), (0.7, 4), (0.7, 2), (.nan, 1), (nil, 1), (0.7, 3)]
        #expect(
            bestOf(candidates, higherIsBetter: true, score: \.score, groups: \.groups).map { [$0.score, Double($0.groups)] } == [0.7, 2])
        #expect(
            bestOf(candidates, higherIsBetter: false, score: \.score, groups: \.groups).map { [$0.score, Double($0.groups)] } == [0.5, 6])
        #expect(bestOf([(Double.nan, 1)], higherIsBetter: true, score: \.0, groups: \.1) == nil)
    }

    @Test func silhouetteSelectorIsTheSilhouetteRulesCut() throws {
        let x = try unitVectors()
        let selector = try grouping(named: "average-silhouette")
        let pass = AdaptiveGroupingTests.pass(x, selector)
        let tree = try pass.dendrogram().get()
        let threshold = try #require(CriterionCurve.silhouettes(vectors: x, dendrogram: tree).best(higherIsBetter: true)?.threshold)
        let labels = try #require(try selector.groups(GroupingRequest(target: .ownCuts, order: Array(0..<60)), in: pass).labels)
        #expect(labels == tree.cut(atSimilarity: threshold))
    }
}

/// Leiden's resolutions as a second family of candidates: the partition chosen is the grid's best under the
/// criterion, and two separated groups come out whole.
@Suite struct LeidenSelectionTests {
    @Test func picksTheResolutionOfBestSilhouette() throws {
        let x = try unitRows(try NPY.read(path: fixture("scipy-grouping.npy")))
        let selector = try grouping(named: "leiden-silhouette")
        let pass = AdaptiveGroupingTests.pass(x, selector)
        let labels = try #require(try selector.groups(GroupingRequest(target: .ownCuts, order: Array(0..<60), seed: 2), in: pass).labels)
        let graph = try pass.neighbourGraph(k: 6)  // round(0.75·√60)
        let scores = LeidenGrouping.resolutionGrid(1.5).compactMap {
            silhouette(x, groups: Leiden(resolution: $0, seed: 2).communities(graph))
        }
        #expect(abs(try #require(silhouette(x, groups: labels)) - scores.max()!) < 1e-9)
        #expect(try grouping(named: "leiden-davies-bouldin").name == "leiden-davies-bouldin")
    }

    @Test func twoSeparatedGroupsComeOutWhole() throws {
        var rng = SeededRandom(seed: 3)
        let rows = (0..<40).flatMap { i -> [Float] in
            var v = (0..<6).map { _ in Float(rng.gaussian() * 0.05) }
            v[i / 20] += 1
            return v
        }
        let x = try unitRows(Matrix(rows: 40, cols: 6, storage: rows))
        let selector = try grouping(named: "leiden-silhouette")
        let pass = AdaptiveGroupingTests.pass(x, selector)
        let labels = try #require(try selector.groups(GroupingRequest(target: .ownCuts, order: Array(0..<40)), in: pass).labels)
        #expect(Recovery(topics: (0..<40).map { $0 / 20 }, groups: labels).ari == 1)
    }
}
