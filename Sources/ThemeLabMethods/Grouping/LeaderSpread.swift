import ThemeLabCore
import ThemeLabMeasures
import ThemeLabPairs

/// The leader grouping's groups and recovery over seeded shuffles of its visiting order.
package struct LeaderSpread: Codable, Sendable, Equatable {
    package struct Summary: Codable, Sendable, Equatable {
        package var mean: Double, std: Double, min: Double, max: Double
        package init(_ v: [Double]) {
            precondition(!v.isEmpty, "a spread over no shuffles")
            mean = v.reduce(0, +) / Double(v.count)
            let m = mean
            std = (v.reduce(0) { $0 + ($1 - m) * ($1 - m) } / Double(v.count)).squareRoot()
            min = v.reduce(.infinity, Swift.min)
            max = v.reduce(-.infinity, Swift.max)
        }
    }
    package var shuffles: Int
    package var groups: Summary
    package var ari: Summary?
    package var nmi: Summary?
    package var pairF1: Summary?
}
