import Foundation
import ThemeLabCore
import ThemeLabCorpus
import ThemeLabEncoder
import ThemeLabMeasures
import ThemeLabMethods
import ThemeLabPairs
import ThemeLabStudy

/// The claims table rendered: Markdown and CSV.
extension ClaimsReport {
    /// The claims table, one row per claim × analysis (results/claims.md).
    package static func markdown(_ rows: [Row]) -> String {
        var out =
            "| claim | reported | corpus | source | space | ours | quantities [95% interval] | verdict | why |\n"
            + "|---|---|---|---|---|---|---|---|---|\n"
        for r in rows {
            out +=
                "| \(r.claim) | \(r.reported) | \(r.corpus) | \(r.source) | \(r.space) | \(r.ours) | \(r.quantities) | \(r.verdict) | "
                + "\(r.reason) |\n"
        }
        return out
    }

    package static let csvColumns = [
        "claim", "reported", "corpus", "source", "space", "topics", "ours", "quantities", "verdict", "why", "key_figure",
        "key_own_draw", "key_mean", "key_low", "key_high",
    ]

    /// results/claims.csv: one row per claims-table row; the key_ columns are its first quantity as numbers.
    package static func csv(_ rows: [Row]) -> String {
        let lines = rows.map { r in
            let f = r.figures.first
            let numbers = [f?.ownDraw, f?.mean, f?.low, f?.high].map { $0.map { String($0) } ?? "" }
            return
                ([r.claim, r.reported, r.corpus, r.source, r.space, r.topics.map(String.init) ?? "", r.ours, r.quantities]
                + [r.verdict.rawValue, r.reason, f?.name ?? ""] + numbers).map(AnalysisReport.csvField).joined(separator: ",")
        }
        return ([csvColumns.joined(separator: ",")] + lines).joined(separator: "\n") + "\n"
    }
}
