import Foundation

/// Four decimals, the precision the reports print similarities at.
package func formatFigure(_ x: Double) -> String { x.isFinite ? String(format: "%.4f", x) : "n/a" }

/// Three decimals, for summary tables and legends; "n/a" for a missing value.
package func formatShort(_ x: Double?) -> String { x.map { String(format: "%.3f", $0) } ?? "n/a" }

/// An estimate's 95% interval as "[low, high]" (three decimals); empty without one.
package func formatInterval(_ e: Estimate?) -> String { e.map { "[\(formatShort($0.low)), \(formatShort($0.high))]" } ?? "" }

/// The corpus's own figure `own` alone, or with replicates the mean they estimate, its interval and `own` labelled:
/// "0.644 [0.551, 0.702] (own draw 0.620)". The bracket brackets the mean, never the own draw.
package func withInterval(_ own: String, _ e: Estimate?) -> String {
    guard let e else { return own }
    return "\(formatShort(e.mean)) \(formatInterval(e)) (own draw \(own))"
}

/// A figure and, when replicates were run, the mean over them with its interval (`withInterval`).
package func formatShort(_ x: Double?, _ e: Estimate?) -> String { withInterval(formatShort(x), e) }
