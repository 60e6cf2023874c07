import Foundation
import Testing

@testable import ThemeLabCore
@testable import ThemeLabCorpus
@testable import ThemeLabMeasures
@testable import ThemeLabMethods
@testable import ThemeLabPairs

/// HDBSCAN against scikit-learn (Fixtures/sklearn-hdbscan.json) and Leiden against leidenalg and
/// igraph (Fixtures/leiden.json), both made by scripts/fixtures/make_community_fixtures.py; plus
/// hand-worked trees and the bad-parameter errors.
@Suite struct CommunityTests {
    struct HDBSCANCase: Decodable {
        var name: String
        var m: Int
        var k: Int
        var vectors: [[Float]]
        var eom: [Int32]
        var leaf: [Int32]
    }
    struct HDBSCANFile: Decodable { var cases: [HDBSCANCase] }

    struct Partition: Decodable {
        var resolution: Double
        var membership: [Int32]
        var modularity: Double
    }
    struct Graph: Decodable {
        var name: String
        var nodes: Int
        var edges: [[Double]]
        var truth: [Int32]?
        var k: Int?
        var vectors: [[Float]]?
        var leiden: [Partition]
        var given: [Partition]

        var graph: WeightedGraph {
            WeightedGraph(nodes: nodes, edges: edges.map { (Int32($0[0]), Int32($0[1]), $0[2]) })
        }
    }
    struct LeidenFile: Decodable { var graphs: [Graph] }

    static func matrix(_ rows: [[Float]]) -> Matrix { Matrix(rows: rows.count, cols: rows[0].count, storage: rows.flatMap { $0 }) }

    static func pass(_ x: Matrix, neighbours: Int) -> PassProducts {
        // Every HDBSCAN k these neighbours serve (k − 1 lists) and Leiden's graph at k.
        let needs = PassNeeds(neighbours: neighbours, reachabilityTrees: Set(1...neighbours + 1), neighbourGraphs: [neighbours])
            .restricted(toItems: x.rows)
        return PassPlan(needs: needs, exactHistogramPairLimit: 0).run(x, labels: nil, engine: PairEngine())
    }

    static func request(seed: UInt64 = 0, items: Int) -> GroupingRequest {
        GroupingRequest(target: .ownCuts, order: Array(0..<items), seed: seed)
    }

    /// Noise stays −1, clusters numbered by first appearance (as the fixture's are).
    static func canonical(_ labels: [Int32]) -> [Int32] {
        var number: [Int32: Int32] = [:]
        return labels.map { l in
            l < 0
                ? -1
                : number[l]
                    ?? {
                        number[l] = Int32(number.count)
                        return number[l]!
                    }()
        }
    }

    @Test(arguments: try! decodeFixture(HDBSCANFile.self, "sklearn-hdbscan.json").cases)
    func hdbscanEqualsScikitLearn(_ c: HDBSCANCase) throws {
        let x = Self.matrix(c.vectors)
        let products = Self.pass(x, neighbours: c.k - 1)
        for (selection, expected) in [(HDBSCAN.Selection.excessOfMass, c.eom), (.leaf, c.leaf)] {
            let grouping = HDBSCANGrouping(minClusterSize: c.m, neighbours: c.k, selection: selection)
            let labels = try #require(try grouping.groups(Self.request(items: x.rows), in: products).labels)
            let differ = zip(Self.canonical(labels), expected).enumerated().filter { $0.1.0 != $0.1.1 }.map {
                "\($0.0): \($0.1.0) vs \($0.1.1)"
            }
            #expect(differ.isEmpty, "\(c.name), \(selection.rawValue): items (ours vs scikit-learn's) \(differ)")
        }
    }

