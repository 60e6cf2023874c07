import Foundation
import Testing

@testable import ThemeLabCore
@testable import ThemeLabMeasures
@testable import ThemeLabMethods
@testable import ThemeLabPairs

/// The spectral estimate of k and the Cohesion Ratio (arXiv 2511.19350 as docs/choosing-the-level.md reconstructs it),
/// formula by formula: by hand on six vectors whose spectrum has closed forms, and against numpy and scipy
/// (Fixtures/spectral.json, made by scripts/fixtures/make_spectral_fixtures.py) on those and on the 60 vectors of
/// scipy-grouping.npy.
@Suite struct SpectralEstimatorTests {
    struct Cohesions: Decodable {
        var labels: [Int32]
        var c1s1: Double
        var c1s0: Double
        var c0s1: Double
        var c0s0: Double
        var k: Int?

        /// The figure of one reading: positive part or not, singleton pairs or not.
        func value(_ r: CohesionRatio) -> Double { r.clipped ? (r.singletonPair ? c1s1 : c1s0) : (r.singletonPair ? c0s1 : c0s0) }
    }
    struct Example: Decodable {
        var vectors: [[Double]]
        var eigenvaluesLoops: [Double]
        var eigenvaluesNoLoops: [Double]
        var cohesion: [String: Cohesions]
    }
    struct Sixty: Decodable {
        var smallest: [Double]
        var largest: [Double]
        var smallestNoLoops: [Double]
        var gapsW3: [Double]
        var thresholdW3: Double
        var k: [String: Int]
        var counts: [Int]
        var cuts: [Cohesions]
        var picks: [String: Int]
    }
    struct File: Decodable {
        var example: Example
        var grouping: Sixty
    }
    static let file = try! decodeFixture(File.self, "spectral.json")
    static let readings = [
        CohesionRatio(), CohesionRatio(clipped: true, singletonPair: false), CohesionRatio(clipped: false),
        CohesionRatio(clipped: false, singletonPair: false),
    ]

    /// a1 = (1,0,0), a2 = (0.8,0,0.6), a3 = (0.8,0,−0.6) and b1, b2, b3 the same on the second axis: cosines 0.8 from
    /// a1, 0.28 between a2 and a3, ±0.36 across (a2·b2 = a3·b3 = 0.36, a2·b3 = a3·b2 = −0.36), 0 otherwise.
    static var six: Matrix {
        let rows: [[Float]] = [[1, 0, 0], [0.8, 0, 0.6], [0.8, 0, -0.6], [0, 1, 0], [0, 0.8, 0.6], [0, 0.8, -0.6]]
        return Matrix(rows: 6, cols: 3, storage: rows.flatMap { $0 })
    }

    /// The spectra by hand. N = D^−½ W D^−½ splits under the swaps A ↔ B and (a2, b2) ↔ (a3, b3). With self-loops
    /// (degrees 2.6 and 2.44): on a2 − a3 and b2 − b3, N's entries are (1 − 0.28)/2.44 = 18/61 within a cluster and
    /// 0.36/2.44 = 9/61 across, so μ = 27/61 and 9/61, λ = 1 − μ = 34/61 and 52/61; on a1, (a2 + a3)/√2 and their B
    /// images, blocks [[5/13, b], [b, c]] with b² = 2·0.64/(2.6·2.44) and c = (1.28 ± 0.36)/2.44 = 41/61 or 23/61. Without
    /// self-loops (degrees 1.6 and 1.44) the six are 0, (37 ∓ √721)/36, 17/18, 13/9 and 14/9.
    @Test func laplacianSpectraOfTheHandWorkedExample() throws {
        let b2 = 2 * 0.64 / (2.6 * 2.44)
        func block(_ c: Double) -> [Double] {
            let (t, det) = (5.0 / 13 + c, 5.0 / 13 * c - b2)
            let r = (t * t - 4 * det).squareRoot()
            return [1 - (t + r) / 2, 1 - (t - r) / 2]
        }
        let loops = (block(41.0 / 61) + block(23.0 / 61) + [34.0 / 61, 52.0 / 61]).sorted()
        let root = 721.0.squareRoot()
        let noLoops = [0, (37 - root) / 36, 17.0 / 18, 13.0 / 9, 14.0 / 9, (37 + root) / 36]
        for (selfLoops, hand, numpy) in [
            (true, loops, Self.file.example.eigenvaluesLoops), (false, noLoops, Self.file.example.eigenvaluesNoLoops),
        ] {
            let found = try laplacianEigenvalues(Self.six, selfLoops: selfLoops)
            #expect(zip(found, hand).allSatisfy { abs($0 - $1) < 1e-7 }, "\(selfLoops): \(found) against \(hand)")
            #expect(zip(found, numpy).allSatisfy { abs($0 - $1) < 1e-7 }, "\(selfLoops): \(found) against numpy \(numpy)")
        }
        #expect(abs(loops[1] - 0.169969) < 1e-6 && abs(loops[4] - 0.943253) < 1e-6 && abs(loops[5] - 1.068367) < 1e-6)
    }

