import Foundation
import Testing

@testable import ThemeLabCore
@testable import ThemeLabCorpus
@testable import ThemeLabMeasures
@testable import ThemeLabMethods
@testable import ThemeLabPairs

/// Groupings against scipy (Fixtures/scipy-grouping.*, made by
/// scripts/fixtures/make_grouping_fixtures.py) and hand-worked cases. Partitions are compared
/// up to renaming (ARI = 1).
@Suite struct GroupingTests {
    struct Cut: Decodable {
        var threshold: Double?
        var k: Int?
        var labels: [Int]
    }
    struct File: Decodable {
        var averageByThreshold: [Cut]
        var averageByK: [Cut]
        var components: [Cut]
        var mergeSimilarities: [Double]
        var singleMergeSimilarities: [Double]
        var silhouettes: [Scored]
        var top5: [[Double]]
        var top5Otsu: Double
    }
    struct Scored: Decodable {
        var labels: [Int]
        var score: Double
    }
    static let file = try! decodeFixture(File.self, "scipy-grouping.json")

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
        let theirs = Self.file.mergeSimilarities.sorted(by: >)
        #expect(zip(ours, theirs).allSatisfy { $0.isApproximatelyEqual(to: $1, absoluteTolerance: 1e-5) }, "merge heights")
        for cut in Self.file.averageByThreshold {
            #expect(samePartition(tree.cut(atSimilarity: cut.threshold!), cut.labels), "cut at \(cut.threshold!)")
        }
        for cut in Self.file.averageByK {
            #expect(samePartition(tree.cut(groups: cut.k!), cut.labels), "k = \(cut.k!)")
        }
    }

    /// The chain's scan along a row on every path: the largest value and its first index, ties across whole vectors and
    /// in the tail.
    @Test(arguments: [0, 1, 7, 8, 9, 15, 16, 17, 40], KernelPath.available)
    func firstMaximumIsTheFirstOfTheLargest(_ count: Int, path: KernelPath) {
        var values = (0..<count).map { Float(($0 * 7) % 5) - 2 }  // −2 … 2, repeating
        if count > 3 { values[count - 1] = 3 }
        if count > 20 { values[18] = 3 }  // a tie past the first vector: the earlier wins
        if count == 16 { values = values.map { _ in -.infinity } }
        let expected = values.indices.max { (values[$0], -$0) < (values[$1], -$1) }.map { ($0, values[$0]) }
        let found = values.withUnsafeBufferPointer { firstMaximum($0, path: path) }
        #expect(found?.index == expected?.0 && found?.value == expected?.1, "\(values)")
    }

    /// A maximum of zero is the first zero of either sign, with its stored sign, on every path.
    @Test(arguments: KernelPath.available)
    func aZeroMaximumIsTheFirstZero(path: KernelPath) {
        var values = [Float](repeating: -1, count: 40)
        (values[20], values[25], values[38]) = (-0.0, 0, -.infinity)
        let found = values.withUnsafeBufferPointer { firstMaximum($0, path: path) }
        #expect(found?.index == 20 && found?.value.sign == .minus)
    }

    /// Two schedules and every path of the C loops (`tl_forest_row`, `tl_prim`, `tl_heaviest_row`).
    @Test(arguments: [1, 2], KernelPath.available)
    func spanningForestMatchesScipySingleLinkageAndComponents(workers: Int, path: KernelPath) throws {
        let x = try unitVectors()
        // 16-row tiles give 10 tiles; an 8-edge buffer forces rebuilds mid-tile.
        let forest = SpanningForest(items: x.rows, levels: 4, capacity: 8, path: path)
        _ = PairEngine(tileSize: 16, workers: workers).run(x, labels: (0..<60).map { Int32($0 / 15) }, consumers: [forest])
        #expect(forest.rebuilds > 10, "\(forest.rebuilds) rebuilds")
        // The forest is unique under (weight, items) order, so neither the schedule nor the
        // rebuilds can change it.
        let whole = SpanningForest(items: x.rows)
        _ = PairEngine(tileSize: 16, workers: 1).run(x, labels: (0..<60).map { Int32($0 / 15) }, consumers: [whole])
        #expect(whole.rebuilds < forest.rebuilds && whole.edges == forest.edges)
        let ours = forest.edges.map { Double($0.w) }
        let theirs = Self.file.singleMergeSimilarities.sorted(by: >)
        #expect(
            ours.count == 59 && zip(ours, theirs).allSatisfy { $0.isApproximatelyEqual(to: $1, absoluteTolerance: 1e-5) }, "merge heights")
        for cut in Self.file.components {
            #expect(samePartition(forest.labels(atLeast: cut.threshold!), cut.labels), "components at \(cut.threshold!)")
        }
    }

    @Test func spanningForestByHand() {
        // Weights 0.9 (0–1), 0.8 (2–3), 0.5 (1–2) and lighter pairs: the forest keeps those three.
        let forest = SpanningForest(
            items: 4,
            edges: [
                .init(i: 0, j: 2, w: 0.1), .init(i: 2, j: 3, w: 0.8), .init(i: 0, j: 1, w: 0.9),
                .init(i: 1, j: 2, w: 0.5), .init(i: 0, j: 3, w: 0.5), .init(i: 1, j: 3, w: 0.2),
            ])
        #expect(forest.edges.map(\.w) == [0.9, 0.8, 0.5])
        #expect(forest.edges[2] == .init(i: 0, j: 3, w: 0.5))  // ties go to the smaller item numbers
        #expect(forest.labels(atLeast: 0.85) == [0, 0, 1, 2])
        #expect(forest.labels(atLeast: 0.6) == [0, 0, 1, 1])
        #expect(forest.labels(atLeast: 0.5) == [0, 0, 0, 0])
    }

    @Test func silhouetteMatchesScikitLearn() throws {
        let x = try unitVectors()
        for case let c in Self.file.silhouettes {
            let ours = try #require(silhouette(x, groups: c.labels.map { Int32($0 - 1) }))
            #expect(ours.isApproximatelyEqual(to: c.score, absoluteTolerance: 1e-5), "\(ours) vs \(c.score)")
        }
        #expect(silhouette(x, groups: [Int32](repeating: 0, count: 60)) == nil)
    }

    @Test func bestCutEqualsAScanOfEveryCut() throws {
        let x = try unitVectors()
        let topics = (0..<60).map { Int32($0 / 15) }
        let forest = SpanningForest(items: 60)
        let linkage = try AverageLinkage(items: 60)
        _ = PairEngine(tileSize: 16).run(x, consumers: [forest, linkage])
        let tree = linkage.dendrogram()
        for merges in [
            forest.edges.map { (a: Int($0.i), b: Int($0.j), similarity: $0.w) },
            tree.merges.map { (a: $0.a, b: $0.b, similarity: $0.similarity) },
        ] {
            var scan = Recovery(topics: topics, groups: Array(0..<60)).ari
            for t in Set(merges.map(\.similarity)) {
                var sets = UnionFind(count: 60)
                for m in merges where m.similarity >= t { sets.union(m.a, m.b) }
                scan = max(scan, Recovery(topics: topics, groups: sets.labels()).ari)
            }
            let best = BestCut(items: 60, merges: merges, topics: topics)
            #expect(best.ari.isApproximatelyEqual(to: scan, absoluteTolerance: 1e-12) && best.ari > 0.5)
        }
        // By hand: {0,1} at 0.9, then {2,3} at 0.8, then all at 0.1; topics {0,1}, {2,3}.
        let hand = BestCut(items: 4, merges: [(0, 1, 0.9), (2, 3, 0.8), (1, 2, 0.1)], topics: [0, 0, 1, 1])
        #expect(hand.ari == 1 && hand.threshold == Double(Float(0.8)) && hand.groups == 2)
    }

    @Test(arguments: [1, 2])
    func nearestNeighboursAndKnnOtsuMatchNumpyAndScikitImage(workers: Int) throws {
        let x = try unitVectors()
        let neighbours = NearestNeighbours(items: 60, k: 8)
        let distribution = PairEngine(tileSize: 16, workers: workers).run(x, consumers: [neighbours])
        for v in 0..<60 {
            let ours = neighbours.similarities(of: v, count: 5).map(Double.init)
            #expect(
                ours.count == 5 && zip(ours, Self.file.top5[v]).allSatisfy { $0.isApproximatelyEqual(to: $1, absoluteTolerance: 1e-5) },
                "item \(v)")
        }
        let context = ThresholdContext(distribution: distribution, dimensions: x.cols, neighbours: neighbours)
        let t = try #require(NeighbourOtsuThreshold(k: 5).threshold(in: context))
        let values = Self.file.top5.flatMap { $0 }
        let bin = (values.max()! - values.min()!) / 256
        #expect(t.isApproximatelyEqual(to: Self.file.top5Otsu, absoluteTolerance: bin + 1e-6), "\(t) vs \(Self.file.top5Otsu)")
        // The k-th neighbour median: numpy's median of each item's 5th similarity.
        let fifth = Self.file.top5.map { $0[4] }.sorted()
        #expect(
            NeighbourMedianThreshold(k: 5).threshold(in: context)!.isApproximatelyEqual(
                to: (fifth[29] + fifth[30]) / 2, absoluteTolerance: 1e-5))
    }

    /// The leader from shared block products gives, for every threshold of a sweep, what a direct implementation of the
    /// journal method's rule gives (centroid sums in Float64, cosine to each, first best, ≥ t joins), in any visiting
    /// order; and a sweep gives each threshold the labels it gets alone. 600 items: three blocks of `blockRows`.
    @Test func leaderSweepEqualsTheDirectRule() throws {
        let (_, raw) = SyntheticVectors(
            dimensions: 24, topicSizes: [200, 150, 150, 100], anisotropy: 0.5, topicStrength: 1, noise: 0.7, seed: 3
        )
        .corpus(name: "g")
        let x = try unitRows(raw)
        func direct(_ t: Double, _ order: [Int]) -> [Int32] {
            var labels = [Int32](repeating: -1, count: x.rows)
            var sums: [[Double]] = []
            for i in order {
                let v = x.row(i).map(Double.init)
                let cosines = sums.map { s -> Double in
                    let norm = s.reduce(0) { $0 + $1 * $1 }.squareRoot()
                    return norm > 0 ? zip(s, v).reduce(0) { $0 + $1.0 * $1.1 } / norm : 0
                }
                if let best = cosines.indices.max(by: { cosines[$0] < cosines[$1] || (cosines[$0] == cosines[$1] && $0 > $1) }),
                    cosines[best] >= t
                {
                    labels[i] = Int32(best)
                    sums[best] = zip(sums[best], v).map { $0 + $1 }
                } else {
                    labels[i] = Int32(sums.count)
                    sums.append(v)
                }
            }
            return labels
        }
        // Six thresholds: the sums kernel takes four sweeps per pass and the other two one at a time.
        let thresholds = [0.2, 0.3, 0.45, 0.6, 0.7, 0.8]
        for order in [Array(0..<x.rows), SeededRandom.permutation(count: x.rows, seed: 9)] {
            let swept = try LeaderAlgorithm.group(x, thresholds: thresholds, order: order)
            for (t, labels) in zip(thresholds, swept) {
                #expect(labels == direct(t, order), "t = \(t)")
                #expect(labels == (try LeaderAlgorithm.group(x, threshold: t, order: order)), "t = \(t) alone")
            }
            #expect(Set(swept[2]).count > 2 && Set(swept[5]).count > Set(swept[2]).count)
        }
    }

    @Test func leaderByHand() throws {
        // Unit vectors at 0°, 10°, 90°, 95°, 50°: with t = 0.9 the first two and the next two
        // group; 50° is ~0.69 from both centroids and starts its own group.
        let angles: [Double] = [0, 10, 90, 95, 50]
        let x = Matrix(rows: 5, cols: 2, storage: angles.flatMap { [Float(cos($0 * .pi / 180)), Float(sin($0 * .pi / 180))] })
        #expect(try LeaderAlgorithm.group(x, threshold: 0.9) == [0, 0, 1, 1, 2])
        // t = 0.75 in corpus order: 50° is cos 45° = 0.71 from the 5° centroid and cos 42.5° = 0.74
        // from the 92.5° one, so it stays alone. Visited first, it founds a group that 90°
        // (cos 40° = 0.77) and then 95° (cos 25° from the 70° centroid) join: order matters.
        #expect(try LeaderAlgorithm.group(x, threshold: 0.75) == [0, 0, 1, 1, 2])
        #expect(try LeaderAlgorithm.group(x, threshold: 0.75, order: [4, 0, 1, 2, 3]) == [1, 1, 0, 0, 0])
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

extension GroupingTests {
    /// The default groupings are the registry's fixed ones in registry order; ceilings and references are reported with
    /// the order-free threshold groupings first, then the leader, then the references (the committed results' order).
    @Test func theDefaultsAndTheReportOrderComeFromTheRegistry() throws {
        #expect(standardGroupings.map(\.name) == ["components", "leader", "average", "kmeans-k", "average-k"])
        #expect(inReportOrder(standardGroupings).map(\.name) == ["components", "average", "leader", "kmeans-k", "average-k"])
        let chosen = try ["average-k", "leader", "hdbscan(5)", "leader"].map(grouping(named:))
        #expect(inReportOrder(chosen).map(\.name) == ["leader", "average-k"])
    }
}
