import Foundation
import ThemeLabCore
import ThemeLabMeasures
import ThemeLabMethods
import ThemeLabStudy

/// Regret and the suggested default for any experiment's labelled corpora, under the procedure `reproduce` applies to
/// its study (`Recommendation`): STEM-regret.md and STEM-recommendation.json beside the results. The tables (with their
/// bootstrap intervals) are computed once, here.
package struct ExperimentRegret {
    /// The regret tables of each space that has any (`AnalysisResults.regretTables`).
    package let tables: [(space: EmbeddingSpace, tables: [RegretTable])]
    /// The space the suggested default is chosen in: centred when the experiment ran it (the journal method's space), else the first.
    package let space: EmbeddingSpace
    /// The suggested default over every labelled corpus of the experiment, in `space`.
    package let recommendation: Recommendation
    /// Run to run, in `space`.
    package let reruns: RerunSummary

    /// Nil when no space has a table (no labelled corpus, or no rule).
    package init?(_ results: AnalysisResults) {
        tables = results.regretTables()
        guard let chosen = tables.first(where: { $0.space == .centred }) ?? tables.first else { return nil }
        space = chosen.space
        recommendation = Recommendation(study: chosen.tables, tuning: [], subset: { _ in true })
        reruns = RerunSummary(results.analyses, settings: results.settings, space: chosen.space)
    }

    /// STEM-regret.md: how regret is measured, the suggested default, then every table.
    package func markdown(title: String) -> String {
        var out = "# \(title): regret of each rule and the suggested default\n\n" + Self.definition
        out += "\n## Suggested default (\(space) space)\n\n" + recommendation.experimentMarkdown()
        if let rerun = reruns.markdown() { out += "\n## Run to run (\(space) space)\n\n" + rerun }
        for (space, tables) in tables {
            out += "\n## \(space) space\n"
            for t in tables {
                let against = t.ownCuts.contains(t.grouping) ? " against its own best parameter" : ""
                out += "\n### \(t.grouping)\(against)\n\n" + t.markdown()
            }
        }
        return escapingControlCharacters(withOutsideNote(out), keepingLineFeeds: true)
    }

    /// STEM-recommendation.json's content (`space` named when it is not centred), nil without a candidate.
    package func file(study: String) -> RecommendationFile? {
        guard var file = recommendation.file(study: study) else { return nil }
        file.space = space == .centred ? nil : space.description
        return file
    }

    static let definition = """
        Regret of a rule = the grouping's best ARI over every threshold (or, for a grouping that chooses its own cuts, over
        its parameter) † − the rule's ARI on the same corpus; a rule with no threshold counts as ARI 0. The worst case is
        the largest regret relative to the ceiling over the corpora whose ceiling ARI is at least 0.1. With replicates a
        cell is the mean regret over them with its 95% interval and the own draw beside it, and the worst case's bounds
        are the largest interval ends over the corpora. The suggested default is chosen as `themelab reproduce` chooses
        it (docs/uncertainty.md): the smallest upper bound of the worst case decides, the own draws only break a tie;
        without replicates (one draw: no interval) the own draws decide and the 10% target is not judged. These corpora
        are the experiment's own: a default chosen on them is tuned to them; check it on corpora kept aside.

        """
}

extension AnalysisResults {
    /// The regret tables per space: each threshold grouping against its best threshold (the groupings that choose their
    /// own cuts as extra columns of average linkage's, else of the first's), then each of those against its own best
    /// parameter; none without labels.
    package func regretTables() -> [(space: EmbeddingSpace, tables: [RegretTable])] {
        let threshold = settings.groupings.filter { $0.kind == .threshold }.map(\.key)
        let host = threshold.contains(AverageLinkageCut().key) ? AverageLinkageCut().key : threshold.first
        return settings.spaces.compactMap { space in
            let tables = RegretTable.tables(analyses, settings: settings, space: space, groupings: threshold, host: host)
            return tables.isEmpty ? nil : (space, tables)
        }
    }
}

extension Recommendation {
    /// The suggested default in one paragraph: its worst case, those indistinguishable from it, and the 10% target.
    package func experimentMarkdown() -> String {
        guard let best else { return "No rule has a worst case here (no corpus has a ceiling ARI of 0.1 or more).\n" }
        let w = best.all
        return "**\(name(best))**: worst-case regret at the own draws \(formatShort(w.regret)) (\(formatOwnRelative(w)) of the "
            + "ceiling\(w.relativeHigh == nil ? "; one draw: no interval" : formatBounds(w)), on \(w.corpus)). "
            + (w.relativeHigh == nil ? "" : "Indistinguishable from it: \(named(alongside(best, \.all), \.all)). ")
            + targetVerdict() + ".\n"
    }
}
