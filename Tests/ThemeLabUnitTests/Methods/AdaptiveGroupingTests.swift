import Foundation
import Testing

@testable import ThemeLabCore
@testable import ThemeLabMeasures
@testable import ThemeLabMethods
@testable import ThemeLabPairs

/// The groupings whose neighbourhood follows the corpus size: k = round(c·√N) by hand, an answer on any
/// corpus of 3 or more items, `leiden-sqrt` as `leiden` at that k, and `average-modularity`'s sweep against the
/// modularity of each cut computed directly (`modularity`, checked against igraph in CommunityTests).
@Suite struct AdaptiveGroupingTests {
    /// Unit rows: three tight bundles of 5 around orthogonal directions, and Gaussian noise around each.
    static func bundles(items perBundle: Int = 5, seed: UInt64 = 3) throws -> Matrix {
        let noise = randomMatrix(rows: 3 * perBundle, cols: 8, seed: seed)
        var x = noise
        for i in 0..<x.rows {
            for j in 0..<x.cols { x.storage[i * x.cols + j] = 0.15 * noise.storage[i * x.cols + j] + (j == i / perBundle ? 1 : 0) }
        }
        return try unitRows(x)
    }

    static func pass(_ x: Matrix, _ grouping: Grouping) -> PassProducts {
        PassPlan(needs: grouping.needs(items: x.rows).restricted(toItems: x.rows), exactHistogramPairLimit: 0).run(
            x, labels: nil, engine: PairEngine())
    }

    static let request = GroupingRequest(target: .ownCuts, order: [], seed: 0)

    @Test(arguments: [
        (0.5, 3, 2), (0.5, 12, 2), (0.5, 26, 3), (0.5, 150, 6), (0.5, 4500, 34), (1, 4, 2), (1, 9, 3), (2, 9, 6), (5, 9, 8),
        (0.25, 1_000_000, 250),
    ])
    func neighbourhoodFollowsTheCorpus(_ c: Double, _ n: Int, _ k: Int) {
        #expect(NeighbourhoodSize(scale: c).neighbours(items: n) == k)
    }

    @Test func belowThreeItemsIsANote() throws {
        let x = try unitRows(Matrix(rows: 2, cols: 2, storage: [1, 0, 0, 1]))
        for g in [LeidenSqrtGrouping(scale: 1) as Grouping, AverageModularityGrouping(scale: 1)] {
            let cut = try g.groups(Self.request, in: Self.pass(x, g))
            #expect(cut.labels == nil)
            #expect(cut.note == "\(g.name): a neighbourhood needs at least 3 items; this corpus has 2")
        }
    }

    /// Three items (where `leiden(15,2)` and `hdbscan(5)` have no answer) and the bundles: both answer, and both find
    /// the three bundles.
    @Test func answersOnTinyCorporaAndFindsBundles() throws {
        let three = try unitRows(Matrix(rows: 3, cols: 2, storage: [1, 0, 0.9, 0.1, 0, 1]))
        let x = try Self.bundles()
        let truth: [Int32] = (0..<15).map { Int32($0 / 5) }
        for g in [LeidenSqrtGrouping(scale: 1) as Grouping, AverageModularityGrouping(scale: 1)] {
            #expect(try g.groups(Self.request, in: Self.pass(three, g)).labels?.count == 3, "\(g.name)")
            let labels = try #require(try g.groups(Self.request, in: Self.pass(x, g)).labels)
            #expect(Recovery(topics: truth, groups: labels).ari == 1, "\(g.name): \(labels)")
        }
    }

    /// `leiden-sqrt(c,γ)` is `leiden(k,γ)` at k = round(c·√N): the same partition, item for item.
    @Test func leidenSqrtIsLeidenAtItsK() throws {
        let x = try unitRows(randomMatrix(rows: 60, cols: 6, seed: 9))
        let adaptive = LeidenSqrtGrouping(scale: 0.7, resolution: 1.5)
        let fixed = LeidenGrouping(neighbours: 5, resolution: 1.5)  // round(0.7·√60) = round(5.42) = 5
        #expect(adaptive.needs(items: 60) == fixed.needs(items: 60))
        let products = Self.pass(x, adaptive)
        #expect(try adaptive.groups(Self.request, in: products).labels == fixed.groups(Self.request, in: products).labels)
    }

