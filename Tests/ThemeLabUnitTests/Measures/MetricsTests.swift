import Foundation
import Testing

@testable import ThemeLabCore
@testable import ThemeLabMeasures

/// Recovery metrics against scikit-learn 1.9.1 (Fixtures/sklearn-metrics.json, made by
/// scripts/fixtures/make_reference_fixtures.py), to 1e-9.
@Suite struct MetricsTests {
    struct Case: Decodable {
        struct Pairs: Decodable {
            var tp: Double
            var fp: Double
            var fn: Double
            var tn: Double
        }
        var name: String
        var topics: [Int]
        var groups: [Int]
        var ari: Double
        var nmi: Double
        var homogeneity: Double
        var completeness: Double
        var vMeasure: Double
        var pairConfusion: Pairs
    }
    struct File: Decodable { var cases: [Case] }

    static let cases = try! decodeFixture(File.self, "sklearn-metrics.json")
        .cases

    @Test(arguments: cases.map(\.name))
    func matchesScikitLearn(_ name: String) {
        let k = Self.cases.first { $0.name == name }!
        let c = Contingency(classes: k.topics, clusters: k.groups)
        let r = Recovery(topics: k.topics, groups: k.groups)
        #expect(r.ari.isApproximatelyEqual(to: k.ari, absoluteTolerance: 1e-9), "ARI \(r.ari) vs \(k.ari)")
        #expect(r.nmi.isApproximatelyEqual(to: k.nmi, absoluteTolerance: 1e-9), "NMI \(r.nmi) vs \(k.nmi)")
        #expect(r.homogeneity.isApproximatelyEqual(to: k.homogeneity, absoluteTolerance: 1e-9))
        #expect(r.completeness.isApproximatelyEqual(to: k.completeness, absoluteTolerance: 1e-9))
        #expect(r.vMeasure.isApproximatelyEqual(to: k.vMeasure, absoluteTolerance: 1e-9))
        let p = PairConfusion(c)
        #expect(p == PairConfusion(tp: k.pairConfusion.tp, fp: k.pairConfusion.fp, fn: k.pairConfusion.fn, tn: k.pairConfusion.tn))
    }

    /// The integer labels' table (lookups and a sort) is the generic one (hashing), cell for cell: small labels, negative
    /// ones, labels far above the item count, one item and none; scikit-learn's cases through both give its ARI.
    @Test func integerLabelsGiveTheGenericTable() {
        var rng = SeededRandom(seed: 7)
        let fixed: [[Int32]] = [
            [], [7], [-1, -1, 0, 3, 3], [5_000_000, 2, 2, 5_000_000, -7], [Int32.max, 0, Int32.min], [71, 0], [72, 0], [3, 3, 1, 0, 1],
        ]
        let drawn: [[Int32]] = (0..<20).map { (t: Int) -> [Int32] in
            (0..<(1 + t * 37)).map { _ in Int32.random(in: 0..<Int32(1 + t * 3), using: &rng) }
        }
        let labelings = fixed + drawn
        for classes in labelings {
            for clusters in labelings where clusters.count == classes.count {
                let fast = Contingency(classes: classes, clusters: clusters)
                let generic = Contingency(classes: classes.map(String.init), clusters: clusters.map(String.init))
                #expect(fast.cells.map { [$0.class, $0.cluster, $0.count] } == generic.cells.map { [$0.class, $0.cluster, $0.count] })
                #expect(fast.classSizes == generic.classSizes && fast.clusterSizes == generic.clusterSizes)
            }
            let shuffled = classes.shuffled(using: &rng)
            let fast = Contingency(classes: classes, clusters: shuffled)
            let generic = Contingency(classes: classes.map(String.init), clusters: shuffled.map(String.init))
            #expect(fast.cells.map { [$0.class, $0.cluster, $0.count] } == generic.cells.map { [$0.class, $0.cluster, $0.count] })
            #expect(fast.classSizes == generic.classSizes && fast.clusterSizes == generic.clusterSizes)
            #expect(adjustedRandIndex(fast) == adjustedRandIndex(generic))
        }
        for k in Self.cases {
            let fast = Contingency(classes: k.topics.map(Int32.init), clusters: k.groups.map(Int32.init))
            #expect(adjustedRandIndex(fast).isApproximatelyEqual(to: k.ari, absoluteTolerance: 1e-9))
        }
    }

    @Test func pairScoresPurityAndShapeByHand() {
        // Topics a a a b b, groups 1 1 2 2 2: together pairs (0,1) (2,3) (2,4) (3,4); same-topic
        // pairs (0,1) (0,2) (1,2) (3,4). tp = 2 of 4 grouped, 2 of 4 same-topic.
        let r = Recovery(topics: ["a", "a", "a", "b", "b"], groups: [1, 1, 2, 2, 2])
        #expect(r.pairPrecision == 0.5 && r.pairRecall == 0.5 && r.pairF1 == 0.5)
        #expect(r.purity == 4.0 / 5.0)  // group 1 votes a (2), group 2 votes b (2 of 3)
        #expect(r.singletonShare == 0 && r.largestGroupShare == 3.0 / 5.0)
        let singles = Recovery(topics: ["a", "a", "b"], groups: [0, 1, 2])
        #expect(singles.pairPrecision == nil && singles.pairRecall == 0 && singles.pairF1 == 0 && singles.singletonShare == 1)
    }
}

/// One type keys every recovery figure: its values (the CSV columns and what a gate may tolerate: `ExportTests`).
@Suite struct MetricKeyTests {
    @Test func eachMetricReadsItsOwnField() {
        let r = Recovery(topics: ["a", "a", "b", "b", "c"], groups: [0, 0, 1, 2, 2])
        #expect(r.value(.groups) == 3 && r.value(.ari) == r.ari && r.value(.vMeasure) == r.vMeasure && r.value(.pairF1) == r.pairF1)
        #expect(r.value(.largestGroupShare) == r.largestGroupShare && r.value(.noiseShare) == nil)
        #expect(Metric.recovery.count == Set(Metric.recovery).count && !Metric.recovery.contains(.noiseShare))
    }
}
