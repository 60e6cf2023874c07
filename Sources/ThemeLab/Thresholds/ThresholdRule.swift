/// A rule that picks a similarity threshold from the pair distribution; pairs with similarity
/// ≥ the threshold are taken as related. Adding a rule is one file: a type conforming to this
/// protocol, plus a line in `thresholdRule(named:)`.
public protocol ThresholdRule: Sendable {
    /// The name used on the command line, in experiment files and in reports.
    var name: String { get }
    /// True when the rule looks at the labels (an upper bound, never a method).
    var isLabelInformed: Bool { get }
    /// The threshold, or nil when the rule has no answer for this distribution.
    func threshold(in context: ThresholdContext) -> Double?
    /// Why `threshold` is nil, for reports.
    func whyNoThreshold(in context: ThresholdContext) -> String
    /// How many nearest-neighbour similarities per item the rule reads (0: none).
    var neighbours: Int { get }
    /// True when the rule reads the average-linkage dendrogram and the vectors.
    var needsDendrogram: Bool { get }
    /// True when the value is an observed similarity or merge height, or interpolates between two:
    /// the analysis then places it mid-gap (`ThresholdPlacement`).
    var isDataDerived: Bool { get }
}

extension ThresholdRule {
    public var isLabelInformed: Bool { false }
    public var neighbours: Int { 0 }
    public var needsDendrogram: Bool { false }
    public var isDataDerived: Bool { false }
    public func whyNoThreshold(in context: ThresholdContext) -> String { "\(name) gives no threshold for this distribution" }
}

/// What a rule may look at: the pass's distribution and the space's dimension.
public struct ThresholdContext: Sendable {
    public let distribution: PairDistribution
    public let dimensions: Int
    /// The all-pairs histogram counted from the values in a pass of its own, when the first
    /// pass did not keep them (see `CoarseHistogramPass`).
    public let exactCoarse: CoarseHistogram?
    /// Each item's nearest-neighbour similarities, when a rule asked for them.
    public let neighbours: NearestNeighbours?
    /// The space's unit vectors and their average-linkage dendrogram, when a rule asked for them.
    public let vectors: Matrix?
    public let dendrogram: Dendrogram?

    public init(distribution: PairDistribution, dimensions: Int, exactCoarse: CoarseHistogram? = nil, neighbours: NearestNeighbours? = nil,
                vectors: Matrix? = nil, dendrogram: Dendrogram? = nil) {
        self.distribution = distribution
        self.dimensions = dimensions
        self.exactCoarse = exactCoarse
        self.neighbours = neighbours
        self.vectors = vectors
        self.dendrogram = dendrogram
    }

    /// The all-pairs histogram over the observed [min, max] with `bins` equal bins, as
    /// `numpy.histogram(values, bins)` builds it (float64 edges by linspace, last bin closed).
    /// Exact when the pass kept the values or a counted histogram of that size is given;
    /// otherwise each fine-histogram bin is placed at its centre, so a value may land one coarse
    /// bin off when it lies within 2/65 536 of an edge.
    public func coarseHistogram(bins: Int) -> CoarseHistogram? {
        let all = distribution.all
        guard all.count > 0 else { return nil }
        if let exact = exactCoarse, exact.counts.count == bins { return exact }
        if let values = distribution.sortedValues(.all) { return CoarseHistogram(values: values, bins: bins) }
        var h = CoarseHistogram(minimum: Double(all.min), maximum: Double(all.max), bins: bins)
        for (b, count) in all.histogram.enumerated() where count > 0 {
            let centre = -1 + (Double(b) + 0.5) * all.binWidth
            h.add(min(max(centre, h.edges.first!), h.edges.last!), count: Double(count))
        }
        return h
    }
}

/// Counts every pair into a coarse histogram over the first pass's [min, max], in a pass of its
/// own: Otsu and Kittler–Illingworth then see exactly numpy's histogram at any N.
public final class CoarseHistogramPass: PairConsumer {
    /// One worker's counts.
    final class Counts: @unchecked Sendable {
        var values: [Int]
        init(bins: Int) { values = [Int](repeating: 0, count: bins) }
    }

    public private(set) var histogram: CoarseHistogram
    private var perWorker: [Counts] = []

    public init(minimum: Double, maximum: Double, bins: Int) {
        histogram = CoarseHistogram(minimum: minimum, maximum: maximum, bins: bins)
    }

    public func prepare(workers: Int) {
        while perWorker.count < workers { perWorker.append(Counts(bins: histogram.counts.count)) }
    }

    public func finish() {
        for w in perWorker { for i in w.values.indices where w.values[i] > 0 { histogram.counts[i] += Double(w.values[i]) } }
        perWorker = []
    }

