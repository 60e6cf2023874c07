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
    package let counts: UnsafeMutablePointer<UInt32>
    package var moments = Moments()
    package var tileSum = 0.0
    package var tileSumSquares = 0.0
    package var sinceFlush = 0
    package var exactValues: [Float]?
    package var totals: PairAccumulator

    package init(bins: Int, keepValues: Bool) {
        self.bins = bins
        binning = FineBinning(bins: bins)
        counts = .allocate(capacity: bins)
        counts.initialize(repeating: 0, count: bins)
        exactValues = keepValues ? [] : nil
        totals = PairAccumulator(bins: bins)
    }

    deinit { counts.deallocate() }

    /// Adds `n` similarities starting at `p`, eight at a time: bins, extremes and moments from one
    /// load. The moments keep four running Float64 sums each, filled in a fixed order (lane j takes
    /// values 4m + j), so the additions do not wait on one another and results stay bit-for-bit
    /// repeatable.
    @inline(__always)
    package func add(_ p: UnsafePointer<Float>, _ n: Int) {
        guard n > 0 else { return }
        if sinceFlush > Int(UInt32.max) - n { flush() }
        sinceFlush += n
        var low = SIMD8<Float>(repeating: moments.min)
        var high = SIMD8<Float>(repeating: moments.max)
        var sum = SIMD4<Double>()
        var sumSquares = SIMD4<Double>()
        var k = 0
        while k + 8 <= n {
            let s = UnsafeRawPointer(p + k).loadUnaligned(as: SIMD8<Float>.self)
            let b = binning.bins(s)
            counts[Int(b[0])] &+= 1
            counts[Int(b[1])] &+= 1
            counts[Int(b[2])] &+= 1
            counts[Int(b[3])] &+= 1
            counts[Int(b[4])] &+= 1
            counts[Int(b[5])] &+= 1
            counts[Int(b[6])] &+= 1
            counts[Int(b[7])] &+= 1
            low = low.replacing(with: s, where: s .< low)
            high = high.replacing(with: s, where: s .> high)
            let first = SIMD4<Double>(Double(s[0]), Double(s[1]), Double(s[2]), Double(s[3]))
            sum += first
            sumSquares += first * first
            let second = SIMD4<Double>(Double(s[4]), Double(s[5]), Double(s[6]), Double(s[7]))
            sum += second
            sumSquares += second * second
            k += 8
        }
        if k + 4 <= n {
            let v = SIMD4<Double>(Double(p[k]), Double(p[k + 1]), Double(p[k + 2]), Double(p[k + 3]))
            sum += v
            sumSquares += v * v
        }
        var tail = 0.0
        var tailSquares = 0.0
        for r in k..<n {
            counts[binning.bin(p[r])] &+= 1
            low[0] = Swift.min(low[0], p[r])
            high[0] = Swift.max(high[0], p[r])
            if r >= n & ~3 {
                tail += Double(p[r])
                tailSquares += Double(p[r]) * Double(p[r])
            }
        }
        moments.min = low.min()
        moments.max = high.max()
        moments.count += n
        tileSum += sum.sum() + tail
        tileSumSquares += sumSquares.sum() + tailSquares
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
/// step outside [−1, 1] lands in an end bin, and NaN in bin 0, never a trap).
///
/// Eight at a time in Float lanes: after the clamp, v + 2²³ holds round-to-nearest(v) in its
/// mantissa bits, and one is taken off where that rounded up, which is ⌊v⌋ exactly for
/// 0 ≤ v < 2²³. No per-value float-to-integer conversion, so the loop vectorises. Above 2²³ bins
/// (`themelab pairs --bins` allows 2²⁴) the lanes are binned one by one.
package struct FineBinning {
    package let scale: Float
    package let top: Float
    /// Whether every clamped v is below 2²³, where the lane-wise floor is exact.
    package let lanesAreExact: Bool

    package init(bins: Int) {
        precondition(bins >= 2, "at least two bins")
        scale = Float(bins) / 2
        top = Float(bins - 1)
        lanesAreExact = bins <= 1 << 23
    }

    @inline(__always) package func bin(_ s: Float) -> Int {
        let v = (s + 1) * scale
        return Int(v > 0 ? (v < top ? v : top) : 0)
    }

    @inline(__always) package func bins(_ s: SIMD8<Float>) -> SIMD8<Int32> {
        guard lanesAreExact else { return binsOneByOne(s) }
        let magic = SIMD8<Float>(repeating: 8_388_608)
        var v = (s + 1) * scale
        v = v.replacing(with: 0, where: .!(v .> 0))
        v = v.replacing(with: top, where: v .> top)
        let rounded = v + magic
        let roundedUp = unsafeBitCast(rounded - magic .> v, to: SIMD8<Int32>.self)  // −1 where it rounded up
        return (unsafeBitCast(rounded, to: SIMD8<Int32>.self) & 0x7f_ffff) &+ roundedUp
    }

    /// Above 2²³ bins (kept out of line, so the lane-wise path stays compact where it is inlined).
    @inline(never) package func binsOneByOne(_ s: SIMD8<Float>) -> SIMD8<Int32> {
        var b = SIMD8<Int32>()
        for k in 0..<8 { b[k] = Int32(bin(s[k])) }
        return b
    }
}