    /// Hand-worked: two pairs far apart (distances 0.1 inside, 0.9 across), m = 2, k = 1 (no core
    /// distance). The root splits at λ = 1/0.9 into two clusters, each born there and dissolving at
    /// λ = 10: stability 2·(10 − 1/0.9) each, 0 for the root, which is never selected.
    @Test func condensedTreeByHand() {
        let tree: [SpanningForest.Edge] = [.init(i: 0, j: 1, w: 0.9), .init(i: 2, j: 3, w: 0.9), .init(i: 1, j: 2, w: 0.1)]
        let condensed = HDBSCAN.condense(items: 4, tree: tree, minClusterSize: 2)
        #expect(condensed.parent == [-1, 0, 0])
        let (born, dissolved) = (1 / (1 - Double(Float(0.1))), 1 / (1 - Double(Float(0.9))))
        #expect(condensed.stability[1].isApproximatelyEqual(to: 2 * (dissolved - born), absoluteTolerance: 1e-9))
        #expect(condensed.stability[0].isApproximatelyEqual(to: 4 * born, absoluteTolerance: 1e-9))
        #expect(HDBSCAN.labels(condensed, selection: .excessOfMass) == [0, 0, 1, 1])
        #expect(HDBSCAN.labels(condensed, selection: .leaf) == [0, 0, 1, 1])
        // m = 3: neither side is big enough, so nothing splits off the root: all noise.
        #expect(HDBSCAN.labels(HDBSCAN.condense(items: 4, tree: tree, minClusterSize: 3), selection: .excessOfMass) == [-1, -1, -1, -1])
    }

