import CKernels
import ThemeLabCore

/// Running totals of one class of pairs: a fine histogram over [-1, 1] and exact moments.
///
/// Bin b covers [-1 + b·w, -1 + (b+1)·w) with w = 2/bins; the last bin is closed, and values a
/// rounding step outside [-1, 1] fall into the end bins. Min, max, count, sum and sum of squares
/// are taken from the values themselves (sums in Float64), so they carry no binning error.
package struct PairAccumulator: Sendable, Equatable, Codable {
    package var histogram: [UInt64]
    package var count: Int = 0
    package var sum: Double = 0
    package var sumSquares: Double = 0
    package var min: Float = .infinity
    package var max: Float = -.infinity

    package init(bins: Int) { histogram = [UInt64](repeating: 0, count: bins) }

    package var binWidth: Double { 2 / Double(histogram.count) }

    /// The middle of fine bin b, where the histogram-based rules place its values.
    package func centre(ofBin b: Int) -> Double { -1 + (Double(b) + 0.5) * binWidth }

    package mutating func merge(_ other: PairAccumulator) {
        precondition(histogram.count == other.histogram.count, "histograms differ in bins")
        for b in histogram.indices { histogram[b] += other.histogram[b] }
        count += other.count
        sum += other.sum
        sumSquares += other.sumSquares
        min = Swift.min(min, other.min)
        max = Swift.max(max, other.max)
    }

    package var mean: Double { count > 0 ? sum / Double(count) : .nan }
    /// Population variance (ddof = 0, as numpy's `var`).
    package var variance: Double {
        guard count > 0 else { return .nan }
        let m = mean
        return Swift.max(0, sumSquares / Double(count) - m * m)
    }
}

/// A worker's private accumulation state for the histogram pass: 32-bit bins that are folded
/// into the 64-bit totals before they could overflow. Sums are kept per tile (`takeTileSums`)
/// so the engine can add them in tile order: the result does not depend on which worker took
/// which tile.
package final class WorkerTotals: @unchecked Sendable {
    package struct Moments {
        package var count = 0
        package var min = Float.infinity
        package var max = -Float.infinity
    }

    package let bins: Int
    package let binning: FineBinning
    /// The C kernels' path (every path the same bits).
    package let path: KernelPath
    package let counts: UnsafeMutablePointer<UInt32>
    package var moments = Moments()
    package var tileSum = 0.0
    package var tileSumSquares = 0.0
    package var sinceFlush = 0
    package var exactValues: [Float]?
    package var totals: PairAccumulator

    package init(bins: Int, keepValues: Bool, path: KernelPath = .best) {
        self.bins = bins
        binning = FineBinning(bins: bins)
        self.path = path
        counts = .allocate(capacity: bins)
        counts.initialize(repeating: 0, count: bins)
        exactValues = keepValues ? [] : nil
        totals = PairAccumulator(bins: bins)
    }

    deinit { counts.deallocate() }

    /// Adds `n` similarities starting at `p`: bins, extremes and moments from one load each, by `tl_fine_add` (the
    /// moments as four running Float64 sums filled in a fixed order, so the additions do not wait on one another and
    /// results stay bit-for-bit repeatable; every path the same bits).
    @inline(__always)
    package func add(_ p: UnsafePointer<Float>, _ n: Int) {
        guard n > 0 else { return }
        if sinceFlush > Int(UInt32.max) - n { flush() }
        sinceFlush += n
        var (low, high, sum, squares) = (moments.min, moments.max, tileSum, tileSumSquares)
        tl_fine_add(path.code, p, n, binning.scale, binning.top, counts, &low, &high, &sum, &squares)
        (moments.min, moments.max, tileSum, tileSumSquares) = (low, high, sum, squares)
        moments.count += n
        exactValues?.append(contentsOf: UnsafeBufferPointer(start: p, count: n))
    }

    /// The sums since the last call.
    package func takeTileSums() -> (sum: Double, sumSquares: Double) {
        defer {
            tileSum = 0
            tileSumSquares = 0
        }
        return (tileSum, tileSumSquares)
    }

    package func flush() {
        for b in 0..<bins where counts[b] != 0 {
            totals.histogram[b] += UInt64(counts[b])
            counts[b] = 0
        }
        sinceFlush = 0
    }

    /// The worker's histogram, count, min and max (sums are added by the engine).
    package func finish() -> PairAccumulator {
        flush()
        totals.count = moments.count
        totals.min = moments.min
        totals.max = moments.max
        return totals
    }
}

/// Fine bin b = ⌊(s + 1)·bins/2⌋ of a similarity, clamped to [0, bins − 1] (so a value a rounding
/// step outside [−1, 1] lands in an end bin, and NaN in bin 0, never a trap): (s + 1)·scale, clamped to [0, top],
/// truncated (`tl_fine_add`).
package struct FineBinning {
    package let scale: Float
    package let top: Float

    package init(bins: Int) {
        precondition(bins >= 2 && bins <= 1 << 24, "2 to 2²⁴ bins")
        scale = Float(bins) / 2
        top = Float(bins - 1)
    }
}
