import Foundation
import Testing

@testable import ThemeLabCore
@testable import ThemeLabMeasures
@testable import ThemeLabMethods
@testable import ThemeLabPairs

/// The separation figures and the EM, Kittler–Illingworth and silhouette rules against independent
/// references (Fixtures/sklearn-separation.json, scripts/fixtures/make_separation_fixtures.py):
/// scikit-learn's roc_auc_score, d′ by hand, GaussianMixture, the published minimum-error
/// criterion written out in Python, and scipy's average linkage with scikit-learn's silhouette.
@Suite struct SeparationReferenceTests {
    struct File: Decodable {
        struct Separation: Decodable {
            var name: String
            var vectors: [[Float]]
            var labels: [Int32]
            var auc: Double
            var dPrime: Double
        }
        struct Mixture: Decodable {
            var name: String
            var values: [Double]
            var split: Double
            var weights: [Double]
            var means: [Double]
            var sigmas: [Double]
        }
        struct Histogram: Decodable {
            var name: String
            var minimum: Double
            var maximum: Double
            var counts: [Double]
            var threshold: Double
        }
        struct Silhouette: Decodable {
            var name: String
            var vectors: [[Float]]
            var bestK: Int
            var threshold: Double
        }
        var separation: [Separation]
        var mixtures: [Mixture]
        var histograms: [Histogram]
        var silhouettes: [Silhouette]
    }

    static let file = try! decodeFixture(File.self, "sklearn-separation.json")

    static func matrix(_ rows: [[Float]]) -> Matrix { Matrix(rows: rows.count, cols: rows[0].count, storage: rows.flatMap { $0 }) }

    @Test(arguments: file.separation.map(\.name))
    func aucAndDPrimeMatchScikitLearnAndTheFormula(_ name: String) throws {
        let c = Self.file.separation.first { $0.name == name }!
        let d = PairEngine().run(Self.matrix(c.vectors), labels: c.labels)
        let (auc, bound) = try #require(areaUnderCurve(d))
        // Float32 products against float64 ones: a near-tie may flip, nothing more.
        #expect(bound == 0 && auc.isApproximatelyEqual(to: c.auc, absoluteTolerance: 1e-6), "\(auc) vs \(c.auc)")
        #expect(try #require(dPrime(d)).isApproximatelyEqual(to: c.dPrime, absoluteTolerance: 1e-5))
    }

    @Test(arguments: file.mixtures.map(\.name))
    func emMatchesGaussianMixture(_ name: String) throws {
        let c = Self.file.mixtures.first { $0.name == name }!
        let fit = try #require(
            MixtureCrossingThreshold.fit(c.values, weights: c.values.map { _ in 1 }, split: c.split, sigmaFloor: 0))
        // Heavily overlapping components converge slowly; the rule's EM stops at 500 iterations or a
        // log-likelihood gain below 1e-10 per point, measured here 1.1e-4 from the converged fit.
        let tolerance = name == "overlapping" ? 2e-4 : 1e-6
        for (ours, theirs) in [(fit.weight, c.weights), (fit.mean, c.means), (fit.sigma, c.sigmas)] {
            #expect(ours.0.isApproximatelyEqual(to: theirs[0], absoluteTolerance: tolerance), "\(name): \(ours) vs \(theirs)")
            #expect(ours.1.isApproximatelyEqual(to: theirs[1], absoluteTolerance: tolerance), "\(name): \(ours) vs \(theirs)")
        }
    }

    @Test(arguments: file.histograms.map(\.name))
    func kittlerIllingworthMatchesThePublishedCriterion(_ name: String) throws {
        let c = Self.file.histograms.first { $0.name == name }!
        var h = CoarseHistogram(minimum: c.minimum, maximum: c.maximum, bins: c.counts.count)
        h.counts = c.counts
        #expect(try #require(kittlerIllingworth(h)).isApproximatelyEqual(to: c.threshold, absoluteTolerance: 1e-12))
    }

    @Test(arguments: file.silhouettes.map(\.name))
    func theSilhouetteRuleCutsWhereScikitLearnScoresBest(_ name: String) throws {
        let c = Self.file.silhouettes.first { $0.name == name }!
        let x = Self.matrix(c.vectors)
        let pass = PassPlan(needs: PassNeeds(averageLinkage: true), exactHistogramPairLimit: 0).run(x, labels: nil, engine: PairEngine())
        let dendrogram = try pass.dendrogram().get()
        let context = ThresholdContext(
            distribution: pass.distribution, dimensions: x.cols, silhouettes: CriterionCurve.silhouettes(vectors: x, dendrogram: dendrogram)
        )
        let t = try #require(SilhouetteThreshold().threshold(in: context))
        #expect(t.isApproximatelyEqual(to: c.threshold, absoluteTolerance: 1e-5), "\(t) vs \(c.threshold) (best k \(c.bestK))")
        #expect(Set(dendrogram.cut(atSimilarity: t)).count == c.bestK)
    }
}
