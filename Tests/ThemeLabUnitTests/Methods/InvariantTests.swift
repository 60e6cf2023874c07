import Foundation
import Testing

@testable import ThemeLabCore
@testable import ThemeLabMethods
@testable import ThemeLabPairs

/// The invariants of the spanning forest, the average-linkage dendrogram and HDBSCAN's condensed tree
/// (in the spirit of swift-collections' `_checkInvariants()`): kept on random inputs, and found broken
/// in hand-corrupted values.
@Suite struct InvariantTests {
    typealias Edge = SpanningForest.Edge

    /// `n` random unit rows in 8 dimensions, `distinct` of them repeated (duplicates tie pairs and round the
    /// dendrogram's averages), through small tiles and a forest that folds every 8 candidates.
    @Test(arguments: [(2, 2), (3, 3), (17, 17), (150, 150), (500, 3)])
    func structuresBuiltFromRandomInputsKeepThem(_ n: Int, distinct: Int) throws {
        let x = try unitRows(randomMatrix(rows: distinct, cols: 8, seed: UInt64(n)).rows((0..<n).map { $0 % distinct }))
        let engine = PairEngine(tileSize: 16)
        let folding = SpanningForest(items: n, capacity: 8)
        _ = engine.run(x, consumers: [folding])
        folding.checkInvariants()
        #expect(SpanningForest.invariantViolations(items: n, edges: folding.edges) == [])
        let needs = PassNeeds(averageLinkage: true, neighbours: 4, reachabilityTrees: [1, 3, 5])
        let pass = PassPlan(needs: needs.restricted(toItems: n), exactHistogramPairLimit: 0).run(x, labels: nil, engine: engine)
        let dendrogram = try pass.dendrogram().get()
        dendrogram.checkInvariants()
        #expect(dendrogram.invariantViolations() == [])
        for k in pass.gathered.reachabilityTrees {
            let tree = try pass.reachabilityTree(k: k)
            #expect(SpanningForest.invariantViolations(items: n, edges: tree) == [])
            for m in [2, 5] {
                let condensed = HDBSCAN.condense(items: n, tree: tree, minClusterSize: m)
                condensed.checkInvariants()
                #expect(condensed.invariantViolations() == [])
            }
        }
    }

    @Test func aCorruptedForestIsFound() {
        func broken(_ edges: [(Int32, Int32, Float)]) -> [String] {
            SpanningForest.invariantViolations(items: 3, edges: edges.map { Edge(i: $0.0, j: $0.1, w: $0.2) })
        }
        #expect(broken([(0, 1, 0.9), (1, 2, 0.8)]) == [])
        #expect(broken([(0, 1, 0.8), (1, 2, 0.9)]) == ["edge 1 is out of order (heaviest first, ties by i, j)"])
        #expect(broken([(1, 2, 0.9), (0, 1, 0.9)]) == ["edge 1 is out of order (heaviest first, ties by i, j)"])
        #expect(broken([(1, 0, 0.9)]) == ["edge 0 (1, 0) is not i < j within 0..<3"])
        #expect(broken([(0, 3, 0.9)]) == ["edge 0 (0, 3) is not i < j within 0..<3"])
        #expect(broken([(0, 1, 0.9), (1, 2, 0.8), (0, 2, 0.7)]) == ["3 edges on 3 items", "edge 2 (0, 2) closes a cycle"])
    }

    @Test func aCorruptedDendrogramIsFound() {
        func broken(_ merges: [(Int, Int, Float)]) -> [String] {
            Dendrogram(items: 3, merges: merges.map { AverageLinkage.Merge(a: $0.0, b: $0.1, similarity: $0.2) }).invariantViolations()
        }
        #expect(broken([(0, 1, 0.9), (0, 2, 0.5)]) == [])
        #expect(broken([(0, 1, 0.5), (0, 2, 0.9)]) == ["merge 1 at 0.9 is above a merge that made its groups"])
        #expect(
            broken([(0, 1, 0.9), (1, 2, 0.5)]) == [
                "merge 1 (1, 2) is not of two live groups a < b within 0..<3", "no group holds all 3 items",
            ])
        #expect(broken([(1, 0, 0.9), (0, 2, 0.5)]).first == "merge 0 (1, 0) is not of two live groups a < b within 0..<3")
        #expect(broken([(0, 1, 0.9)]) == ["1 merges on 3 items", "no group holds all 3 items"])
    }

    @Test func aCorruptedCondensedTreeIsFound() {
        // The root splits at λ = 2 into clusters 1 (items 0, 1) and 2 (items 2, 3).
        let tree = HDBSCAN.CondensedTree(
            parent: [-1, 0, 0], birth: [0, 2, 2], children: [[1, 2], [], []], stability: [4, 1, 1], itemCluster: [1, 1, 2, 2])
        #expect(tree.invariantViolations() == [])
        func broken(_ corrupt: (inout HDBSCAN.CondensedTree) -> Void) -> [String] {
            var t = tree
            corrupt(&t)
            return t.invariantViolations()
        }
        #expect(broken { $0.parent[0] = 0 } == ["the root's parent is 0, not −1"])
        #expect(
            broken { $0.parent[2] = 2 } == [
                "cluster 2 has parent 2, not one numbered before it", "the children lists are not the parent links",
                "cluster 0 does not split in two",
            ])
        #expect(broken { $0.birth[0] = 3 } == [1, 2].map { "cluster \($0) is born at λ 2.0 below its parent's 3.0" })
        #expect(broken { $0.children[0] = [2, 1] } == ["the children lists are not the parent links"])
        #expect(
            broken {
                $0.parent.append(1)
                $0.birth.append(3)
                $0.children.append([])
                $0.children[1].append(3)
                $0.stability.append(0)
            } == ["cluster 1 does not split in two"])
        #expect(broken { $0.stability[2] = -1 } == ["cluster 2 has negative stability -1.0"])
        #expect(broken { $0.itemCluster[3] = 3 } == ["item 3 is in cluster 3, not one of 0..<3"])
        #expect(broken { $0.birth.removeLast() } == ["3 parents, 2 births, 3 children lists, 3 stabilities"])
    }
}
