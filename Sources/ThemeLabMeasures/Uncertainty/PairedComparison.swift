import Foundation
import ThemeLabCore
import ThemeLabPairs

/// Two rules compared on the same replicates: the mean paired difference a − b, its percentile
/// bootstrap interval, the paired t-test's two-sided p-value (`scipy.stats.ttest_rel`), the
/// Holm-adjusted p-value within its family, and the verdict at α = 0.05 after adjustment.
package struct PairedComparison: Codable, Sendable, Equatable {
    package enum Verdict: String, Codable, Sendable { case better, worse, indistinguishable }

    package var a: String
    package var b: String
    package var difference: Estimate
    package var p: Double
    package var pHolm: Double
    package var verdict: Verdict

    package static let alpha = 0.05

    /// Every pair (i < j) of `series` (name, one value per replicate), with Holm's correction
    /// over the family of all these pairs.
    package static func family(_ series: [(name: String, values: [Double])], bootstrap: PercentileBootstrap) -> [PairedComparison] {
        var out: [PairedComparison] = []
        for i in series.indices {
            for j in series.indices where j > i {
                let d = zip(series[i].values, series[j].values).map { $0 - $1 }
                out.append(
                    PairedComparison(
                        a: series[i].name, b: series[j].name, difference: bootstrap.estimate(d), p: pairedTTest(d), pHolm: 1,
                        verdict: .indistinguishable))
            }
        }
        for (k, adjusted) in holm(out.map(\.p)).enumerated() {
            out[k].pHolm = adjusted
            if adjusted < alpha { out[k].verdict = out[k].difference.mean > 0 ? .better : .worse }
        }
        return out
    }
}

/// Two-sided p-value of the one-sample t-test that the mean of `d` is 0 (the paired t-test on
/// differences; scipy.stats.ttest_rel). Differences that are all 0 give 1; a nonzero constant gives 0.
package func pairedTTest(_ d: [Double]) -> Double {
    let n = Double(d.count)
    guard d.count >= 2 else { return 1 }
    if d.allSatisfy({ $0 == d[0] }) { return d[0] == 0 ? 1 : 0 }
    let mean = d.reduce(0, +) / n
    let variance = d.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / (n - 1)
    let t = mean / (variance / n).squareRoot()
    let nu = n - 1
    return regularizedIncompleteBeta(nu / 2, 0.5, nu / (nu + t * t))
}

/// Holm's step-down adjustment (Holm 1979; statsmodels `multipletests(method="holm")`): with
/// p sorted ascending, adjusted p₍ᵢ₎ = max over j ≤ i of min(1, (m − j + 1)·p₍ⱼ₎), in input order.
package func holm(_ p: [Double]) -> [Double] {
    let m = p.count
    let order = p.indices.sorted { (p[$0], $0) < (p[$1], $1) }
    var adjusted = [Double](repeating: 1, count: m)
    var running = 0.0
    for (rank, i) in order.enumerated() {
        running = max(running, min(1, Double(m - rank) * p[i]))
        adjusted[i] = running
    }
    return adjusted
}

/// I_x(a, b), the regularized incomplete beta function, by Lentz's continued fraction
/// (Numerical Recipes §6.4); absolute error below 1e-14 for the t-test's arguments.
package func regularizedIncompleteBeta(_ a: Double, _ b: Double, _ x: Double) -> Double {
    if x <= 0 { return 0 }
    if x >= 1 { return 1 }
    // The fraction converges fast for x < (a + 1)/(a + b + 2); use the symmetry I_x(a,b) = 1 − I_{1−x}(b,a) otherwise.
    if x > (a + 1) / (a + b + 2) { return 1 - regularizedIncompleteBeta(b, a, 1 - x) }
    let logFront: Double = lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) + b * log(1 - x)
    let front = exp(logFront)
    let tiny = 1e-300
    var c = 1.0
    var d = 1 - (a + b) * x / (a + 1)
    d = 1 / (abs(d) < tiny ? tiny : d)
    var f = d
    for m in 1...300 {
        let m = Double(m)
        let even: Double = m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m))
        let odd: Double = -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1))
        for numerator in [even, odd] {
            d = 1 + numerator * d
            d = 1 / (abs(d) < tiny ? tiny : d)
            c = 1 + numerator / c
            if abs(c) < tiny { c = tiny }
            f *= c * d
        }
        if abs(c * d - 1) < 1e-16 { break }
    }
    return front * f / a
}