    /// Q after every merge equals the modularity of that cut computed from scratch, at two resolutions; the cut chosen
    /// is the first of largest Q.
    @Test func sweepEqualsModularityOfEachCut() throws {
        let x = try unitRows(randomMatrix(rows: 40, cols: 5, seed: 4))
        let g = AverageModularityGrouping(scale: 0.8, resolution: 1)
        let products = Self.pass(x, g)
        let graph = try products.neighbourGraph(k: 5)
        guard case .success(let tree) = try products.dendrogram(), case .success(let sweep) = try g.sweep(products) else {
            Issue.record("no dendrogram or sweep")
            return
        }
        for gamma in [1.0, 2.5] {
            var best = (q: -Double.infinity, labels: [Int32]())
            for s in 0..<40 {
                let cut = tree.cut(groups: 40 - s)
                let q = modularity(graph, membership: cut, resolution: gamma)
                #expect(sweep.modularity(merges: s, resolution: gamma).isApproximatelyEqual(to: q, absoluteTolerance: 1e-12))
                if q > best.q + 1e-12 { best = (q, cut) }
            }
            #expect(sweep.groups(resolution: gamma) == best.labels)
        }
    }

    /// By hand: two triangles (edges of weight 1) joined by one edge of weight 0.1, merged triangle by triangle. Two
    /// groups: m = 6.1, I = 6, K = 6.1 each, Q = 6/6.1 − 2·(6.1/12.2)² = 0.4836; one group: Q = 1 − 1 = 0; the triangles
    /// apart from their last item score lower, so the cut chosen is the two triangles.
    @Test func twoTrianglesByHand() {
        let edges: [(i: Int32, j: Int32, w: Double)] = [(0, 1, 1), (0, 2, 1), (1, 2, 1), (3, 4, 1), (3, 5, 1), (4, 5, 1), (2, 3, 0.1)]
        let graph = WeightedGraph(nodes: 6, edges: edges)
        let merges = [(0, 1, 0.9), (3, 4, 0.9), (0, 2, 0.8), (3, 5, 0.8), (0, 3, 0.1)].map {
            AverageLinkage.Merge(a: $0.0, b: $0.1, similarity: Float($0.2))
        }
        let sweep = ModularitySweep(tree: Dendrogram(items: 6, merges: merges), graph: graph)
        #expect(sweep.modularity(merges: 4, resolution: 1).isApproximatelyEqual(to: 6 / 6.1 - 0.5, absoluteTolerance: 1e-12))
        #expect(sweep.modularity(merges: 5, resolution: 1).isApproximatelyEqual(to: 0, absoluteTolerance: 1e-12))
        #expect(sweep.groups(resolution: 1) == [0, 0, 0, 1, 1, 1])
    }

    @Test(arguments: [
        ("leiden-sqrt", "leiden-sqrt: give the scale c of k = c·√N, leiden-sqrt(c)"),
        ("leiden-sqrt(0)", "leiden-sqrt(0): the scale c must be a number from 0.01 to 100, got 0"),
        ("leiden-sqrt(1,0)", "leiden-sqrt(1,0): the resolution γ must be above 0 and at most 1000, got 0"),
        ("average-modularity(1e9)", "average-modularity(1000000000): the scale c must be a number from 0.01 to 100, got 1000000000"),
        ("average-modularity(1,2,3)", "average-modularity(1,2,3): takes at most 2 arguments"),
    ])
    func badParametersAreNamed(_ text: String, _ message: String) {
        #expect(errorMessage { _ = try grouping(named: text) } == message)
    }

    @Test func namesRoundTrip() throws {
        for text in ["leiden-sqrt(0.5)", "leiden-sqrt(0.5,1)", "average-modularity(1)", "average-modularity(0.5,2)"] {
            #expect(try grouping(named: text).name == text)
        }
    }
}