    /// On the example's five smallest eigenvalues: δ₂ = (λ₃ − λ₂)/mean(λ₁, λ₂), δ₃ = (λ₄ − λ₃)/mean(λ₁…λ₃),
    /// δ₄ = (λ₅ − λ₄)/mean(λ₂…λ₄) ≈ 4.5586, 1.2171, 0.1724 over k = 2 … 4; T = mean + std ≈ 1.9827 + 1.8707, so only
    /// k = 2 clears it. The plain eigengap agrees (0.387 is the largest of 0.387, 0.295, 0.091). Reading the threshold off
    /// the 20 largest eigenvalues instead (all six here, λ₁ ≈ 0 among them, so its first gap is about 1e9) clears
    /// nothing, and the fallback 5, bounded to the range, gives 4.
    @Test func gapsThresholdAndChoiceOfTheHandWorkedExample() throws {
        // The estimator reads the m = min(50, n − 1) = 5 smallest.
        let all = try laplacianEigenvalues(Self.six, selfLoops: true)
        let values = Array(all.prefix(5))
        let estimator = SpectralKEstimator()
        let gaps = estimator.gaps(values)
        let v = values
        let hand = [
            (v[2] - v[1]) / ((v[0] + v[1]) / 2), (v[3] - v[2]) / ((v[0] + v[1] + v[2]) / 3), (v[4] - v[3]) / ((v[1] + v[2] + v[3]) / 3),
        ]
        #expect(zip(gaps[1...], hand).allSatisfy { abs($0 - $1) < 1e-8 } && abs(gaps[1] - 4.5586) < 1e-4 && abs(gaps[2] - 1.2171) < 1e-4)
        let mean = hand.reduce(0, +) / 3
        let sd = (hand.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / 3).squareRoot()
        #expect(abs(SpectralKEstimator.threshold(hand) - (mean + sd)) < 1e-8 && abs(mean + sd - 3.8534) < 1e-3)
        #expect(try estimator.estimate(Self.six, seed: 0) == SpectralKEstimator.Estimate(k: 2, cleared: true, samples: 0, eigenvalues: all))
        var plain = estimator
        plain.window = 0
        #expect(plain.gaps(v)[1...] == [v[2] - v[1], v[3] - v[2], v[4] - v[3]][...] && plain.choose(v).k == 2)
        var noise = estimator
        noise.noiseEigenvalues = 20
        #expect(noise.choose(spectrum: all) == (4, false))
    }

    /// scipy's smallest and largest eigenvalues of the self-loop graph (driver evr), numpy's gaps and threshold, and the k of
    /// five readings, on 60 vectors.
    @Test func estimatorMatchesScipyOnSixtyVectors() throws {
        let x = try unitRows(try NPY.read(path: fixture("scipy-grouping.npy")))
        let want = Self.file.grouping
        let all = try laplacianEigenvalues(x, selfLoops: true)
        let smallest = Array(all.prefix(50))
        #expect(zip(smallest, want.smallest).allSatisfy { abs($0 - $1) < 1e-6 })
        #expect(zip(all.suffix(20), want.largest).allSatisfy { abs($0 - $1) < 1e-6 })
        let gaps = SpectralKEstimator().gaps(smallest)
        // The first gap divides by λ₁ ≈ 0 (about 1e9 either way): compared from the second on.
        #expect(zip(gaps[1...], want.gapsW3[1...]).allSatisfy { abs($0 - $1) < 1e-5 * max(1, abs($1)) })
        #expect(abs(SpectralKEstimator.threshold(Array(gaps[1..<49])) - want.thresholdW3) < 1e-6)
        #expect(zip(try laplacianEigenvalues(x, selfLoops: false), want.smallestNoLoops).allSatisfy { abs($0 - $1) < 1e-6 })
        let readings: [(String, (inout SpectralKEstimator) -> Void)] = [
            ("w3", { _ in }), ("w0", { $0.window = 0 }), ("w3q20", { $0.noiseEigenvalues = 20 }), ("w3NoLoops", { $0.selfLoops = false }),
            ("w5", { $0.window = 5 }),
        ]
        for (name, set) in readings {
            var e = SpectralKEstimator()
            set(&e)
            #expect(try e.estimate(x, seed: 0)?.k == want.k[name], "\(name)")
        }
    }

