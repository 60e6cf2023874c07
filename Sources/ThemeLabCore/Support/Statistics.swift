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

/// The normal density with mean `m` and standard deviation `s` at `x`.
@inlinable package func gaussian(_ x: Double, _ m: Double, _ s: Double) -> Double {
    exp(-(x - m) * (x - m) / (2 * s * s)) / (s * (2 * Double.pi).squareRoot())
}
