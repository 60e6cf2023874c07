import Foundation
import ThemeLabCore
import ThemeLabCorpus
import ThemeLabEncoder
import ThemeLabMeasures
import ThemeLabMethods
import ThemeLabPairs
import ThemeLabStudy

/// A regret table rendered: Markdown and a plot.
extension RegretTable {
    /// Corpus rows, then the worst case over all rows and, when given, over `subset` (a label and a filter).
    package func markdown(subset: (label: String, include: (Row) -> Bool)? = nil) -> String {
        let searched = rows.first?.ceiling.parameter ?? "threshold"
        var out =
            "| corpus | topics | related share | ceiling ARI † (\(searched)) | " + rules.map(\.description).joined(separator: " | ")
            + " |\n"
        out += "|---|---|---|---|" + String(repeating: "---|", count: rules.count) + "\n"
        for r in rows {
            let best = rules.compactMap { r.regret[$0] }.min()
            let at = r.ceiling.parameter == nil ? formatShort(r.ceiling.threshold) : formatArgument(r.ceiling.threshold)
            out +=
                "| \(r.corpus) | \(r.topics) | \(r.relatedShare.map { String(format: "%.2f%%", 100 * $0) } ?? "n/a") | "
                + "\(formatShort(r.ceiling.ari)) (\(at)) | "
                + rules.map { rule in
                    r.regret[rule].map {
                        withInterval($0 == best ? "**\(formatShort($0))**" : formatShort($0), r.regretEstimate[rule], value: $0)
                    }
                        ?? "n/a"
                }.joined(separator: " | ") + " |\n"
        }
        for (label, include) in [("all corpora", { (_: Row) in true })] + (subset.map { [$0] } ?? []) {
            out +=
                "| **worst, \(label)** | | | | "
                + rules.map { rule in
                    worst(rule, where: include).map(formatWorst)
                        ?? "n/a"
                }.joined(separator: " | ") + " |\n"
        }
        return out
    }

    /// The worst regret at each number of topics (log axis), one line per rule, with a band from the
    /// largest lower to the largest upper interval bound there (replicates); the rules that read only
    /// the all-pairs distribution are dashed, the neighbour and dendrogram rules solid.
    package func plot() -> String {
        let topicCounts = Set(rows.map(\.topics)).sorted()
        var styles = MethodColours.Figure()
        let series = rules.map { rule in
            let readsMore = localRules.contains(rule)
            let band = topicCounts.compactMap { t -> (x: Double, low: Double, high: Double)? in
                let e = rows.filter { $0.topics == t }.map { $0.regretEstimate[rule] }
                guard !e.isEmpty, e.allSatisfy({ $0 != nil }) else { return nil }
                return (Double(max(t, 1)), e.map { $0!.low }.max()!, e.map { $0!.high }.max()!)
            }
            return SVGPlot.Series(
                label: rule.description,
                points: topicCounts.compactMap { t in
                    rows.filter { $0.topics == t }.compactMap { $0.regret[rule] }.max().map { (x: Double(max(t, 1)), y: $0) }
                }, dashed: !readsMore, band: band, style: style(rule, &styles, dashed: !readsMore))
        }
        return SVGPlot.lines(
            title: "Worst regret at each topic count — \(grouping), centred space"
                + (rows.contains { !$0.regretEstimate.isEmpty } ? " (lines: own draws; bands: 95% intervals)" : ""),
            xLabel: "topics in the corpus",
            yLabel: "ceiling ARI − rule ARI (worst corpus)", series: series, logX: true)
    }
}

/// A column's style in the regret plot: its method's colour and marker, dashed when it reads only the all-pairs
/// distribution, solid otherwise.
private func style(_ column: RegretTable.Column, _ styles: inout MethodColours.Figure, dashed: Bool) -> MethodColours.Style {
    var s = column.rule.map { styles.style($0) } ?? styles.style(column.ownCuts!)
    s.dash = dashed ? (s.dash.isEmpty ? "6 3" : s.dash) : ""
    return s
}

/// A share as a whole percentage: "59%".
package func formatPercent(_ x: Double) -> String { String(format: "%.0f%%", 100 * x) }

/// The bounds of a worst case's relative regret to a tenth of a percent (the largest lower and upper interval ends over
/// the corpora; the default is chosen by the upper), ", bounds [51.2%, 66.0%]"; empty without replicates.
package func formatBounds(_ w: RegretTable.Worst) -> String {
    guard let low = w.relativeLow, let high = w.relativeHigh else { return "" }
    return String(format: ", bounds [%.1f%%, %.1f%%]", 100 * low, 100 * high)
}

/// A worst case at the corpora's own draws, labelled as such when bounds follow: "own draw 0.661 (88% ‡, bounds [52.3%, 62.5%])".
package func formatWorst(_ w: RegretTable.Worst) -> String {
    (w.relativeLow == nil ? "" : "own draw ") + "\(formatShort(w.regret)) (\(formatOwnRelative(w))\(formatBounds(w)))"
}

/// A worst case's relative regret at the own draws, "88%", marked when it lies outside the replicates' bounds: "88% ‡".
package func formatOwnRelative(_ w: RegretTable.Worst) -> String {
    formatPercent(w.relative) + (isOutside(w.relative, w.relativeLow, w.relativeHigh) ? " \(outsideMark)" : "")
}
