import Foundation
import ThemeLabCore
import ThemeLabPairs

/// A quantity measured on R replicates: how many had a value, their mean, sample standard
/// deviation (ddof = 1) and a 95% percentile-bootstrap interval of the mean.
package struct Estimate: Codable, Sendable, Equatable {
    package var n: Int
    package var mean: Double
    package var sd: Double
    package var low: Double
    package var high: Double
    /// The value on each replicate, where kept (separation figures, for paired differences across spaces).
    package var values: [Double?]?

    package init(n: Int, mean: Double, sd: Double, low: Double, high: Double, values: [Double?]? = nil) {
        self.n = n
        self.mean = mean
        self.sd = sd
        self.low = low
        self.high = high
        self.values = values
    }

    /// Whether `value` lies inside the interval.
    package func contains(_ value: Double) -> Bool { low <= value && value <= high }
}

/// The percentile bootstrap of a statistic over replicates, as `scipy.stats.bootstrap(...,
/// method="percentile")` computes it: B resamples of the replicate indices drawn with
/// replacement, the statistic on each, and the (1 − level)/2 and (1 + level)/2 quantiles of those
/// values (numpy's linear interpolation). Every quantity of one corpus uses the same resamples,
/// so two rules are compared on the same draws (Efron & Tibshirani 1993, ch. 13).
package struct PercentileBootstrap: Sendable {
    package static let defaultResamples = 9999
    package static let level = 0.95
    /// Replicates per resample.
    package let count: Int
    /// B × count replicate indices, row-major.
    package let indices: [Int32]
    package let seed: UInt64

    /// Seeded resamples of `count` replicates.
    package init(count: Int, resamples: Int = defaultResamples, seed: UInt64) {
        precondition(count >= 1 && resamples >= 1)
        var rng = SeededRandom(seed: seed ^ 0xB007_57A9)
        let n = UInt64(count)
        self.count = count
        self.seed = seed
        indices = (0..<(resamples * count)).map { _ in Int32(rng.next() % n) }
    }

    /// Given resamples (for example numpy's `rng.integers(0, n, (B, n))`, as scipy draws them).
    package init(resamples: [[Int]]) {
        precondition(!resamples.isEmpty && resamples.allSatisfy { $0.count == resamples[0].count && !$0.isEmpty })
        count = resamples[0].count
        seed = 0
        indices = resamples.flatMap { $0.map(Int32.init) }
    }

    package var resamples: Int { indices.count / count }

    /// The statistic on every resample: `statistic` gets the resample's replicate indices.
    package func distribution(_ statistic: (UnsafeBufferPointer<Int32>) -> Double) -> [Double] {
        indices.withUnsafeBufferPointer { all in
            (0..<resamples).map { b in statistic(UnsafeBufferPointer(rebasing: all[(b * count)..<((b + 1) * count)])) }
        }
    }

    /// The percentile interval of `statistic`.
    package func interval(_ statistic: (UnsafeBufferPointer<Int32>) -> Double) -> (low: Double, high: Double) {
        var values = distribution(statistic)
        let tail = (1 - Self.level) / 2
        return (selectedQuantile(&values, tail), selectedQuantile(&values, 1 - tail))
    }

    /// Mean, sd and the interval of the mean of `values` (one per replicate).
    package func estimate(_ values: [Double]) -> Estimate {
        precondition(values.count == count)
        // A constant is its own mean, sd and interval (rounding in the sums must not move it).
        if values.allSatisfy({ $0 == values[0] }) { return Estimate(n: count, mean: values[0], sd: 0, low: values[0], high: values[0]) }

        let mean = values.reduce(0, +) / Double(count)
        let ss = values.reduce(0) { $0 + ($1 - mean) * ($1 - mean) }
        let (low, high) = values.withUnsafeBufferPointer { v in
            interval { idx in idx.reduce(0) { $0 + v[Int($1)] } / Double(idx.count) }
        }
        return Estimate(n: count, mean: mean, sd: count > 1 ? (ss / Double(count - 1)).squareRoot() : 0, low: low, high: high)
    }

    /// The estimate over the replicates that have a value; nil when none has. Replicates without
    /// one are left out and the rest resampled (same seed), so `n` says how many counted.
    package func estimate(_ values: [Double?]) -> Estimate? {
        let present = values.compactMap { $0 }
        if present.count == count { return estimate(present) }
        guard !present.isEmpty else { return nil }
        return PercentileBootstrap(count: present.count, resamples: resamples, seed: seed).estimate(present)
    }
}
