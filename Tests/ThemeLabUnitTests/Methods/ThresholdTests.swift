import Foundation
import Testing

@testable import ThemeLabCore
@testable import ThemeLabCorpus
@testable import ThemeLabMeasures
@testable import ThemeLabMethods
@testable import ThemeLabPairs

/// Threshold rules: Otsu against scikit-image 0.26 (Fixtures/skimage-otsu.json), the others on
/// hand-worked or analytic cases.
@Suite struct ThresholdTests {
    struct Case: Decodable {
        var name: String
        var values: [Double]
        var threshold: Double
    }
    struct File: Decodable { var cases: [Case] }
    static let otsuCases = try! decodeFixture(File.self, "skimage-otsu.json")
        .cases

    @Test(arguments: otsuCases.map(\.name))
    func otsuMatchesScikitImage(_ name: String) {
        let k = Self.otsuCases.first { $0.name == name }!
        let lo = k.values.min()!
        let hi = k.values.max()!
        let got: Double
        if lo == hi {
            got = lo
        } else {
            var h = CoarseHistogram(minimum: lo, maximum: hi, bins: 256)
            for v in k.values { h.add(v, count: 1) }
            got = otsu(h)
        }
        #expect(got.isApproximatelyEqual(to: k.threshold, absoluteTolerance: 1e-12), "\(got) vs \(k.threshold)")
    }

