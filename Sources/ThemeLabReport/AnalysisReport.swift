import Foundation
import ThemeLabCore
import ThemeLabCorpus
import ThemeLabEncoder
import ThemeLabMeasures
import ThemeLabMethods
import ThemeLabPairs
import ThemeLabStudy

/// Markdown and tidy CSV renderings of analyses.
package enum AnalysisReport {
    /// One section per corpus × source: distributions, separation, and the threshold × grouping
    /// table (ARI, pair F1 and group count per cell; the best ARI per grouping in bold, among
    /// label-free rules, by the replicate mean when there are replicates; label-informed rows marked †).
    package static func markdown(_ a: CorpusAnalysis, heading: String = "##") -> String {
        var out = "\(heading) \(a.corpus.name) — \(a.source)\n\n"
        out += "\(a.corpus.items) items"
        if let k = a.corpus.topics { out += ", \(k) topics" }
        if let share = a.corpus.relatedPairShare { out += ", related pairs \(String(format: "%.2f", 100 * share))% of all pairs" }
        out += ", d = \(a.dimensions).\n"
        if let r = a.replicates {
            out +=
                "\nReplicates: \(r.count) (\(r.scheme); \(formatCount(r.items.mean)) items on average). A figure followed by a "
                + "bracket is the mean over the replicates, the bracket the \(r.interval); \"own draw\" and every figure without a "
                + "bracket are this corpus's own.\n"
        }
        for note in a.notes { out += "\nNote: \(note).\n" }
        for s in a.spaces { out += "\n" + space(s, heading: heading + "#") }
        return out
    }

    package static func space(_ s: SpaceAnalysis, heading: String) -> String {
        var out = "\(heading) \(s.space) space\n\nDistribution of pair similarities (quantiles: \(s.quantileMethod)):\n\n"
        out += distributionTable(s.statistics)
        out += separationLine(s)
        out += thresholdTable(s)
        out += ownCutsLine(s)
        out += referencesLine(s)
        out += ceilingsLine(s)
        out += leaderShufflesLine(s)
        return out
    }

    /// Writes the separation figures (AUC, d′, bands), or nothing without labels.
    private static func separationLine(_ s: SpaceAnalysis) -> String {
        guard let sep = s.separation else { return "" }
        func figure(_ f: Separation.Figure) -> String { formatShort(sep.value(f), s.replicateSeparation?[f]) }
        return
            "\nSeparation: AUC \(figure(.auc)), d′ \(figure(.dPrime)), unrelated band (p99 − p1) \(figure(.bandWidth)), "
            + "per-topic band median \(figure(.topicBandMedian)), max \(figure(.topicBandMax)).\n"
    }

    /// Writes the threshold × grouping table: one row per threshold rule, one column per grouping that takes a threshold.
    private static func thresholdTable(_ s: SpaceAnalysis) -> String {
        var groupings: [GroupingKey] = []
        for g in s.groupings where g.rule != nil && !groupings.contains(g.grouping) { groupings.append(g.grouping) }
        var out = "\n| rule | threshold | " + groupings.map { "\($0): ARI / pair F1 / groups" }.joined(separator: " | ") + " |\n"
        out += "|---|---|" + String(repeating: "---|", count: groupings.count) + "\n"
        var best: [GroupingKey: Double] = [:]
        for g in s.groupings where !g.labelInformed && g.rule != nil {
            if let ari = rankedARI(g) { best[g.grouping] = max(best[g.grouping] ?? -.infinity, ari) }
        }
        for t in s.thresholds { out += thresholdRow(t, s, groupings: groupings, best: best) }
        return out
    }

    /// Writes one threshold rule's row: its threshold, then a cell per grouping (bold where it is that grouping's best ARI).
    private static func thresholdRow(
        _ t: ThresholdOutcome, _ s: SpaceAnalysis, groupings: [GroupingKey], best: [GroupingKey: Double]
    ) -> String {
        var cells: [String] = []
        for g in groupings {
            guard let o = s.groupings.first(where: { $0.grouping == g && $0.rule == t.rule }) else {
                cells.append("")
                continue
            }
            cells.append(cell(o, bold: !o.labelInformed && rankedARI(o) == best[g]))
        }
        return
            "| \(t.rule)\(t.labelInformed ? " †" : "") | \(withInterval(t.value.map(formatFigure) ?? "n/a", t.replicates)) | "
            + cells.joined(separator: " | ")
            + " |\n"
    }

    /// Writes the groupings that choose their own cuts, with their noise share, or nothing if there are none.
    private static func ownCutsLine(_ s: SpaceAnalysis) -> String {
        let ownCuts = s.groupings.filter { $0.rule == nil && !$0.labelInformed }
        guard !ownCuts.isEmpty else { return "" }
        return
            "\nGroupings that choose their own cuts (ARI / pair F1 / groups; noise counted as one group per item): "
            + ownCuts.map { g in
                "\(g.grouping) \(cell(g, bold: false))"
                    + (g.noise.map { n in
                        ", noise \(formatPercent(n.share))"
                            + (n.recoveryExcludingNoise.map { " (ARI without it \(formatFigure($0.ari)))" } ?? "")
                    } ?? "")
            }.joined(separator: "; ") + ".\n"
    }

    /// Writes the label-informed references (k = number of topics), or nothing if there are none.
    private static func referencesLine(_ s: SpaceAnalysis) -> String {
        let references = s.groupings.filter { $0.rule == nil && $0.labelInformed }
        guard !references.isEmpty else { return "" }
        return
            "\nLabel-informed references (k = number of topics) †: "
            + references.map { "\($0.grouping) \(cell($0, bold: false))" }.joined(separator: "; ") + ".\n"
    }

    /// Writes each grouping's best threshold or parameter (the regret ceiling), or nothing if none was searched.
    private static func ceilingsLine(_ s: SpaceAnalysis) -> String {
        guard let ceilings = s.ceilings, !ceilings.isEmpty else { return "" }
        return
            "\nBest threshold (or parameter) per grouping † (regret of a rule = this ARI − its ARI): "
            + ceilings.map {
                "\($0.grouping) ARI \(withInterval(formatFigure($0.ari), $0.replicates)) at "
                    + ($0.parameter.map { p in "\(p) = " } ?? "")
                    + ($0.parameter == nil ? formatFigure($0.threshold) : formatArgument($0.threshold))
                    + ", \($0.groups) groups (\($0.search))"
            }
            .joined(separator: "; ") + ".\n"
    }

    /// Writes leader's ARI spread over seeded shuffles of the visiting order, or nothing if no shuffles were run.
    private static func leaderShufflesLine(_ s: SpaceAnalysis) -> String {
        guard s.groupings.contains(where: { $0.spread != nil && $0.spread?.ari != nil }) else { return "" }
        return
            "\nLeader over seeded shuffles of the visiting order (ARI mean ± std [min, max]): "
            + s.groupings.compactMap { g -> String? in
                guard let a = g.spread?.ari, let r = g.rule else { return nil }
                return "\(r) \(formatFigure(a.mean)) ± \(formatFigure(a.std)) [\(formatFigure(a.min)), \(formatFigure(a.max))]"
            }.joined(separator: "; ") + ".\n"
    }

    /// The ARI a table ranks a cell by: the mean over replicates when there are replicates, else the corpus's own.
    static func rankedARI(_ o: GroupingOutcome) -> Double? { o.replicates?[.ari]?.mean ?? o.recovery?.ari }

    package static func cell(_ o: GroupingOutcome, bold: Bool) -> String {
        if let note = o.note, o.groups == nil { return "n/a (\(note))" }
        guard let r = o.recovery else { return o.groups.map { "\($0) groups" } ?? "n/a" }
        // Bold marks the figure the table ranks by: the replicate mean when there is one, else the own draw.
        func marked(_ text: String) -> String { bold ? "**\(text)**" : text }
        let ari =
            o.replicates?[.ari].map { "\(marked(formatShort($0.mean))) \(formatInterval($0)) (own draw \(formatFigure(r.ari)))" }
            ?? marked(formatFigure(r.ari))
        return "\(ari) / \(r.pairF1.map(formatFigure) ?? "n/a") / \(r.groups)"
    }

    /// The tidy CSV's columns: names are text, every figure a number.
    package static let csvTable = CSVTable(
        CSVTable.text("corpus", "source", "space", "rule") + CSVTable.numbers("threshold") + CSVTable.text("grouping")
            + CSVTable.numbers(["label_informed"] + Metric.recovery.map(\.rawValue))
            + CSVTable.numbers("leader_shuffles_ari_mean", "leader_shuffles_ari_std", "replicates")
            + CSVTable.numbers(
                (["threshold"] + Metric.recovery.map(\.rawValue)).flatMap { m in
                    ["mean", "sd", "low", "high"].map { "\(m)_replicate_\($0)" }
                })
            + CSVTable.numbers("noise_share", "ari_without_noise"))

    /// One row per corpus × source × space × threshold rule × grouping; rule "k=topics" for the
    /// label-informed references, empty for groupings that choose their own cuts.
    package static func tidyCSV(_ analyses: [CorpusAnalysis]) -> String {
        var lines = [csvTable.header]
        for a in analyses {
            for s in a.spaces {
                for g in s.groupings {
                    var fields = [
                        a.corpus.name, a.source, s.space.description, g.rule?.name ?? (g.labelInformed ? "k=topics" : ""),
                        g.threshold.map { String($0) } ?? "",
                        g.grouping.name, g.labelInformed ? "true" : "false", g.groups.map(String.init) ?? "",
                    ]
                    let metrics =
                        g.recovery.map { r in Metric.recovery.dropFirst().map { r.value($0).map { String($0) } ?? "" } }
                        ?? Array(repeating: "", count: Metric.recovery.count - 1)
                    fields += metrics
                    fields += [g.spread?.ari.map { String($0.mean) } ?? "", g.spread?.ari.map { String($0.std) } ?? ""]
                    fields.append(a.replicates.map { String($0.count) } ?? "")
                    let threshold = s.thresholds.first { $0.rule == g.rule }?.replicates
                    for e in [threshold] + Metric.recovery.map({ g.replicates?[$0] }) {
                        fields += e.map { [$0.mean, $0.sd, $0.low, $0.high].map { String($0) } } ?? ["", "", "", ""]
                    }
                    fields += [
                        g.noise.map { String($0.share) } ?? (g.groups != nil && g.rule == nil && !g.labelInformed ? "0" : ""),
                        g.noise?.recoveryExcludingNoise.map { String($0.ari) } ?? "",
                    ]
                    lines.append(csvTable.row(fields))
                }
            }
        }
        return lines.joined()
    }
}
