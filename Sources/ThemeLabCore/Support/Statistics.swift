import Foundation

/// Median of a non-empty list (mean of the middle two for an even count).
package func median(_ values: [Double]) -> Double {
    let s = values.sorted()
    return s.count % 2 == 1 ? s[s.count / 2] : (s[s.count / 2 - 1] + s[s.count / 2]) / 2
}

/// numpy's `quantile(x, q)` (method "linear") of ascending values.
package func exactQuantile<T: BinaryFloatingPoint>(_ sorted: [T], _ q: Double) -> Double {
    guard !sorted.isEmpty else { return .nan }
    let h = Double(sorted.count - 1) * q
    let lo = Int(h.rounded(.down))
    let hi = Swift.min(lo + 1, sorted.count - 1)
    let a = Double(sorted[lo])
    let b = Double(sorted[hi])
    return a + (h - Double(lo)) * (b - a)
}

/// `exactQuantile` of `values` (no NaN, as for the sort) without sorting them: the two order statistics it reads are
/// found by selection (Hoare's FIND, expected O(n); Hoare 1961, CACM 4(7) Algorithm 65), so the value is the sorted
/// values' one. Reorders `values`.
package func selectedQuantile(_ values: inout [Double], _ q: Double) -> Double {
    guard !values.isEmpty else { return .nan }
    let h = Double(values.count - 1) * q
    let lo = Int(h.rounded(.down))
    let a = orderStatistic(&values, rank: lo)
    // Everything after `lo` is ≥ a now: the next order statistic is the least of it.
    let b = lo + 1 < values.count ? values[(lo + 1)...].min()! : a
    return a + (h - Double(lo)) * (b - a)
}

/// Reorders `v` so that v[rank] is what a sort would put there, nothing after it smaller, nothing before it larger;
/// returns it. Hoare's FIND: partition around the median of three, keep the side holding `rank`.
package func orderStatistic(_ v: inout [Double], rank: Int) -> Double {
    precondition(v.indices.contains(rank))
    var (lo, hi) = (0, v.count - 1)
    while lo < hi {
        let (x, y, z) = (v[lo], v[(lo + hi) / 2], v[hi])
        let pivot = max(min(x, y), min(max(x, y), z))
        var (i, j) = (lo, hi)
        while i <= j {
            while v[i] < pivot { i += 1 }
            while v[j] > pivot { j -= 1 }
            if i <= j {
                v.swapAt(i, j)
                (i, j) = (i + 1, j - 1)
            }
        }
        // v[lo...j] ≤ pivot ≤ v[i...hi], and everything strictly between j and i equals the pivot.
        if rank <= j { hi = j } else if rank >= i { lo = i } else { return v[rank] }
    }
    return v[rank]
}

/// The normal density with mean `m` and standard deviation `s` at `x`.
@inlinable package func gaussian(_ x: Double, _ m: Double, _ s: Double) -> Double {
    exp(-(x - m) * (x - m) / (2 * s * s)) / (s * (2 * Double.pi).squareRoot())
}