    /// Above τ items: R = ⌈r·log₂ n⌉ samples of τ rows, each drawn with the next number of one generator seeded by the
    /// seed, estimated alone; their mean rounded half to even (numpy's round), or their median.
    @Test func samplingCombinesTheSamplesEstimates() throws {
        let x = try unitRows(try NPY.read(path: fixture("scipy-grouping.npy")))
        var e = SpectralKEstimator()
        e.sampleSize = 20
        let estimate = try #require(try e.estimate(x, seed: 7))
        #expect(estimate.samples == Int((10 * log2(60.0)).rounded(.up)) && estimate.samples == 60)
        var rng = SeededRandom(seed: 7)
        let ks = try (0..<60).map { _ in try e.estimate(x.rows(SeededRandom.sample(20, of: 60, seed: rng.next())), seed: 0)!.k }
        #expect(estimate.k == Int((Double(ks.reduce(0, +)) / 60).rounded(.toNearestOrEven)))
        #expect(e.combined([2, 3]) == 2 && e.combined([3, 4]) == 4 && e.combined([2, 2, 9]) == 4)
        e.combination = .median
        #expect(e.combined([2, 2, 9]) == 2 && e.combined([2, 3]) == 2 && e.combined([3, 4, 4, 9]) == 4)
        #expect(try e.estimate(x.rows([0, 1]), seed: 0) == nil)
        #expect(try e.estimate(x.rows([0, 1, 2]), seed: 0)?.k == 2)
    }

    /// By hand on the example: over the 15 pairs the cosines sum to 3.76 (the ±0.36 cancel; 4.48 in positive part), and
    /// within the two clusters to 3.76 over 6 pairs, so ρ_C = (3.76/6)/(3.76/15) = 2.5, and (3.76/6)/(4.48/15) = 2.098214
    /// on the positive part. One group is the background itself, 1. With b3 alone, P = 3 + 1 + 1 and the singleton adds
    /// μ_G: (1.88 + 0.8 + μ_G)/5 over μ_G. Groups weigh by their pairs, not as groups: μ_I is pooled over them.
    @Test func cohesionRatioByHand() throws {
        let x = Self.six
        let two: [Int32] = [0, 0, 0, 1, 1, 1]
        let raw = CohesionRatio(clipped: false)
        #expect(abs(raw.ratios(x, partitions: [two])[0]! - 2.5) < 1e-7)
        #expect(abs(CohesionRatio().ratios(x, partitions: [two])[0]! - 3.76 / 6 / (4.48 / 15)) < 1e-7)
        #expect(abs(CohesionRatio().ratios(x, partitions: [[Int32](repeating: 0, count: 6)])[0]! - 1) < 1e-7)
        let background = 3.76 / 15
        #expect(abs(raw.ratios(x, partitions: [[0, 0, 0, 1, 1, 2]])[0]! - (1.88 + 0.8 + background) / 5 / background) < 1e-7)
        // {a1, a2, a3, b1}: 1.88 over 6 pairs; {b2, b3}: 0.28 over 1. Pooled 2.16/7, where the mean of the groups' means
        // would be (1.88/6 + 0.28)/2.
        let uneven = raw.ratios(x, partitions: [[0, 0, 0, 0, 1, 1]])[0]!
        #expect(abs(uneven - 2.16 / 7 / background) < 1e-7 && abs(uneven - (1.88 / 6 + 0.28) / 2 / background) > 0.01)
        for (name, want) in Self.file.example.cohesion {
            for r in Self.readings {
                #expect(abs(r.ratios(x, partitions: [want.labels])[0]! - want.value(r)) < 1e-7, "\(name) \(r)")
            }
        }
        // Centred cosines average about −1/(n − 1): no background, no ratio.
        let centred = Matrix(rows: 2, cols: 1, storage: [1, -1])
        #expect(raw.ratios(centred, partitions: [[0, 1]])[0] == nil)
    }

