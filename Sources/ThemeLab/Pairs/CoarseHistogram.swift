/// Counts every pair into a coarse histogram over the first pass's [min, max], in a pass of its
/// own: Otsu and Kittler–Illingworth then see exactly numpy's histogram at any N.
final class CoarseHistogramPass: PairConsumer {
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

    func consume(_ tile: SimilarityTile, worker: Int) {
        // numpy's rule (`CoarseHistogram.bin`) on local copies, so the loop stays tight.
        let n = histogram.counts.count
        let mine = perWorker[worker]
        var counts = [Int](repeating: 0, count: n)
        histogram.edges.withUnsafeBufferPointer { e in
            let scale = Double(n) / (e[n] - e[0])
            for a in 0..<tile.rowCount {
                let row = tile.values + a * tile.stride
                for b in tile.firstColumn(ofRow: a)..<tile.colCount {
                    counts[CoarseHistogram.bin(of: Double(row[b]), edges: e, scale: scale)] += 1
                }
            }
        }
        for i in 0..<n where counts[i] > 0 { mine.values[i] += counts[i] }
    }
}

/// Counts over equal bins between a minimum and a maximum, with numpy's edges and bin rule.
public struct CoarseHistogram: Sendable, Equatable {
    var edges: [Double]
    public var counts: [Double]
    var centres: [Double] { (0..<counts.count).map { (edges[$0] + edges[$0 + 1]) / 2 } }

    public init(minimum: Double, maximum: Double, bins: Int) {
        var lo = minimum
        var hi = maximum
        if lo == hi {
            lo -= 0.5
            hi += 0.5
        }  // numpy widens a zero range the same way
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

    public mutating func add(_ v: Double, count: Double) {
        let n = counts.count
        edges.withUnsafeBufferPointer { e in counts[Self.bin(of: v, edges: e, scale: Double(n) / (e[n] - e[0]))] += count }
    }

    /// numpy's rule: bin i holds edges[i] ≤ v < edges[i+1]; the last bin also holds the maximum.
    /// `scale` is bins / (last edge − first edge); values outside fall into the end bins, and a NaN (a similarity of a
    /// zero vector, or edges that are not finite) into bin 0, never a trap in the conversion to an index.
    @inline(__always)
    static func bin(of v: Double, edges e: UnsafeBufferPointer<Double>, scale: Double) -> Int {
        let n = e.count - 1
        let position = (v - e[0]) * scale
        guard !position.isNaN else { return 0 }
        var i = Int(min(max(position, 0), Double(n - 1)))
        if v < e[i] { i -= 1 } else if i < n - 1 && v >= e[i + 1] { i += 1 }
        return max(i, 0)
    }
}
