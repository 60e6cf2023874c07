/// Running totals of one class of pairs: a fine histogram over [-1, 1] and exact moments.
///
/// Bin b covers [-1 + b·w, -1 + (b+1)·w) with w = 2/bins; the last bin is closed, and values a
/// rounding step outside [-1, 1] fall into the end bins. Min, max, count, sum and sum of squares
/// are taken from the values themselves (sums in Float64), so they carry no binning error.
public struct PairAccumulator: Sendable, Equatable, Codable {
    public var histogram: [UInt64]
    public var count: Int = 0
    public var sum: Double = 0
    public var sumSquares: Double = 0
    public var min: Float = .infinity
    public var max: Float = -.infinity

    public init(bins: Int) { histogram = [UInt64](repeating: 0, count: bins) }

    public var binWidth: Double { 2 / Double(histogram.count) }

    /// The middle of fine bin b, where the histogram-based rules place its values.
    public func centre(ofBin b: Int) -> Double { -1 + (Double(b) + 0.5) * binWidth }

    public mutating func merge(_ other: PairAccumulator) {
        precondition(histogram.count == other.histogram.count, "histograms differ in bins")
        for b in histogram.indices { histogram[b] += other.histogram[b] }
        count += other.count
        sum += other.sum
        sumSquares += other.sumSquares
        min = Swift.min(min, other.min)
        max = Swift.max(max, other.max)
    }

    public var mean: Double { count > 0 ? sum / Double(count) : .nan }
    /// Population variance (ddof = 0, as numpy's `var`).
    public var variance: Double {
        guard count > 0 else { return .nan }
        let m = mean
        return Swift.max(0, sumSquares / Double(count) - m * m)
    }
}

/// A worker's private accumulation state for the histogram pass: 32-bit bins that are folded
/// into the 64-bit totals before they could overflow. Sums are kept per tile (`takeTileSums`)
/// so the engine can add them in tile order: the result does not depend on which worker took
/// which tile.
final class WorkerTotals: @unchecked Sendable {
    struct Moments {
        var count = 0
        var min = Float.infinity
        var max = -Float.infinity
    }

    let bins: Int
    let counts: UnsafeMutablePointer<UInt32>
    var moments = Moments()
    /// Bins of the extremes so far (see `add`).
    var lowestBin = Int.max, highestBin = Int.min
    var tileSum = 0.0
    var tileSumSquares = 0.0
    var sinceFlush = 0
    var exactValues: [Float]?
    var totals: PairAccumulator

    init(bins: Int, keepValues: Bool) {
        self.bins = bins
        counts = .allocate(capacity: bins)
        counts.initialize(repeating: 0, count: bins)
        exactValues = keepValues ? [] : nil
        totals = PairAccumulator(bins: bins)
    }

    deinit { counts.deallocate() }

    /// Adds `n` similarities starting at `p`.
    @inline(__always)
    func add(_ p: UnsafePointer<Float>, _ n: Int) {
        guard n > 0 else { return }
        if sinceFlush > Int(UInt32.max) - n { flush() }
        sinceFlush += n
        let scale = Float(bins) / 2
        let last = bins - 1
        // The extremes are tracked by bin (integer comparisons); only a run that reaches the
        // current extreme bin is scanned for the exact value, which after the first rows is rare.
        var low = Int.max
        var high = Int.min
        for k in 0..<n {
            let b = Swift.min(Swift.max(Int((p[k] + 1) * scale), 0), last)
            counts[b] &+= 1
            low = Swift.min(low, b)
            high = Swift.max(high, b)
        }
        if low <= lowestBin {
            for k in 0..<n { moments.min = Swift.min(moments.min, p[k]) }
            lowestBin = low
        }
        if high >= highestBin {
            for k in 0..<n { moments.max = Swift.max(moments.max, p[k]) }
            highestBin = high
        }
        // A separate loop for the moments, with four running sums each so the additions do not
        // wait on one another (the order is fixed, so results stay bit-for-bit repeatable).
        var sum = SIMD4<Double>()
        var sumSquares = SIMD4<Double>()
        let wide = n & ~3
        var k = 0
        while k < wide {
            let v = SIMD4<Double>(Double(p[k]), Double(p[k + 1]), Double(p[k + 2]), Double(p[k + 3]))
            sum += v
            sumSquares += v * v
            k += 4
        }
        var tail = 0.0
        var tailSquares = 0.0
        for k in wide..<n {
            tail += Double(p[k])
            tailSquares += Double(p[k]) * Double(p[k])
        }
        moments.count += n
        tileSum += sum.sum() + tail
        tileSumSquares += sumSquares.sum() + tailSquares
        exactValues?.append(contentsOf: UnsafeBufferPointer(start: p, count: n))
    }

    /// The sums since the last call.
    func takeTileSums() -> (sum: Double, sumSquares: Double) {
        defer {
            tileSum = 0
            tileSumSquares = 0
        }
        return (tileSum, tileSumSquares)
    }

    func flush() {
        for b in 0..<bins where counts[b] != 0 {
            totals.histogram[b] += UInt64(counts[b])
            counts[b] = 0
        }
        sinceFlush = 0
    }

    /// The worker's histogram, count, min and max (sums are added by the engine).
    func finish() -> PairAccumulator {
        flush()
        totals.count = moments.count
        totals.min = moments.min
        totals.max = moments.max
        return totals
    }
}
