import CKernels
import ThemeLabCore

/// Counts every pair into a coarse histogram over the first pass's [min, max], in a pass of its
/// own: Otsu and Kittler–Illingworth then see exactly numpy's histogram at any N.
package final class CoarseHistogramPass: PairConsumer {
    /// One worker's counts.
    package final class Counts: @unchecked Sendable {
        package var values: [Int]
        package init(bins: Int) { values = [Int](repeating: 0, count: bins) }
    }

    package private(set) var histogram: CoarseHistogram
    private var perWorker: [Counts] = []

    package init(minimum: Double, maximum: Double, bins: Int) {
        histogram = CoarseHistogram(minimum: minimum, maximum: maximum, bins: bins)
    }

    package func prepare(workers: Int) {
        while perWorker.count < workers { perWorker.append(Counts(bins: histogram.counts.count)) }
    }

    package func finish() {
        for w in perWorker { for i in w.values.indices where w.values[i] > 0 { histogram.counts[i] += Double(w.values[i]) } }
        perWorker = []
    }

    package func consume(_ tile: SimilarityTile, worker: Int) {
        var counter = CoarseHistogram.BinCounter(edges: histogram.edges)
        for a in 0..<tile.rowCount {
            let first = tile.firstColumn(ofRow: a)
            counter.add(UnsafeBufferPointer(start: tile.values + a * tile.stride + first, count: max(tile.colCount - first, 0)))
        }
        let totals = perWorker[worker]
        for (i, c) in counter.counts().enumerated() where c > 0 { totals.values[i] += c }
    }
}

/// Counts over equal bins between a minimum and a maximum, with numpy's edges and bin rule.
package struct CoarseHistogram: Sendable, Equatable {
    package var edges: [Double]
    package var counts: [Double]
    package var centres: [Double] { (0..<counts.count).map { (b: Int) -> Double in (edges[b] + edges[b + 1]) / 2 } }

    package init(minimum: Double, maximum: Double, bins: Int) {
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
    package init?(values: [Float], bins: Int) {
        guard let lo = values.min(), let hi = values.max() else { return nil }
        self.init(minimum: Double(lo), maximum: Double(hi), bins: bins)
        for v in values { add(Double(v), count: 1) }
    }

    package mutating func add(_ v: Double, count: Double) {
        let n = counts.count
        edges.withUnsafeBufferPointer { e in counts[Self.bin(of: v, edges: e, scale: Double(n) / (e[n] - e[0]))] += count }
    }

    /// numpy's rule: bin i holds edges[i] ≤ v < edges[i+1]; the last bin also holds the maximum.
    /// `scale` is bins / (last edge − first edge); values outside fall into the end bins, and a NaN (a similarity of a
    /// zero vector, or edges that are not finite) into bin 0, never a trap in the conversion to an index.
    @inline(__always)
    package static func bin(of v: Double, edges e: UnsafeBufferPointer<Double>, scale: Double) -> Int {
        let n = e.count - 1
        let position = (v - e[0]) * scale
        guard !position.isNaN else { return 0 }
        var i = Int(min(max(position, 0), Double(n - 1)))
        if v < e[i] { i -= 1 } else if i < n - 1 && v >= e[i + 1] { i += 1 }
        return max(i, 0)
    }

    /// Counts values into the bins of `edges` by numpy's rule (`bin(of:edges:scale:)`) in the C kernel's loop
    /// (`Sources/CKernels/include/pair_kernel.h`): eight values a step on the AVX-512 path, four on AVX2, where the edges
    /// are even (`CoarseHistogram`'s always are), else the scalar path; every path gives the same counts.
    package struct BinCounter {
        private let edges: [Double]
        private let path: KernelPath
        private var lanes: [Int64]

        package init(edges: [Double], path: KernelPath = .best) {
            self.edges = edges
            self.path = tl_edges_are_even(edges, Int32(edges.count - 1)) != 0 ? path : .scalar
            lanes = [Int64](repeating: 0, count: 4 * (edges.count - 1))
        }

        package mutating func add(_ values: UnsafeBufferPointer<Double>) {
            guard let start = values.baseAddress else { return }
            let (path, bins) = (path.code, Int32(edges.count - 1))
            lanes.withUnsafeMutableBufferPointer { tl_count_bins_f64(path, start, values.count, edges, bins, $0.baseAddress!) }
        }

        package mutating func add(_ values: UnsafeBufferPointer<Float>) {
            guard let start = values.baseAddress else { return }
            let (path, bins) = (path.code, Int32(edges.count - 1))
            lanes.withUnsafeMutableBufferPointer { tl_count_bins_f32(path, start, values.count, edges, bins, $0.baseAddress!) }
        }

        /// The count of each bin.
        package func counts() -> [Int] {
            let bins = edges.count - 1
            return (0..<bins).map { Int(lanes[$0] + lanes[bins + $0] + lanes[2 * bins + $0] + lanes[3 * bins + $0]) }
        }
    }
}