    @Test(arguments: try! decodeFixture(LeidenFile.self, "leiden.json").graphs)
    func modularityEqualsIgraph(_ g: Graph) {
        let graph = g.graph
        for p in g.given + g.leiden {
            #expect(
                (modularity(graph, membership: p.membership, resolution: p.resolution)).isApproximatelyEqual(
                    to: p.modularity, absoluteTolerance: 1e-9))
        }
    }

    /// Within 1% of leidenalg's modularity (the best of its five seeds) at every resolution, and ARI ≥ 0.95
    /// with its partition at γ = 1. Away from γ = 1 near-equal optima differ: on planted-uneven, ARI 0.92 at
    /// γ = 0.5 (modularity 0.2% below leidenalg's) and 0.64 at γ = 2 (0.5% above it).
    @Test(arguments: try! decodeFixture(LeidenFile.self, "leiden.json").graphs)
    func leidenMatchesLeidenalg(_ g: Graph) {
        let graph = g.graph
        for p in g.leiden {
            let mine = Leiden(resolution: p.resolution, seed: 1).communities(graph)
            let q = modularity(graph, membership: mine, resolution: p.resolution)
            #expect(q >= p.modularity - 0.01 * abs(p.modularity), "\(g.name) γ = \(p.resolution): \(q) vs \(p.modularity)")
            let ari = Recovery(topics: p.membership, groups: mine).ari
            #expect(p.resolution != 1 || ari >= 0.95, "\(g.name) γ = \(p.resolution): ARI \(ari), modularity \(q) vs \(p.modularity)")
        }
    }

    /// The k-NN graph built from the pass's neighbour lists is the fixture's (same edges, weights to float precision).
    @Test func nearestNeighbourGraphEqualsTheFixture() throws {
        let g = try #require(try decodeFixture(LeidenFile.self, "leiden.json").graphs.first { $0.vectors != nil })
        let k = try #require(g.k)
        let x = Self.matrix(try #require(g.vectors))
        let graph = WeightedGraph.nearestNeighbours(try Self.pass(x, neighbours: k).nearestNeighbours(), k: k)
        var mine: [[Double]] = []
        for v in 0..<graph.nodeCount {
            for e in graph.start[v]..<graph.start[v + 1] where Int(graph.target[e]) > v {
                mine.append([Double(v), Double(graph.target[e]), graph.weight[e]])
            }
        }
        #expect(mine.count == g.edges.count)
        for (a, b) in zip(mine, g.edges) {
            #expect(a[0] == b[0] && a[1] == b[1])
            #expect((a[2]).isApproximatelyEqual(to: b[2], absoluteTolerance: 1e-6))
        }
    }

    @Test func sameSeedSamePartition() throws {
        let g = try decodeFixture(LeidenFile.self, "leiden.json").graphs[1].graph
        #expect(Leiden(resolution: 1, seed: 7).communities(g) == Leiden(resolution: 1, seed: 7).communities(g))
    }

    /// Every Leiden reader of one space shares its partitions: `leiden-sqrt(0.75,1.5)`'s cut and ceiling and
    /// `leiden-silhouette` ask for the same graph, seed and 13 resolutions, computed once; each is Leiden's own.
    @Test func leidenReadersOfASpaceShareTheirPartitions() throws {
        let g = try #require(try decodeFixture(LeidenFile.self, "leiden.json").graphs.first { $0.vectors != nil })
        let x = Self.matrix(try #require(g.vectors))
        let readers: [any Grouping] = [try grouping(named: "leiden-sqrt(0.75,1.5)"), try grouping(named: "leiden-silhouette")]
        let needs = readers.map { $0.needs(items: x.rows) }.reduce(PassNeeds()) { $0.union($1) }.restricted(toItems: x.rows)
        let pass = PassPlan(needs: needs, exactHistogramPairLimit: 0).run(x, labels: nil, engine: PairEngine())
        let k = try #require(needs.neighbourGraphs.first)
        let request = Self.request(seed: 3, items: x.rows)
        let cut = try readers[0].groups(request, in: pass).labels
        #expect(pass.graphPartitions.count == 1)
        _ = try readers[0].ceiling(in: pass, topics: g.leiden[0].membership, request: request)
        _ = try readers[1].groups(request, in: pass)
        #expect(pass.graphPartitions.count == LeidenGrouping.resolutionGrid(1.5).count)
        #expect(cut == Leiden(resolution: 1.5, seed: 3).communities(try pass.neighbourGraph(k: k)))
        #expect(try pass.leiden(k: k, resolution: 8, seed: 3) == Leiden(resolution: 8, seed: 3).communities(try pass.neighbourGraph(k: k)))
        _ = try pass.leiden(k: k, resolution: 8, seed: 4)
        #expect(pass.graphPartitions.count == LeidenGrouping.resolutionGrid(1.5).count + 1)
    }

    @Test(arguments: [
        ("hdbscan(1)", "hdbscan(1): the minimum cluster size m must be a whole number from 2 to 1000000, got 1"),
        ("hdbscan", "hdbscan: give the minimum cluster size m, hdbscan(m)"),
        ("hdbscan(5,0)", "hdbscan(5,0): k must be a whole number from 1 to 1000000, got 0"),
        ("hdbscan(2.5)", "hdbscan(2.5): the minimum cluster size m must be a whole number from 2 to 1000000, got 2.5"),
        ("hdbscan(5,5,5)", "hdbscan(5,5,5): takes at most 2 arguments"),
        ("leiden(10,0)", "leiden(10,0): the resolution γ must be above 0, got 0"),
        ("leiden(10,-1)", "leiden(10,-1): the resolution γ must be above 0, got -1"),
        ("leiden", "leiden: give the number of neighbours, leiden(k)"),
        ("leiden(10,nan)", "'leiden(10,nan)': every argument must be a finite number"),
        ("leiden(10,inf)", "'leiden(10,inf)': every argument must be a finite number"),
        ("otsu(3,4)", "otsu(3,4): takes at most 1 argument"),
    ])
    func badParametersAreNamed(_ text: String, _ message: String) {
        let error =
            text.hasPrefix("otsu") ? errorMessage { _ = try thresholdRule(named: text) } : errorMessage { _ = try grouping(named: text) }
        #expect(error?.hasSuffix(message) == true, "\(error ?? "no error")")
    }

    /// k ≥ N is a note on the row naming the grouping, as for the neighbour rules.
    @Test func tooFewItemsForKIsANote() throws {
        let x = Self.matrix([[1, 0], [0, 1], [0.6, 0.8]])
        let products = Self.pass(x, neighbours: 2)
        for g in [HDBSCANGrouping(minClusterSize: 3) as Grouping, LeidenGrouping(neighbours: 3)] {
            let cut = try g.groups(Self.request(items: 3), in: products)
            #expect(cut.labels == nil)
            #expect(cut.note == "\(g.name): k = 3 neighbours needs more than 3 items; this corpus has 3")
        }
    }

    /// k far above N gathers no neighbour lists at all (it once filled 11.6 GB on 1 000 items), and a grouping with k
    /// below N beside it still gets its lists.
    @Test func aHugeKGathersNothingAndLeavesSmallerKAlone() {
        let huge: [Grouping] = [LeidenGrouping(neighbours: 1_000_000), HDBSCANGrouping(minClusterSize: 1_000_000)]
        let needs = huge.map { $0.needs(items: 1000).restricted(toItems: 1000) }
        #expect(needs.allSatisfy { $0.neighbours == 0 })
        #expect(LeidenGrouping(neighbours: 5).needs(items: 1000).restricted(toItems: 1000).union(needs[0]).neighbours == 5)
    }
}

extension CommunityTests.HDBSCANCase: CustomTestStringConvertible {
    var testDescription: String { name }
}

extension CommunityTests.Graph: CustomTestStringConvertible {
    var testDescription: String { name }
}
