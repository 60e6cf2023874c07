import Foundation

/// For one corpus × source × space × grouping: every pair of label-free threshold rules compared
/// on the same replicates by ARI (a rule without a threshold on a replicate counts as ARI 0, as in
/// the regret tables). The family for Holm's correction is these pairs.
struct RuleComparisonFamily: Codable, Sendable {
    public var corpus: String
    public var source: String
    public var space: String
    public var grouping: String
    var comparisons: [PairedComparison]

    /// STEM-comparisons.json: the families with the run's provenance and settings.
    struct File: Codable, Sendable {
        public var schemaVersion = 1
        public var provenance: Provenance
        public var settings: AnalysisSettings
        var families: [RuleComparisonFamily]
    }

    /// Every family of `results` (analyses run with replicates).
    public static func all(_ results: AnalysisResults) -> [RuleComparisonFamily] {
        var out: [RuleComparisonFamily] = []
        for a in results.analyses {
            guard let bootstrap = a.replicateBootstrap(seed: results.settings.seed) else { continue }
            for s in a.spaces {
                var groupings: [String] = []
                for g in s.groupings where g.rule != nil && !groupings.contains(g.grouping) { groupings.append(g.grouping) }
                for grouping in groupings {
                    let series = s.groupings.filter { $0.grouping == grouping && !$0.labelInformed && $0.rule != nil }.compactMap {
                        g -> (name: String, values: [Double])? in
                        g.replicateARI.map { (g.rule!, $0.map { $0 ?? 0 }) }
                    }
                    guard series.count >= 2 else { continue }
                    out.append(
                        RuleComparisonFamily(
                            corpus: a.corpus.name, source: a.source, space: s.space, grouping: grouping,
                            comparisons: PairedComparison.family(series, bootstrap: bootstrap)))
                }
            }
        }
        return out
    }

    static let csvColumns = [
        "corpus", "source", "space", "grouping", "rule_a", "rule_b", "ari_difference_mean", "ari_difference_sd", "ari_difference_low",
        "ari_difference_high", "p", "p_holm", "verdict",
    ]

    /// One row per comparison.
    public static func csv(_ families: [RuleComparisonFamily]) -> String {
        var lines = [csvColumns.joined(separator: ",")]
        for f in families {
            for c in f.comparisons {
                let d = c.difference
                lines.append(
                    ([f.corpus, f.source, f.space, f.grouping, c.a, c.b] + [d.mean, d.sd, d.low, d.high, c.p, c.pHolm].map { String($0) }
                        + [c.verdict.rawValue]).map(AnalysisReport.csvField).joined(separator: ","))
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// A table per family: rule a, rule b, ΔARI (a − b) with its interval, p, Holm p and the verdict for a.
    public static func markdown(_ families: [RuleComparisonFamily], title: String) -> String {
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
        return out
    }
}

/// A p-value: three significant digits, or "< 1e-6".
func formatP(_ p: Double) -> String { p < 1e-6 ? "< 1e-6" : String(format: "%.3g", p) }