    /// Non-finite and absurd arguments are usage errors naming the rule, never a trap or a huge allocation.
    @Test func nonFiniteAndHugeArgumentsAreRefused() {
        for text in ["fixed(nan)", "fixed(inf)", "otsu(-inf)"] {
            #expect(errorMessage { _ = try thresholdRule(named: text) } == "'\(text)': every argument must be a finite number")
        }
        for text in ["otsu(1e30)", "otsu(1e9)", "knn-otsu(0)", "knn-median(2.5)"] {
            #expect(
                errorMessage { _ = try thresholdRule(named: text) }?.contains("must be a whole number from 1 to 1000000") == true, "\(text)"
            )
        }
    }

    /// Hand-worked: observed 0.1, 0.2, 0.2, 0.5.
    @Test func midGapPlacementKeepsThePartitionAndMaximisesTheMargin() {
        let observed = [0.1, 0.2, 0.5]
        #expect(ThresholdPlacement.midGap(0.2, observed: observed) == 0.15000000000000002, "on a value: the gap below it")
        #expect(ThresholdPlacement.midGap(0.3, observed: observed) == 0.35, "inside a gap: its middle")
        #expect(ThresholdPlacement.midGap(0.1, observed: observed) == 0.05, "on the smallest: the gap above, mirrored")
        #expect(ThresholdPlacement.midGap(0.6, observed: observed) == 0.6, "above every value: unchanged")
        #expect(
            ThresholdPlacement.observedValues(pairs: [0.5, 0.2, 0.2], forest: [0.9], merges: [0.1])
                == [0.1, 0.2, 0.5].map { Double(Float($0)) })
    }

    /// The distribution of the given vectors' pairs, with or without kept values.
    func context(vectors: Matrix, labels: [Int32]?, exact: Bool = true) throws -> ThresholdContext {
        let dist = PairEngine(bins: 65_536, tileSize: 64, exactPairLimit: exact ? 10_000_000 : 0).run(try unitRows(vectors), labels: labels)
        return ThresholdContext(distribution: dist, dimensions: vectors.cols)
    }

    @Test func simpleRules() throws {
        let c = try context(vectors: randomMatrix(rows: 40, cols: 16, seed: 3), labels: nil)
        #expect(try thresholdRule(named: "fixed(0.55)").threshold(in: c) == 0.55)
        #expect(try thresholdRule(named: "noise-floor").threshold(in: c) == 1.0)  // 4/√16
        let p90 = try #require(try thresholdRule(named: "percentile(90)").threshold(in: c))
        #expect(p90 == exactQuantile(c.distribution.sortedValues(.all)!, 0.9))
        let otsuValue = try #require(try thresholdRule(named: "otsu").threshold(in: c))
        #expect(try thresholdRule(named: "otsu-floored").threshold(in: c) == max(otsuValue, 1.0))
    }

    @Test func otsuFromTheFineHistogramIsWithinOneBinOfExact() throws {
        let x = randomMatrix(rows: 400, cols: 8, seed: 8)
        let labels = (0..<400).map { Int32($0 % 6) }
        let exact = try #require(OtsuThreshold(bins: 256).threshold(in: try context(vectors: x, labels: labels)))
        let binned = try context(vectors: x, labels: labels, exact: false)
        let approx = try #require(OtsuThreshold(bins: 256).threshold(in: binned))
        let width = (Double(binned.distribution.all.max) - Double(binned.distribution.all.min)) / 256
        #expect(exact.isApproximatelyEqual(to: approx, absoluteTolerance: width + 1e-9))
    }

    @Test func countedCoarseHistogramEqualsTheOneFromKeptValues() throws {
        let x = try unitRows(randomMatrix(rows: 300, cols: 8, seed: 12))
        let labels = (0..<300).map { Int32($0 % 7) }
        let kept = try context(vectors: x, labels: labels)
        let binned = try context(vectors: x, labels: labels, exact: false)
        let counting = CoarseHistogramPass(
            minimum: Double(binned.distribution.all.min), maximum: Double(binned.distribution.all.max), bins: 256)
        _ = PairEngine(tileSize: 64).run(x, labels: labels, consumers: [counting])
        let counted = ThresholdContext(distribution: binned.distribution, dimensions: 8, exactCoarse: counting.histogram)
        #expect(counted.coarseHistogram(bins: 256) == kept.coarseHistogram(bins: 256))
        #expect(OtsuThreshold(bins: 256).threshold(in: counted) == OtsuThreshold(bins: 256).threshold(in: kept))
    }

    @Test func oracleMaximisesPairF1() throws {
        // Two tight topics in 2-D plus a stray: the best cut separates them.
        let x = Matrix(rows: 5, cols: 2, storage: [1, 0.05, 1, -0.05, 0.05, 1, -0.05, 1, 1, 1])
        let c = try context(vectors: x, labels: [0, 0, 1, 1, 1])
        let t = try #require(OracleThreshold().threshold(in: c))
        // Related cosines: 0.995 (0–1), 0.995 (2–3), ~0.74 (2–4, 3–4); unrelated ≤ ~0.74.
        let sorted = c.distribution.sortedValues(.related)!
        var best = -1.0
        var bestT = 0.0
        for candidate in sorted {
            let tp = sorted.filter { $0 >= candidate }.count
            let fp = c.distribution.sortedValues(.unrelated)!.filter { $0 >= candidate }.count
            let f1 = 2.0 * Double(tp) / Double(2 * tp + fp + (sorted.count - tp))
            if f1 > best {
                best = f1
                bestT = Double(candidate)
            }
        }
        #expect(t == bestT)
        #expect(OracleThreshold().isLabelInformed)
    }

    @Test func mixtureFindsTheAnalyticCrossing() {
        // Equal weights and spreads: the crossing is the midpoint of the means.
        let fit = MixtureCrossingThreshold.Fit(weight: (0.5, 0.5), mean: (0.0, 0.4), sigma: (0.1, 0.1))
        #expect(MixtureCrossingThreshold.crossing(fit)!.isApproximatelyEqual(to: 0.2, absoluteTolerance: 1e-12))
        // Unequal weights move it toward the smaller component: 0.2 + σ²·ln(w₁/w₂)/(μ₂ − μ₁).
        let skewed = MixtureCrossingThreshold.Fit(weight: (0.9, 0.1), mean: (0.0, 0.4), sigma: (0.1, 0.1))
        #expect(MixtureCrossingThreshold.crossing(skewed)!.isApproximatelyEqual(to: (0.2 + 0.01 * log(9) / 0.4), absoluteTolerance: 1e-12))
    }

    /// The counting loop (`BinCounter`, C) bins exactly as numpy's rule (`CoarseHistogram.bin`) value by value, on every
    /// path this CPU runs and for Float64 and Float values: on every edge, one ulp either side of it, the extremes, values
    /// outside, infinities and a NaN, placed at every offset of a vector (the values are counted from each start 0…8).
    @Test(arguments: KernelPath.available) func binCounterEqualsTheBinRuleAtEveryEdge(path: KernelPath) {
        let h = CoarseHistogram(minimum: -0.3125, maximum: 0.9, bins: 256)
        var values: [Double] = [-.infinity, .infinity, .nan, -1, 2, -0.3125, 0.9]
        for e in h.edges { values += [e, e.nextDown, e.nextUp] }
        var random = SeededRandom(seed: 5)
        for _ in 0..<5000 { values.append(-0.3125 + 1.2125 * Double(random.next() % 1_000_000) / 1_000_000) }
        for start in 0...8 {
            let part = Array(values[start...])
            var counter = CoarseHistogram.BinCounter(edges: h.edges, path: path)
            part.withUnsafeBufferPointer { counter.add($0) }
            #expect(counter.counts() == Self.ruleCounts(part, edges: h.edges), "\(path), from \(start)")
        }
        let floats = values.map(Float.init)
        var counter = CoarseHistogram.BinCounter(edges: h.edges, path: path)
        floats.withUnsafeBufferPointer { counter.add($0) }
        let expected = Self.ruleCounts(floats.map(Double.init), edges: h.edges)
        #expect(counter.counts() == expected, "\(path), Float values")
        #expect(expected[0] >= 4 && expected[255] >= 4 && expected.reduce(0, +) == values.count)
    }

    /// Edges that are not i·step + first (here one moved by an ulp) are counted on the scalar path, by the edges given.
    @Test(arguments: KernelPath.available) func unevenEdgesAreCountedByTheEdgesGiven(path: KernelPath) {
        var edges = CoarseHistogram(minimum: 0, maximum: 1, bins: 8).edges
        edges[3] = edges[3].nextUp
        // Two whole vectors of values inside, so a SIMD path computing the edges would put 0.375 in bin 3.
        let values = Array(repeating: [0.375, edges[3], 0.3, 0.5, 0.7, 0.8, 0.1, 0.2], count: 2).flatMap { $0 }
        var counter = CoarseHistogram.BinCounter(edges: edges, path: path)
        values.withUnsafeBufferPointer { counter.add($0) }
        #expect(counter.counts() == Self.ruleCounts(values, edges: edges))
        #expect(counter.counts() == [2, 2, 4, 2, 2, 2, 2, 0], "0.375, an ulp below the moved edge, stays in bin 2")
    }

    static func ruleCounts(_ values: [Double], edges: [Double]) -> [Int] {
        let bins = edges.count - 1
        var expected = [Int](repeating: 0, count: bins)
        edges.withUnsafeBufferPointer { e in
            for v in values { expected[CoarseHistogram.bin(of: v, edges: e, scale: Double(bins) / (e[bins] - e[0]))] += 1 }
        }
        return expected
    }

    @Test func kittlerIllingworthSplitsTwoSeparatedModes() {
        var h = CoarseHistogram(minimum: 0, maximum: 1, bins: 10)
        for (v, n) in [(0.05, 10.0), (0.15, 20), (0.25, 10), (0.75, 5), (0.85, 10), (0.95, 5)] { h.add(v, count: n) }
        // Splits after bins 2…6 all give the classes {0.05, 0.15, 0.25} and {0.75, 0.85, 0.95},
        // the minimum of J (a split inside a mode gives a larger J); the first is bin 2, centre 0.25.
        #expect(kittlerIllingworth(h)!.isApproximatelyEqual(to: 0.25, absoluteTolerance: 1e-12))
        var flat = CoarseHistogram(minimum: 0, maximum: 1, bins: 4)
        flat.add(0.1, count: 3)
        flat.add(0.9, count: 3)
        #expect(kittlerIllingworth(flat) == nil, "two spikes: every split leaves a class without spread")
    }

    @Test func unknownNamesAreUsageErrors() {
        #expect(errorMessage { _ = try thresholdRule(named: "median") }?.hasPrefix("unknown threshold rule 'median'") == true)
        #expect(
            errorMessage { _ = try thresholdRule(named: "percentile(120)") } == "percentile(120): p must be a number from 0 to 100, got 120"
        )
        #expect(errorMessage { _ = try thresholdRule(named: "otsu(x)") } == "'otsu(x)': expected NAME, NAME(number) or NAME(number,number)")
    }

    @Test func neighbourRulesOnAConstantInput() throws {
        // Six copies of one vector: every neighbour similarity is 1. Otsu returns the value, as
        // scikit-image does; EM cannot split one value.
        let x = Matrix(rows: 6, cols: 3, storage: Array(repeating: [Float(0.6), 0.8, 0], count: 6).flatMap { $0 })
        let neighbours = NearestNeighbours(items: 6, k: 3)
        let distribution = PairEngine(workers: 1).run(x, consumers: [neighbours])
        let context = ThresholdContext(distribution: distribution, dimensions: 3, neighbours: neighbours)
        let value = try #require(neighbours.similarities(of: 0, count: 1).first)
        #expect(NeighbourOtsuThreshold(k: 3).threshold(in: context) == Double(value))
        #expect(NeighbourMixtureThreshold(k: 3).threshold(in: context) == nil)
    }
}
