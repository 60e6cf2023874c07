import Foundation
import ThemeLabCore

/// What a threshold rule or a grouping asks the pairwise pass to gather besides the distribution.
package struct PassNeeds: Sendable, Equatable {
    /// The maximum spanning forest (single-linkage groups at any threshold).
    package var spanningForest = false
    /// The condensed similarity matrix that average linkage merges (N ≤ `AverageLinkage.maxItems`).
    package var averageLinkage = false
    /// Nearest-neighbour similarities per item, the most any reader takes (0: none).
    package var neighbours = 0
    /// HDBSCAN's maximum spanning trees of mutual-reachability similarities, one per k (`min_samples`): a pass of
    /// their own once the first pass's neighbours give the core distances.
    package var reachabilityTrees: Set<Int> = []
    /// Leiden's symmetrised k-nearest-neighbour graphs, one per k, built from the neighbour lists.
    package var neighbourGraphs: Set<Int> = []

    package init(
        spanningForest: Bool = false, averageLinkage: Bool = false, neighbours: Int = 0, reachabilityTrees: Set<Int> = [],
        neighbourGraphs: Set<Int> = []
    ) {
        self.spanningForest = spanningForest
        self.averageLinkage = averageLinkage
        self.neighbours = neighbours
        self.reachabilityTrees = reachabilityTrees
        self.neighbourGraphs = neighbourGraphs
    }

    /// What is gathered on `items` items: nothing that reads k neighbours when k is not below N, since every reader
    /// of it then gives a note instead of an answer (and k up to 10⁶ lists per item would fill the memory for nothing).
    package func restricted(toItems items: Int) -> PassNeeds {
        PassNeeds(
            spanningForest: spanningForest, averageLinkage: averageLinkage, neighbours: neighbours < items ? neighbours : 0,
            reachabilityTrees: reachabilityTrees.filter { $0 < items }, neighbourGraphs: neighbourGraphs.filter { $0 < items })
    }

    /// The memory what is gathered for these needs holds at its peak on `items` items, beyond the pass itself, and what
    /// it is: the neighbour lists (k similarities and item numbers per item, per worker and in the merge), Leiden's
    /// graphs (up to 2k edges per item), average linkage's condensed matrix (N ≤ `AverageLinkage.maxItems`). Nil when
    /// nothing is.
    package func memory(items n: Int) -> (bytes: Double, what: String)? {
        let needs = restricted(toItems: n)
        let size = Double(n)
        var parts: [(Double, String)] = []
        if needs.neighbours > 0 {
            parts.append((24 * Double(needs.neighbours) * size, "\(needs.neighbours) neighbours of each of \(n) items"))
        }
        for k in needs.neighbourGraphs.sorted() { parts.append((24 * Double(k) * size, "the \(k)-nearest-neighbour graph")) }
        if needs.averageLinkage, n <= AverageLinkage.maxItems {
            parts.append((2 * size * (size - 1), "the \(n)-item average-linkage matrix"))
        }
        guard !parts.isEmpty else { return nil }
        return (parts.map(\.0).reduce(0, +), parts.map(\.1).joined(separator: " and "))
    }

    /// Everything either asks for.
    package func union(_ other: PassNeeds) -> PassNeeds {
        PassNeeds(
            spanningForest: spanningForest || other.spanningForest, averageLinkage: averageLinkage || other.averageLinkage,
            neighbours: max(neighbours, other.neighbours), reachabilityTrees: reachabilityTrees.union(other.reachabilityTrees),
            neighbourGraphs: neighbourGraphs.union(other.neighbourGraphs))
    }
}

/// A rule or grouping read what its `needs` did not ask for: a defect of that grouping, named.
package struct PlanMismatch: Error, CustomStringConvertible {
    package var description: String
    package init(_ description: String) { self.description = "internal error: \(description)" }
}

/// What one space's passes gathered, for the rules and groupings to read. Each product is reached through an
/// accessor that throws `PlanMismatch` when the plan did not gather it (its reader did not declare it in `needs`).
package struct PassProducts {
    /// The space's unit vectors.
    package let vectors: Matrix
    package let distribution: PairDistribution
    /// numpy's 256-bin all-pairs histogram counted exactly in a second pass (when the first kept
    /// no values and the corpus is within the pair limit).
    package let exactCoarse: CoarseHistogram?
    /// What the plan gathered.
    package let gathered: PassNeeds
    package let forest: SpanningForest?
    package let dendrogramResult: Result<Dendrogram, any Error>?
    package let neighbourLists: NearestNeighbours?
    package let reachabilityTrees: [Int: [SpanningForest.Edge]]
    package let neighbourGraphs: [Int: WeightedGraph]
    /// Partitions of the neighbour graphs that readers computed (Leiden's, in ThemeLabMethods), kept for the others.
    package let graphPartitions = PartitionMemo<GraphPartitionKey>()
    /// Other values readers computed from the vectors (the spectral estimate of k), kept for the others (and for other
    /// passes over the same vectors that share the memo).
    package let readings: ValueMemo

    package func spanningForest() throws -> SpanningForest {
        guard let forest else { throw PlanMismatch("the spanning forest was read but not planned") }
        return forest
    }

    /// The average-linkage dendrogram, or the reason there is none on this corpus (too many items).
    package func dendrogram() throws -> Result<Dendrogram, any Error> {
        guard let dendrogramResult else { throw PlanMismatch("the average-linkage dendrogram was read but not planned") }
        return dendrogramResult
    }

    package func nearestNeighbours() throws -> NearestNeighbours {
        guard let neighbourLists else { throw PlanMismatch("the nearest-neighbour lists were read but not planned") }
        return neighbourLists
    }

    /// HDBSCAN's mutual-reachability spanning tree at `k`, heaviest edge first.
    package func reachabilityTree(k: Int) throws -> [SpanningForest.Edge] {
        guard let tree = reachabilityTrees[k] else { throw PlanMismatch("the reachability tree at k = \(k) was read but not planned") }
        return tree
    }

    /// Leiden's k-nearest-neighbour graph at `k`.
    package func neighbourGraph(k: Int) throws -> WeightedGraph {
        guard let graph = neighbourGraphs[k] else { throw PlanMismatch("the \(k)-nearest-neighbour graph was read but not planned") }
        return graph
    }
}