    public func consume(_ tile: SimilarityTile, worker: Int) {
        // numpy's rule (as `CoarseHistogram.add`) on local copies, so the loop stays tight.
        let edges = histogram.edges
        let n = histogram.counts.count
        let lo = edges[0], scale = Double(n) / (edges[n] - lo)
        let mine = perWorker[worker]
        var counts = [Int](repeating: 0, count: n)
        edges.withUnsafeBufferPointer { e in
            for a in 0..<tile.rowCount {
                let row = tile.values + a * tile.stride
                for b in tile.firstColumn(ofRow: a)..<tile.colCount {
                    let v = Double(row[b])
                    var i = min(max(Int((v - lo) * scale), 0), n - 1)
                    if v < e[i] { i -= 1 } else if i < n - 1 && v >= e[i + 1] { i += 1 }
                    counts[max(i, 0)] += 1
                }
            }
        }
        for i in 0..<n where counts[i] > 0 { mine.values[i] += counts[i] }
    }
}

/// Counts over equal bins between a minimum and a maximum, with numpy's edges and bin rule.
public struct CoarseHistogram: Sendable, Equatable {
    public var edges: [Double]
    public var counts: [Double]
    public var centres: [Double] { (0..<counts.count).map { (edges[$0] + edges[$0 + 1]) / 2 } }

    public init(minimum: Double, maximum: Double, bins: Int) {
        var lo = minimum, hi = maximum
        if lo == hi { lo -= 0.5; hi += 0.5 }  // numpy widens a zero range the same way
        let step = (hi - lo) / Double(bins)
        edges = (0...bins).map { Double($0) * step + lo }
        edges[bins] = hi
        counts = [Double](repeating: 0, count: bins)
    }

    /// `numpy.histogram(values, bins)`: equal bins over the values' [min, max]; nil for none.
    public init?(values: [Float], bins: Int) {
        guard let lo = values.min(), let hi = values.max() else { return nil }
        self.init(minimum: Double(lo), maximum: Double(hi), bins: bins)
        for v in values { add(Double(v), count: 1) }
    }

    /// numpy's rule: bin i holds edges[i] ≤ v < edges[i+1]; the last bin also holds the maximum.
    public mutating func add(_ v: Double, count: Double) {
        let n = counts.count
        let lo = edges[0], hi = edges[n]
        var i = Int((v - lo) * (Double(n) / (hi - lo)))
        i = min(max(i, 0), n - 1)
        if v < edges[i] { i -= 1 } else if i < n - 1 && v >= edges[i + 1] { i += 1 }
        counts[max(i, 0)] += count
    }
}

/// Every rule by name: `fixed(t)`, `noise-floor(k)`, `percentile(p)`, `otsu(bins)`,
/// `otsu-floored`, `kittler-illingworth`, `mixture`, `knn-otsu(k)`, `knn-mixture(k)`,
/// `knn-median(k)`, `silhouette`, `oracle`.
public func thresholdRule(named text: String) throws -> ThresholdRule {
    let name = try RuleName(text)
    switch name.base {
    case "fixed": return FixedThreshold(value: name.argument ?? 0.55)
    case "noise-floor": return NoiseFloorThreshold(k: name.argument ?? 4)
    case "percentile":
        let p = name.argument ?? 90
        guard (0...100).contains(p) else { throw ThemeLabError.usage("percentile(\(p)): p must be within 0...100") }
        return PercentileThreshold(percent: p)
    case "otsu": return OtsuThreshold(bins: try name.count("bins") ?? 256)
    case "otsu-floored": return OtsuFlooredThreshold(bins: try name.count("bins") ?? 256)
    case "kittler-illingworth": return KittlerIllingworthThreshold(bins: try name.count("bins") ?? 256)
    case "mixture": return MixtureCrossingThreshold()
    case "knn-otsu": return NeighbourOtsuThreshold(k: try name.count("k") ?? 10)
    case "knn-mixture": return NeighbourMixtureThreshold(k: try name.count("k") ?? 10)
    case "knn-median": return NeighbourMedianThreshold(k: try name.count("k") ?? 10)
    case "silhouette": return SilhouetteThreshold()
    case "oracle": return OracleThreshold()
    default:
        throw ThemeLabError.usage("unknown threshold rule '\(text)' (expected fixed(t), noise-floor(k), percentile(p), otsu, otsu-floored, kittler-illingworth, mixture, knn-otsu(k), knn-mixture(k), knn-median(k), silhouette, oracle)")
    }
}

/// The rules DESIGN.md lists, in report order.
public let standardThresholdRules = ["fixed(0.55)", "noise-floor(4)", "percentile(90)", "otsu", "otsu-floored", "kittler-illingworth", "mixture", "oracle"]
