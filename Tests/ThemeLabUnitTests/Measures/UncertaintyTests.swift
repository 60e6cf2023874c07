import Foundation
import Testing
import ThemeLabCore
import ThemeLabCorpus
import ThemeLabMeasures

/// Intervals, paired comparisons and replicates, against scipy and hand-worked cases.
struct UncertaintyTests {
    struct Fixture: Decodable {
        struct Bootstrap: Decodable {
            var name: String
            var values: [Double]
            var indices: [[Int]]
            var low, high, mean, sd, low9999, high9999: Double
        }
        struct Paired: Decodable {
            var name: String
            var a, b: [Double]
            var p: Double
        }
        struct Beta: Decodable { var a, b, x, value: Double }
        struct Holm: Decodable { var p, adjusted: [Double] }
        var bootstrap: [Bootstrap]
        var paired: [Paired]
        var betainc: [Beta]
        var holm: [Holm]
    }

    let reference: Fixture = try! decodeFixture(Fixture.self, "scipy-uncertainty.json")

    @Test func percentileIntervalMatchesScipyOnTheSameResamples() {
        for b in reference.bootstrap {
            let e = PercentileBootstrap(resamples: b.indices).estimate(b.values)
            #expect(e.low.isApproximatelyEqual(to: b.low, absoluteTolerance: 1e-12), "\(b.name) low \(e.low) vs \(b.low)")
            #expect(e.high.isApproximatelyEqual(to: b.high, absoluteTolerance: 1e-12), "\(b.name) high \(e.high) vs \(b.high)")
            #expect(
                e.mean.isApproximatelyEqual(to: b.mean, absoluteTolerance: 1e-12)
                    && e.sd.isApproximatelyEqual(to: b.sd, absoluteTolerance: 1e-12))
        }
    }

    /// The interval's quantiles by selection equal numpy's on the sorted values: hand-worked cases
    /// (numpy.quantile([1, 2, 3, 4], 0.25) = 1.75), then seeded arrays full of ties at every size 1…40 and 9 999.
    @Test func selectionGivesTheSortedQuantile() {
        var four = [4.0, 1, 3, 2]
        #expect(selectedQuantile(&four, 0.25) == 1.75)
        var three = [3.0, 1, 2]
        #expect(selectedQuantile(&three, 0.5) == 2 && selectedQuantile(&three, 1) == 3 && selectedQuantile(&three, 0) == 1)
        var rng = SeededRandom(seed: 7)
        for count in Array(1...40) + [9999] {
            for ties in [3, 1000] {
                let values = (0..<count).map { _ in Double(rng.next() % UInt64(ties)) / 7 }
                for q in [0, 0.025, 0.1, 0.5, 0.9, 0.975, 1] {
                    var copy = values
                    #expect(selectedQuantile(&copy, q) == exactQuantile(values.sorted(), q), "\(count) values, q = \(q)")
                    #expect(copy.sorted() == values.sorted())
                }
            }
        }
    }

    /// With its own 9 999 seeded resamples the interval differs from scipy's only by Monte Carlo
    /// error: within 5% of the interval's width (0.01 absolute for these series).
    @Test func ownResamplesAgreeWithScipyWithinMonteCarloError() {
        for b in reference.bootstrap {
            let e = PercentileBootstrap(count: b.values.count, seed: 0).estimate(b.values)
            let tolerance = max(0.05 * (b.high9999 - b.low9999), 1e-12)
            #expect(e.low.isApproximatelyEqual(to: b.low9999, absoluteTolerance: tolerance), "\(b.name) \(e.low) vs \(b.low9999)")
            #expect(e.high.isApproximatelyEqual(to: b.high9999, absoluteTolerance: tolerance), "\(b.name) \(e.high) vs \(b.high9999)")
        }
    }

    @Test func aConstantHasAZeroWidthIntervalAndItsOwnMean() {
        let e = PercentileBootstrap(count: 10, seed: 3).estimate([Double](repeating: 0.2041241452319315, count: 10))
        #expect(e == Estimate(n: 10, mean: 0.2041241452319315, sd: 0, low: 0.2041241452319315, high: 0.2041241452319315))
        // Hand-worked sample sd (ddof 1): values 1…4 have variance 5/3.
        #expect(
            PercentileBootstrap(count: 4, seed: 0).estimate([1, 2, 3, 4]).sd.isApproximatelyEqual(
                to: (5.0 / 3).squareRoot(), absoluteTolerance: 1e-15))
    }

    @Test func missingReplicatesAreLeftOutAndCounted() {
        let b = PercentileBootstrap(count: 5, seed: 1)
        let e = b.estimate([0.5, nil, 0.7, nil, 0.9])
        #expect(e?.n == 3 && e?.mean.isApproximatelyEqual(to: 0.7, absoluteTolerance: 1e-15) == true)
        #expect(b.estimate([nil, nil, nil, nil, nil] as [Double?]) == nil)
    }

    @Test func pairedTTestMatchesScipy() {
        for p in reference.paired {
            let mine = pairedTTest(zip(p.a, p.b).map { $0 - $1 })
            #expect(mine.isApproximatelyEqual(to: p.p, absoluteTolerance: 1e-12 + 1e-9 * p.p), "\(p.name) \(mine) vs \(p.p)")
        }
        #expect(pairedTTest([0, 0, 0]) == 1 && pairedTTest([0.1, 0.1, 0.1]) == 0)
    }

    @Test func incompleteBetaMatchesScipy() {
        for r in reference.betainc {
            let mine = regularizedIncompleteBeta(r.a, r.b, r.x)
            #expect(mine.isApproximatelyEqual(to: r.value, absoluteTolerance: 1e-13), "I_\(r.x)(\(r.a), \(r.b)) = \(mine) vs \(r.value)")
        }
    }

    @Test func holmMatchesItsDefinition() {
        for h in reference.holm {
            #expect(zip(holm(h.p), h.adjusted).allSatisfy { $0.isApproximatelyEqual(to: $1, absoluteTolerance: 1e-15) }, "\(h.p)")
        }
        // By hand: sorted 0.005·4 = 0.02, 0.01·3 = 0.03, 0.03·2 = 0.06, max(0.04·1, 0.06) = 0.06.
        #expect(
            zip(holm([0.01, 0.04, 0.03, 0.005]), [0.03, 0.06, 0.06, 0.02]).allSatisfy {
                $0.isApproximatelyEqual(to: $1, absoluteTolerance: 1e-15)
            })
    }

    /// A rule clearly ahead on every replicate is "better"; two rules that trade places are
    /// indistinguishable; swapping a and b flips the sign and the verdict.
    @Test func pairedVerdictsFollowTheHolmAdjustedTest() {
        let clear = reference.paired[0]
        let noisy = reference.paired[1]
        let family = PairedComparison.family(
            [("a", clear.a), ("b", clear.b), ("c", noisy.a)], bootstrap: PercentileBootstrap(count: 10, seed: 0))
        let ab = family.first { $0.a == "a" && $0.b == "b" }!
        #expect(ab.verdict == .better && ab.difference.low > 0)
        #expect(ab.pHolm.isApproximatelyEqual(to: min(1, 3 * clear.p), absoluteTolerance: 1e-12), "smallest of three p-values times 3")
        let reversed = PairedComparison.family([("b", clear.b), ("a", clear.a)], bootstrap: PercentileBootstrap(count: 10, seed: 0))[0]
        #expect(
            reversed.verdict == .worse && reversed.difference.mean.isApproximatelyEqual(to: -ab.difference.mean, absoluteTolerance: 1e-12))
        let tied = PairedComparison.family([("x", noisy.a), ("y", noisy.b)], bootstrap: PercentileBootstrap(count: 10, seed: 0))[0]
        #expect(tied.verdict == .indistinguishable && tied.difference.low < 0 && tied.difference.high > 0)
    }

    @Test func stratifiedSubsamplesKeepEveryTopicInProportion() throws {
        let corpus = try DatasetRegistry.load(CorpusSpec(name: "seed-12")).corpus
        let r = Resampling(fraction: 0.8)
        let kept = r.subsample(corpus, seed: 4)
        // Topics of 4, 3, 3, 2 keep round(3.2), round(2.4), round(2.4), round(1.6) = 3, 2, 2, 2.
        #expect(kept.count == 9 && kept == kept.sorted() && Set(kept).count == 9)
        let labels = corpus.labelIndices()!
        #expect(kept.map { labels[$0] }.reduce(into: [Int32: Int]()) { $0[$1, default: 0] += 1 }.values.sorted() == [2, 2, 2, 3])
        #expect(r.subsample(corpus, seed: 4) == kept)
        #expect((0..<10).map { r.subsample(corpus, seed: UInt64($0)) }.count { $0 != kept } > 0)
        #expect(Resampling(fraction: 0.01).subsample(corpus, seed: 0).count == 4, "at least one item of each topic")
    }
}
