import ThemeLabCore

/// The distribution statistics of the definitions in docs/method.md, for one class of pairs (all, related or
/// unrelated). Quantiles follow numpy's default (linear interpolation between order statistics,
/// position (n−1)·q). `std` is the population standard deviation (ddof = 0).
package struct PairStatistics: Sendable, Equatable, Codable {
    package var count: Int
    package var min: Double
    package var p1: Double
    package var p5: Double
    package var p25: Double
    package var median: Double
    package var p75: Double
    package var p95: Double
    package var p99: Double
    package var max: Double
    package var mean: Double
    package var std: Double
    /// Upper bound on the absolute error of the quantiles: 0 when they come from the sorted
    /// values, one histogram bin width when they come from the fine histogram.
    package var quantileErrorBound: Double

    package static let quantileLevels: [Double] = [0.01, 0.05, 0.25, 0.5, 0.75, 0.95, 0.99]

    /// One statistic: the keys of their replicate estimates (raw values as the results files name them).
    package enum Statistic: String, CaseIterable, Sendable, Codable, CodingKeyRepresentable {
        case count, min, p1, p5, p25, median, p75, p95, p99, max, mean, std
    }

    package func value(_ statistic: Statistic) -> Double {
        switch statistic {
        case .count: Double(count)
        case .min: min
        case .p1: p1
        case .p5: p5
        case .p25: p25
        case .median: median
        case .p75: p75
        case .p95: p95
        case .p99: p99
        case .max: max
        case .mean: mean
        case .std: std
        }
    }

    package init(accumulator a: PairAccumulator, quantile: (Double) -> Double, errorBound: Double) {
        let q = Self.quantileLevels.map(quantile)
        count = a.count
        min = Double(a.min)
        max = Double(a.max)
        (p1, p5, p25, median, p75, p95, p99) = (q[0], q[1], q[2], q[3], q[4], q[5], q[6])
        mean = a.mean
        std = a.variance.squareRoot()
        quantileErrorBound = errorBound
    }

}

/// Running totals of a histogram's bins.
package func cumulativeCounts(_ a: PairAccumulator) -> [UInt64] {
    a.histogram.reduce(into: [UInt64]()) { $0.append(($0.last ?? 0) + $1) }
}

/// The same quantile estimated from a histogram: each order statistic is placed inside its bin
/// (at the mid-rank position, clamped to the exact min and max), so the error is below one bin.
/// `cumulative` is `cumulativeCounts(a)`, computed once by the caller for several quantiles.
package func histogramQuantile(_ a: PairAccumulator, cumulative: [UInt64], _ q: Double) -> Double {
    guard a.count > 0 else { return .nan }
    func orderStatistic(_ k: Int) -> Double {
        let target = UInt64(k)
        var lo = 0
        var hi = cumulative.count - 1
        while lo < hi {
            let mid = (lo + hi) / 2
            if cumulative[mid] > target { hi = mid } else { lo = mid + 1 }
        }
        let before = lo > 0 ? cumulative[lo - 1] : 0
        let inBin = Double(cumulative[lo] - before)
        let left = -1 + Double(lo) * a.binWidth
        let estimate = left + (Double(target - before) + 0.5) / inBin * a.binWidth
        return Swift.min(Swift.max(estimate, Double(a.min)), Double(a.max))
    }
    let h = Double(a.count - 1) * q
    let k = Int(h.rounded(.down))
    let x0 = orderStatistic(k)
    let x1 = orderStatistic(Swift.min(k + 1, a.count - 1))
    return x0 + (h - Double(k)) * (x1 - x0)
}
