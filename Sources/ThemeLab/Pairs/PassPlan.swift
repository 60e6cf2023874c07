import Foundation

/// What a threshold rule or a grouping asks the pairwise pass to gather besides the distribution.
public struct PassNeeds: Sendable, Equatable {
    /// The maximum spanning forest (single-linkage groups at any threshold).
    public var spanningForest = false
    /// The condensed similarity matrix that average linkage merges (N ≤ `AverageLinkage.maxItems`).
    public var averageLinkage = false
    /// Nearest-neighbour similarities per item, the most any reader takes (0: none).
    public var neighbours = 0

    public init(spanningForest: Bool = false, averageLinkage: Bool = false, neighbours: Int = 0) {
        self.spanningForest = spanningForest
        self.averageLinkage = averageLinkage
        self.neighbours = neighbours
    }

    /// What is gathered on `items` items: no neighbour lists when k is not below N, since every reader of them then
    /// gives a note instead of an answer (and k up to 10⁶ lists per item would fill the memory for nothing).
    public func on(items: Int) -> PassNeeds {
        PassNeeds(spanningForest: spanningForest, averageLinkage: averageLinkage, neighbours: neighbours < items ? neighbours : 0)
    }

    /// Everything either asks for.
    public func union(_ other: PassNeeds) -> PassNeeds {
        PassNeeds(
            spanningForest: spanningForest || other.spanningForest, averageLinkage: averageLinkage || other.averageLinkage,
            neighbours: max(neighbours, other.neighbours))
    }
}

/// What one space's pass gathered, for the rules and groupings to read.
public struct PassProducts {
    /// The space's unit vectors.
    public let vectors: Matrix
    public let distribution: PairDistribution
    public let forest: SpanningForest?
    public let dendrogram: Dendrogram?
    /// Why there is no dendrogram when one was asked for.
    public let dendrogramNote: String?
    public let neighbours: NearestNeighbours?
    /// numpy's 256-bin all-pairs histogram counted exactly in a second pass (when the first kept
    /// no values and the corpus is within the pair limit).
    public let exactCoarse: CoarseHistogram?
    /// For groupings that need a pass of their own (HDBSCAN's tree).
    public let engine: PairEngine
    /// What groupings derive from the pass and share (one HDBSCAN tree per k, one graph per k).
    public let memo = PassMemo()
}

/// Values derived from one pass, each made once on first use.
public final class PassMemo: @unchecked Sendable {
    private let lock = NSLock()
    private var values: [String: Any] = [:]

    public func value<T>(_ key: String, make: () throws -> T) rethrows -> T {
        if let v = lock.withLock({ values[key] }) as? T { return v }
        let v = try make()
        lock.withLock { values[key] = v }
        return v
    }
}

/// The pass planner: from what the rules and groupings need, the consumers of one pass over a
/// space's vectors, and whether a second pass counts numpy's 256-bin histogram exactly for Otsu and
/// Kittler–Illingworth (large corpora skip it; the fine histogram then places it).
public struct PassPlan {
    public var needs: PassNeeds
    /// Above this many pairs the second pass is skipped.
    public var exactHistogramPairLimit: Int

    public init(needs: PassNeeds, exactHistogramPairLimit: Int) {
        self.needs = needs
        self.exactHistogramPairLimit = exactHistogramPairLimit
    }

    public func run(_ x: Matrix, labels: [Int32]?, engine: PairEngine) -> PassProducts {
        let forest = needs.spanningForest ? SpanningForest(items: x.rows) : nil
        var linkage: AverageLinkage?
        var linkageNote: String?
        if needs.averageLinkage {
            do { linkage = try AverageLinkage(items: x.rows) } catch { linkageNote = "\(error)" }
        }
        let neighbours = needs.neighbours > 0 ? NearestNeighbours(items: x.rows, k: needs.neighbours) : nil
        let consumers = [forest as PairConsumer?, linkage, neighbours].compactMap { $0 }
        let distribution = engine.run(x, labels: labels, consumers: consumers)
        var exactCoarse: CoarseHistogram?
        if distribution.sortedValues(.all) == nil, distribution.all.count > 0, distribution.all.count <= exactHistogramPairLimit {
            let counting = CoarseHistogramPass(minimum: Double(distribution.all.min), maximum: Double(distribution.all.max), bins: 256)
            _ = engine.run(x, labels: labels, consumers: [counting])
            exactCoarse = counting.histogram
        }
        return PassProducts(
            vectors: x, distribution: distribution, forest: forest, dendrogram: linkage?.dendrogram(), dendrogramNote: linkageNote,
            neighbours: neighbours, exactCoarse: exactCoarse, engine: engine)
    }
}