/// A partition of the k-nearest-neighbour graph by a seeded method at a resolution.
package struct GraphPartitionKey: Hashable, Sendable {
    package var k: Int
    package var resolution: Double
    package var seed: UInt64

    package init(k: Int, resolution: Double, seed: UInt64) {
        (self.k, self.resolution, self.seed) = (k, resolution, seed)
    }
}

/// The pass planner: from what the rules and groupings need, the consumers of one pass over a
/// space's vectors; whether a second pass counts numpy's 256-bin histogram exactly for Otsu and
/// Kittler–Illingworth (large corpora skip it; the fine histogram then places it); and HDBSCAN's
/// reachability trees, in one more pass once the first pass's neighbours give the core distances.
package struct PassPlan {
    package var needs: PassNeeds
    /// Above this many pairs the second pass is skipped.
    package var exactHistogramPairLimit: Int

    package init(needs: PassNeeds, exactHistogramPairLimit: Int) {
        self.needs = needs
        self.exactHistogramPairLimit = exactHistogramPairLimit
    }

    /// Runs the pass (and the second and HDBSCAN passes when the needs ask for them) over one space's vectors.
    /// - Parameters:
    ///   - x: unit vectors, one row per item.
    ///   - labels: each item's topic (0 ..< topics), or nil for an unlabelled corpus (no related/unrelated split).
    ///   - engine: the tiling and histogram resolution the pass runs with.
    ///   - readings: where readers keep values computed from `x`: a new memo, or one of another pass over the same `x`.
    /// - Returns: the distribution and everything the needs asked the pass to gather, for the rules and groupings.
    package func run(_ x: Matrix, labels: [Int32]?, engine: PairEngine, readings: ValueMemo = ValueMemo()) -> PassProducts {
        let forest = needs.spanningForest ? SpanningForest(items: x.rows) : nil
        let linkage = needs.averageLinkage ? Result { try AverageLinkage(items: x.rows) } : nil
        let neighbours = needs.neighbours > 0 ? NearestNeighbours(items: x.rows, k: needs.neighbours) : nil
        var consumers = [forest as PairConsumer?, neighbours].compactMap { $0 }
        if case .success(let l) = linkage { consumers.insert(l, at: forest == nil ? 0 : 1) }
        let distribution = engine.run(x, labels: labels, consumers: consumers)
        var exactCoarse: CoarseHistogram?
        if distribution.sortedValues(.all) == nil, distribution.all.count > 0, distribution.all.count <= exactHistogramPairLimit {
            let counting = CoarseHistogramPass(minimum: Double(distribution.all.min), maximum: Double(distribution.all.max), bins: 256)
            _ = engine.run(x, labels: labels, consumers: [counting])
            exactCoarse = counting.histogram
        }
        return PassProducts(
            vectors: x, distribution: distribution, exactCoarse: exactCoarse, gathered: needs, forest: forest,
            dendrogramResult: linkage?.map { $0.dendrogram() }, neighbourLists: neighbours,
            reachabilityTrees: reachabilityTrees(x, neighbours, engine: engine),
            neighbourGraphs: neighbours.map { lists in
                Dictionary(uniqueKeysWithValues: needs.neighbourGraphs.map { ($0, WeightedGraph.nearestNeighbours(lists, k: $0)) })
            } ?? [:], readings: readings)
    }

    /// One tree per k, all fed by one pass without labels (each tree reads the tiles alone).
    package func reachabilityTrees(_ x: Matrix, _ neighbours: NearestNeighbours?, engine: PairEngine) -> [Int: [SpanningForest.Edge]] {
        guard !needs.reachabilityTrees.isEmpty else { return [:] }
        let ks = needs.reachabilityTrees.sorted()
        let forests = ks.map { k in
            let cores = neighbours.map { $0.coreSimilarities(k: k) } ?? [Float](repeating: .infinity, count: x.rows)
            return SpanningForest(items: x.rows, cores: cores)
        }
        engine.feed(x, consumers: forests)
        return Dictionary(uniqueKeysWithValues: zip(ks, forests.map(\.edges)))
    }
}
