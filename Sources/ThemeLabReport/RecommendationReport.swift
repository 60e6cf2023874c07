import Foundation
import ThemeLabCore
import ThemeLabMeasures
import ThemeLabStudy

/// The recommendation rendered: REPORT.md's subsection with the procedure, the suggested default, those
/// indistinguishable from it and whether the target is met.
extension Recommendation {
    /// "rule with grouping", or a grouping that cuts itself with the ceiling it is measured against.
    func name(_ c: Candidate, bold: Bool = false) -> String {
        let rule = bold ? "**\(c.rule)**" : c.rule.description
        return c.rule.ownCuts != nil
            ? "\(rule) (its own cuts, against \(c.grouping)'s best threshold)" : "\(rule) with \(c.grouping)"
    }

    /// Writes a candidate's worst-case regret on all corpora, without the domain level, and on the tuning corpora.
    func describe(_ c: Candidate) -> String {
        let tuned = tuning.first { $0.grouping == c.grouping }?.worst(c.rule)
        return "\(name(c, bold: true)): worst-case regret at the own draws \(formatShort(c.all.regret)) "
            + "(\(formatOwnRelative(c.all)) of the ceiling\(formatBounds(c.all)), on \(c.all.corpus)); without the domain level "
            + "\(formatShort(c.subset.regret)) (\(formatOwnRelative(c.subset))\(formatBounds(c.subset)), on \(c.subset.corpus))"
            + (tuned.map { "; on the tuning corpora \(formatShort($0.regret)) (\(formatPercent($0.relative)), on \($0.corpus))" } ?? "")
    }

    /// Writes a list of candidates with their worst case, or why there are none.
    func named(_ list: [Candidate], _ worst: (Candidate) -> RegretTable.Worst) -> String {
        list.isEmpty
            ? "none: every other rule's worst-case lower bound is above that upper bound"
            : list.map { "\(name($0)) (own draw \(formatOwnRelative(worst($0)))\(formatBounds(worst($0))))" }
                .joined(separator: "; ")
    }

    /// "The target (…) is met" or "not met": the rule of the procedure, the upper bound; where the bound meets the target
    /// but the worst own draw does not, that draw is named (the full corpus is not a draw of the replicates' kind).
    func targetVerdict(naming: Bool = false) -> String {
        let target = "the target (the worst case's upper 95% bound ≤ 10% of the ceiling on every corpus)"
        guard hasBounds else { return "One draw: no interval, so \(target) is not judged here (run replicates to judge it)" }
        let opening = "The \(target.dropFirst(4)) is "
        guard targetMet, let best else { return opening + "not met" + (naming ? " by any rule and grouping here" : "") }
        let ownDraw = best.all.relative
        return opening + "met" + (naming ? " by \(name(best))" : "")
            + (ownDraw > RecommendationFile.target
                ? " (its worst own draw, \(formatPercent(ownDraw)), is above it: the bound decides)" : "")
    }

    /// Writes the recommendation subsection: the procedure, the suggested default (and without the domain level, if it
    /// differs) and whether the target is met; nothing without candidates.
    func markdown() -> String {
        guard let best, let bestSubset = bestWithoutTheSubset else { return "" }
        var out = """

            Procedure (stated before the replicates were run): the suggested default is the grouping × rule whose worst-case
            relative regret has the smallest upper 95% bound (the largest upper bound over the corpora); every other grouping ×
            rule whose worst-case lower bound is not above that bound is indistinguishable from it and named alongside. Bounds are
            per corpus (percentile bootstrap over replicates) and the worst case takes the largest of each. The bounds decide;
            the own draws (each whole corpus) stand beside them and only break a tie between equal bounds. The tables it rests
            on are in [regret.md](regret.md).

            Suggested default, all corpora: \(describe(best)). Indistinguishable from it: \(named(alongside(best, \.all), \.all)).

            """
        if bestSubset.rule != best.rule || bestSubset.grouping != best.grouping {
            out +=
                "Without the domain level: " + describe(bestSubset) + ". Indistinguishable from it: "
                + named(alongside(bestSubset, \.subset), \.subset) + ".\n"
        }
        out += "\n" + targetVerdict(naming: true) + ".\n"
        out +=
            "\nChoosing the level without labels (internal criteria, stability) and the clustering users would otherwise run "
            + "(BERTopic's default pipeline, k-means at the true k) on the same vectors: [docs/choosing-the-level.md]"
            + "(../docs/choosing-the-level.md), [bench/peer-clustering.md](bench/peer-clustering.md).\n"
        return out
    }
}
