import Foundation
import ThemeLabCore
import ThemeLabMeasures
import ThemeLabMethods

/// The study's headline decision: the suggested default is the grouping × rule whose worst-case relative regret has the
/// smallest upper 95% bound over the study's corpora; every other grouping × rule whose worst-case lower bound is not
/// above that bound is indistinguishable from it; the target is met when that upper bound is at most 10%.
package struct Recommendation: Sendable {
    package typealias Candidate = (grouping: GroupingKey, rule: RegretTable.Column, all: RegretTable.Worst, subset: RegretTable.Worst)
    /// Every rule of every threshold grouping with its worst case over all corpora and over the coarse-label subset.
    package var candidates: [Candidate] = []
    /// The tables of the tuning experiment, for each candidate's worst case there.
    package var tuning: [RegretTable]

    /// The candidates of the study's threshold groupings' tables; `subset` keeps the corpora of the second worst case.
    package init(study: [RegretTable], tuning: [RegretTable], subset: (RegretTable.Row) -> Bool) {
        self.tuning = tuning
        for table in study where !table.ownCuts.contains(table.grouping) {
            for rule in table.rules {
                if let all = table.worst(rule), let part = table.worst(rule, where: subset) {
                    candidates.append((table.grouping, rule, all, part))
                }
            }
        }
    }

    // The procedure: smallest upper bound of the worst case (the point worst case without replicates).
    package func upper(_ w: RegretTable.Worst) -> Double { w.relativeHigh ?? w.relative }
    package func lower(_ w: RegretTable.Worst) -> Double { w.relativeLow ?? w.relative }

    /// The other candidates whose worst-case lower bound is not above `best`'s upper bound, by upper bound.
    package func alongside(_ best: Candidate, _ worst: (Candidate) -> RegretTable.Worst) -> [Candidate] {
        candidates.filter { ($0.grouping != best.grouping || $0.rule != best.rule) && lower(worst($0)) <= upper(worst(best)) }
            .sorted { upper(worst($0)) < upper(worst($1)) }
    }

    /// The suggested default: the smallest upper bound of the worst case over all corpora (then the smallest own draw).
    package var best: Candidate? { candidates.min { (upper($0.all), $0.all.relative) < (upper($1.all), $1.all.relative) } }

    /// The suggested default over the subset's corpora only.
    package var bestWithoutTheSubset: Candidate? {
        candidates.min { (upper($0.subset), $0.subset.relative) < (upper($1.subset), $1.subset.relative) }
    }

    /// Whether the suggested default's worst case has replicate bounds: one draw has no interval to judge the target by.
    package var hasBounds: Bool { best?.all.relativeHigh != nil }

    /// Whether the suggested default's worst-case upper bound is at most the target (`RecommendationFile.target`); never
    /// on one draw, which has no bound.
    package var targetMet: Bool { hasBounds && best.map { upper($0.all) <= RecommendationFile.target } == true }

    /// The suggested default as results/recommendation.json holds it.
    package func file(study: String) -> RecommendationFile? {
        guard let best else { return nil }
        let w = best.all
        return RecommendationFile(
            grouping: best.rule.ownCuts?.name ?? best.grouping.name, rule: best.rule.rule?.name,
            study: study,
            worstCase: .init(corpus: w.corpus, relativeRegret: w.relative, upperBound: w.relativeHigh, lowerBound: w.relativeLow),
            targetMet: targetMet)
    }
}

/// results/recommendation.json: what the study suggests, as the names `themelab analyze` takes (`--groupings GROUPING`,
/// and `--thresholds RULE` unless the grouping chooses its own cuts), for scripts and other projects.
package struct RecommendationFile: Codable, Sendable, Equatable {
    /// The largest relative regret at which the target counts as met, upper bound included.
    package static let target = 0.1

    package struct WorstCase: Codable, Sendable, Equatable {
        package var corpus: String
        /// Regret / ceiling ARI on the corpus's own draw.
        package var relativeRegret: Double
        /// The largest upper and lower 95% bounds over the study's corpora (nil without replicates).
        package var upperBound: Double?
        package var lowerBound: Double?
    }

    package var grouping: String
    /// The threshold rule; nil for a grouping that chooses its own cuts.
    package var rule: String?
    /// The experiment whose corpora it rests on.
    package var study: String
    package var worstCase: WorstCase
    /// Whether the worst case's upper bound is at most 10% (false without replicates: one draw has no bound).
    package var targetMet: Bool
    /// The space it was chosen in, when not the centred one `reproduce` uses (an `ablate` of a raw-only experiment).
    package var space: String?

    package enum CodingKeys: String, CodingKey { case grouping, rule, study, worstCase, targetMet, space }

    /// As synthesised, but `rule` is written as null when there is none (scripts read the key either way).
    package func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(grouping, forKey: .grouping)
        try c.encode(rule, forKey: .rule)
        try c.encode(study, forKey: .study)
        try c.encode(worstCase, forKey: .worstCase)
        try c.encode(targetMet, forKey: .targetMet)
        try c.encodeIfPresent(space, forKey: .space)
    }
}
