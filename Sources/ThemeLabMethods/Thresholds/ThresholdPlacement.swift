import ThemeLabCore
import ThemeLabMeasures
import ThemeLabPairs

/// Where a data-derived threshold sits among the values it cuts.
///
/// A rule whose value is an observed similarity (the oracle, a merge height) or an interpolation
/// between two of them (a percentile, a median) can land exactly on, or within rounding of, a value
/// that decides the partition; then 1e-7 of BLAS rounding on another CPU moves an item across.
/// `midGap` keeps the partition and maximises the margin: with a the largest observed value
/// below t and b the smallest ≥ t, it returns (a + b)/2, so every value ≥ b stays above and every
/// value ≤ a below, and any perturbation smaller than (b − a)/2 moves nothing across.
package enum ThresholdPlacement {
    /// `t` moved to the middle of its gap in `observed` (sorted ascending). Below the smallest value
    /// the gap is mirrored from the one above it; above the largest, `t` is returned unchanged.
    package static func midGap(_ t: Double, observed: [Double]) -> Double {
        var lo = 0
        var hi = observed.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if observed[mid] < t { lo = mid + 1 } else { hi = mid }
        }
        guard lo < observed.count else { return t }
        let b = observed[lo]
        if lo > 0 { return (observed[lo - 1] + b) / 2 }
        let next = observed[lo...].first { $0 > b }
        return b - (next.map { $0 - b } ?? 1e-6) / 2
    }

    /// The values a cut is decided by: every pair similarity when the pass kept them, else the
    /// spanning forest's edges; and the average-linkage merge heights. Sorted, without repeats.
    package static func observedValues(pairs: [Float]?, forest: [Float], merges: [Float]) -> [Double] {
        var values = (pairs ?? forest).map(Double.init) + merges.map(Double.init)
        values.sort()
        var unique: [Double] = []
        unique.reserveCapacity(values.count)
        for v in values where unique.last != v { unique.append(v) }
        return unique
    }
}
