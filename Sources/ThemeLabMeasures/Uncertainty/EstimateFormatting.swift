import Foundation

/// Four decimals, the precision the reports print similarities at.
package func formatFigure(_ x: Double) -> String { x.isFinite ? String(format: "%.4f", x) : "n/a" }

/// Three decimals, for summary tables and legends; "n/a" for a missing value.
package func formatShort(_ x: Double?) -> String { x.map { String(format: "%.3f", $0) } ?? "n/a" }

/// An estimate's 95% interval as "[low, high]" (three decimals); empty without one.
package func formatInterval(_ e: Estimate?) -> String { e.map { "[\(formatShort($0.low)), \(formatShort($0.high))]" } ?? "" }

/// The corpus's own figure `own` alone, or with replicates the mean they estimate, its interval and `own` labelled:
/// "0.644 [0.551, 0.702] (own draw 0.620)". The bracket brackets the mean, never the own draw; an own draw `value` outside
/// it is marked (`outsideMark`): "0.480 [0.460, 0.500] (own draw 0.050 ‡)".
package func withInterval(_ own: String, _ e: Estimate?, value: Double? = nil) -> String {
    guard let e else { return own }
    return "\(formatShort(e.mean)) \(formatInterval(e)) (own draw \(own)\(isOutside(value, e.low, e.high) ? " \(outsideMark)" : ""))"
}

/// A figure and, when replicates were run, the mean over them with its interval (`withInterval`).
package func formatShort(_ x: Double?, _ e: Estimate?) -> String { withInterval(formatShort(x), e, value: x) }

/// The mark of an own draw that lies outside the replicate interval shown beside it.
package let outsideMark = "‡"

/// Whether `value` lies outside [low, high] (false when any is missing).
package func isOutside(_ value: Double?, _ low: Double?, _ high: Double?) -> Bool {
    guard let value, let low, let high else { return false }
    return value < low || value > high
}

/// What `outsideMark` means, said once at the foot of a page that shows it; the page unchanged when it shows none.
package func withOutsideNote(_ page: String) -> String {
    guard page.contains(outsideMark) else { return page }
    return page + "\n" + outsideNote + "\n"
}

/// Why an own draw can lie outside its interval.
package let outsideNote = """
    \(outsideMark) The own draw (the whole corpus) lies outside the 95% interval beside it. That interval bounds the mean over \
    the replicates, each a stratified subsample of a fixed corpus (80% of each topic in the study's experiments) or a \
    fresh draw of a sampled one; it does not bound any single draw, and the whole corpus is none of them. A figure that \
    moves with the corpus's size (a ceiling, a group count, a rule's threshold and the groups it cuts) can sit apart from \
    its replicates for that reason alone.
    """
