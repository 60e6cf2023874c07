import Foundation
import ThemeLabCore
import ThemeLabMeasures
import ThemeLabStudy

/// The paired rule comparisons rendered: CSV and Markdown.
extension RuleComparisonFamily {
    package static let csvTable = CSVTable(
        CSVTable.text("corpus", "source", "space", "grouping", "rule_a", "rule_b")
            + CSVTable.numbers("ari_difference_mean", "ari_difference_sd", "ari_difference_low", "ari_difference_high", "p", "p_holm")
            + CSVTable.text("verdict"))

    /// One row per comparison.
    package static func csv(_ families: [RuleComparisonFamily]) -> String {
        var lines = [csvTable.header]
        for f in families {
            for c in f.comparisons {
                let d = c.difference
                lines.append(
                    csvTable.row(
                        [f.corpus, f.source, f.space.description, f.grouping.name, c.a, c.b]
                            + [d.mean, d.sd, d.low, d.high, c.p, c.pHolm].map { String($0) } + [c.verdict.rawValue]))
            }
        }
        return lines.joined()
    }

    /// A table per family: rule a, rule b, ΔARI (a − b) with its interval, p, Holm p and the verdict for a.
    package static func markdown(_ families: [RuleComparisonFamily], title: String) -> String {
        var out = """
            # \(title): paired rule comparisons

            Every pair of label-free rules on the same replicates: mean ARI difference (a − b) with its 95% percentile bootstrap
            interval, the paired t-test's p and Holm's adjustment over the pairs of one table; the verdict (for a) is "better" or
            "worse" when the adjusted p is below \(PairedComparison.alpha), else "indistinguishable".

            """
        for f in families {
            out += "\n## \(f.corpus) — \(f.source), \(f.space) space, \(f.grouping)\n\n| a | b | ΔARI (a − b) | p | Holm p | a is |\n"
            out += "|---|---|---|---|---|---|\n"
            for c in f.comparisons {
                out +=
                    "| \(c.a) | \(c.b) | \(formatShort(c.difference.mean)) \(formatInterval(c.difference)) | \(formatP(c.p)) | "
                    + "\(formatP(c.pHolm)) | \(c.verdict.rawValue) |\n"
            }
        }
        return escapingControlCharacters(out, keepingLineFeeds: true)
    }
}

/// A p-value: three significant digits, or "< 1e-6".
package func formatP(_ p: Double) -> String { p < 1e-6 ? "< 1e-6" : String(format: "%.3g", p) }