    /// numpy's Cohesion Ratio of scipy's average-linkage cuts at every candidate count, in all four readings, and the count
    /// the `average-cohesion` selector picks.
    @Test func cohesionSelectorMatchesNumpy() throws {
        let x = try unitRows(try NPY.read(path: fixture("scipy-grouping.npy")))
        let want = Self.file.grouping
        #expect(CriterionCurve.counts(items: 60, merges: 59) == want.counts)
        for r in Self.readings {
            let found = r.ratios(x, partitions: want.cuts.map(\.labels))
            #expect(zip(found, want.cuts).allSatisfy { abs($0! - $1.value(r)) < 1e-6 }, "\(r)")
        }
        for (args, key) in [("", "c1s1"), ("(1,0)", "c1s0"), ("(0)", "c0s1"), ("(0,0)", "c0s0")] {
            let selector = try grouping(named: "average-cohesion" + args)
            let pass = AdaptiveGroupingTests.pass(x, selector)
            let labels = try #require(try selector.groups(GroupingRequest(target: .ownCuts, order: Array(0..<60)), in: pass).labels)
            let expected = try #require(want.cuts.first { $0.k == want.picks[key] })
            #expect(Recovery(topics: expected.labels.map(Int.init), groups: labels).ari == 1, "average-cohesion\(args)")
        }
    }

    /// `spectral-k-average` is average linkage cut into the estimate; `spectral-k-kmeans` has that many groups; both read one
    /// estimate per pass and seed.
    @Test func groupingsCutIntoTheEstimate() throws {
        let x = try unitRows(try NPY.read(path: fixture("scipy-grouping.npy")))
        let k = try #require(Self.file.grouping.k["w3"])
        let average = try grouping(named: "spectral-k-average")
        let pass = AdaptiveGroupingTests.pass(x, average)
        let request = GroupingRequest(target: .ownCuts, order: Array(0..<60), seed: 3)
        #expect(try average.groups(request, in: pass).labels == (try pass.dendrogram().get()).cut(groups: k))
        let kmeans = try #require(try grouping(named: "spectral-k-kmeans").groups(request, in: pass).labels)
        #expect(groupCount(kmeans) == k)
        #expect(try grouping(named: "spectral-k-average(3,1,0,5,1000,10,0)").name == "spectral-k-average")
        #expect(try grouping(named: "spectral-k-kmeans(3,0)").name == "spectral-k-kmeans(3,0)")
        #expect(try grouping(named: "leiden-cohesion(1,1)").name == "leiden-cohesion")
        #expect(try grouping(named: "average-cohesion(0,1)").name == "average-cohesion(0)")
    }

    @Test(arguments: [
        ("spectral-k-average(3,1,1)", "spectral-k-average(3,1,1): the noise eigenvalues q must be 0 or at least 2"),
        (
            "spectral-k-kmeans(51)",
            "spectral-k-kmeans(51): the gap window w (0: the plain eigengap) must be a whole number from 0 to 50, got 51"
        ),
        ("spectral-k-average(3,1,0,5,2)", "spectral-k-average(3,1,0,5,2): the sample size τ must be a whole number from 3 to 5000, got 2"),
        (
            "average-cohesion(2)",
            "average-cohesion(2): the positive part c (1: max(0, cosine), 0: the cosine) must be a whole number from 0 to 1, got 2"
        ),
        ("leiden-cohesion(1,1,1)", "leiden-cohesion(1,1,1): takes at most 2 arguments"),
    ])
    func badArgumentsAreRefusedNamingThem(_ text: String, _ message: String) {
        #expect(errorMessage { _ = try grouping(named: text) } == message)
    }
}
