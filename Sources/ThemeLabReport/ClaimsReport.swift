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

    package static let csvTable = CSVTable(
        CSVTable.text("claim", "reported", "corpus", "source", "space") + CSVTable.numbers("topics")
            + CSVTable.text("ours", "quantities", "verdict", "why", "key_figure")
            + CSVTable.numbers("key_own_draw", "key_mean", "key_low", "key_high"))

    /// results/claims.csv: one row per claims-table row; the key_ columns are its first quantity as numbers.
    package static func csv(_ rows: [Row]) -> String {
        csvTable.render(
            rows.map { r in
                let f = r.figures.first
                let numbers = [f?.ownDraw, f?.mean, f?.low, f?.high].map { $0.map { String($0) } ?? "" }
                return [r.claim, r.reported, r.corpus, r.source, r.space, r.topics.map(String.init) ?? "", r.ours, r.quantities]
                    + [r.verdict.rawValue, r.reason, f?.name ?? ""] + numbers
            })
    }
}
