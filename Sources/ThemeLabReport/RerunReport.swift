import ThemeLabCore
import ThemeLabMeasures
import ThemeLabStudy

/// Run to run: how far each grouping that depends on the visiting order or a seed agrees with itself rerun under
/// another of each (`GroupingOutcome.rerunARI`, the corpora's own draws), one row per grouping and rule.
package struct RerunSummary {
    package struct Row {
        package var grouping: GroupingKey
        package var rule: RuleKey?
        /// Each corpus's rerun ARI, in corpus order.
        package var values: [(corpus: String, ari: Double)]
    }
    package let rows: [Row]

    /// The rows in the order of `settings`' groupings, then rules.
    package init(_ analyses: [CorpusAnalysis], settings: AnalysisSettings, space: EmbeddingSpace) {
        var rows: [Row] = []
        for a in analyses {
            for o in a.spaces.first(where: { $0.space == space })?.groupings ?? [] {
                guard let ari = o.rerunARI else { continue }
                if let k = rows.firstIndex(where: { $0.grouping == o.grouping && $0.rule == o.rule }) {
                    rows[k].values.append((a.corpus.name, ari))
                } else {
                    rows.append(Row(grouping: o.grouping, rule: o.rule, values: [(a.corpus.name, ari)]))
                }
            }
        }
        let groupings = settings.groupings.map(\.key)
        let rules = settings.rules.map(\.key)
        func place(_ r: Row) -> (Int, Int) {
            (groupings.firstIndex(of: r.grouping) ?? groupings.count, r.rule.flatMap { rules.firstIndex(of: $0) } ?? -1)
        }
        self.rows = rows.sorted { place($0) < place($1) }
    }

    /// The table, or nil when no grouping here depends on order or a seed.
    package func markdown() -> String? {
        guard !rows.isEmpty else { return nil }
        var out =
            "Each grouping that depends on the visiting order or a seed, run again on the same vectors in a seeded shuffle of "
            + "the order with the next seed: the ARI between the two partitions (1: the same partition), over the corpora's "
            + "own draws. The other groupings are functions of the vectors alone.\n\n"
            + "| grouping | rule | median | worst | where | corpora |\n|---|---|---|---|---|---|\n"
        for r in rows {
            let worst = r.values.min { ($0.ari, $0.corpus) < ($1.ari, $1.corpus) }!
            out +=
                "| \(r.grouping) | \(r.rule.map { "\($0)" } ?? "its own cuts") | \(formatShort(median(r.values.map(\.ari)))) | "
                + "\(formatShort(worst.ari)) | "
                + "\(worst.corpus) | \(r.values.count) |\n"
        }
        return out
    }
}
