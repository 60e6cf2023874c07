import Foundation
import Testing
import ThemeLabCore
import ThemeLabMeasures

/// The properties scikit-learn's clustering metrics are tested for: symmetry, invariance to
/// renaming labels, ARI at chance level on random labelings, and empty or single-item inputs.
@Suite struct MetricPropertyTests {
    static func randomLabels(_ n: Int, _ k: Int, _ rng: inout SeededRandom) -> [Int32] {
        (0..<n).map { _ in Int32(rng.next() % UInt64(k)) }
    }

    @Test func ariNmiAndVMeasureAreSymmetric() {
        var rng = SeededRandom(seed: 11)
        for _ in 0..<20 {
            let a = Self.randomLabels(60, 4, &rng)
            let b = Self.randomLabels(60, 7, &rng)
            let (ab, ba) = (Recovery(topics: a, groups: b), Recovery(topics: b, groups: a))
            #expect(ab.ari.isApproximatelyEqual(to: ba.ari, absoluteTolerance: 1e-12))
            #expect(ab.nmi.isApproximatelyEqual(to: ba.nmi, absoluteTolerance: 1e-12))
            #expect(ab.vMeasure.isApproximatelyEqual(to: ba.vMeasure, absoluteTolerance: 1e-12))
            #expect(ab.homogeneity.isApproximatelyEqual(to: ba.completeness, absoluteTolerance: 1e-12))
            #expect(ab.pairPrecision == ba.pairRecall && ab.pairF1 == ba.pairF1)
        }
    }

    @Test func renamingLabelsChangesNothing() {
        var rng = SeededRandom(seed: 12)
        let topics = Self.randomLabels(80, 5, &rng)
        let groups = Self.randomLabels(80, 6, &rng)
        let renamedTopics = topics.map { "topic-\(7 - $0)" }
        let renamedGroups = groups.map { ($0 * 13 + 5) % 17 }
        #expect(Recovery(topics: topics, groups: groups) == Recovery(topics: renamedTopics, groups: renamedGroups))
    }

    @Test func ariIsZeroInExpectationOnRandomLabelings() {
        var rng = SeededRandom(seed: 13)
        let aris = (0..<300).map { _ in Recovery(topics: Self.randomLabels(100, 5, &rng), groups: Self.randomLabels(100, 5, &rng)).ari }
        let mean = aris.reduce(0, +) / Double(aris.count)
        // The standard error of the mean here is about 0.0007.
        #expect(abs(mean) < 0.003, "mean ARI \(mean)")
        #expect(Recovery(topics: [0, 0, 1, 1], groups: [0, 1, 0, 1]).ari < 0, "worse than chance is negative")
    }

    @Test func emptyAndSingleItemInputsAreDefined() {
        // scikit-learn: adjusted_rand_score, normalized_mutual_info_score and v_measure_score of
        // ([], []) and ([0], [0]) are all 1.0.
        for r in [Recovery(topics: [Int](), groups: [Int]()), Recovery(topics: [0], groups: [0])] {
            #expect(r.ari == 1 && r.nmi == 1, "\(r)")
            #expect(r.homogeneity == 1 && r.completeness == 1 && r.vMeasure == 1, "\(r)")
            #expect(r.purity == 1 && r.singletonShare.isFinite && r.largestGroupShare.isFinite, "\(r)")
        }
    }
}
