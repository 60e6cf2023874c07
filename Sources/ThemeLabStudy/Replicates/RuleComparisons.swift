import Foundation
import ThemeLabCore
import ThemeLabCorpus
import ThemeLabEncoder
import ThemeLabMeasures
import ThemeLabMethods
import ThemeLabPairs

/// For one corpus × source × space × grouping: every pair of label-free threshold rules compared
/// on the same replicates by ARI (a rule without a threshold on a replicate counts as ARI 0, as in
/// the regret tables). The family for Holm's correction is these pairs.
package struct RuleComparisonFamily: Codable, Sendable {
    package var corpus: String
    package var source: String
    package var space: EmbeddingSpace
    package var grouping: GroupingKey
    package var comparisons: [PairedComparison]

    /// STEM-comparisons.json: the families with the run's provenance and settings.
    package struct File: Codable, Sendable {
        package var schemaVersion = 1
        package var provenance: Provenance
        package var settings: AnalysisSettings
        package var families: [RuleComparisonFamily]

        package init(provenance: Provenance, settings: AnalysisSettings, families: [RuleComparisonFamily]) {
            self.provenance = provenance
            self.settings = settings
            self.families = families
        }
    }

    /// Every family of `results` (analyses run with replicates).
    package static func all(_ results: AnalysisResults) -> [RuleComparisonFamily] {
        var out: [RuleComparisonFamily] = []
        for a in results.analyses {
            guard let bootstrap = a.replicateBootstrap(seed: results.settings.seed) else { continue }
            for s in a.spaces {
                var groupings: [GroupingKey] = []
                for g in s.groupings where g.rule != nil && !groupings.contains(g.grouping) { groupings.append(g.grouping) }
                for grouping in groupings {
                    let series = s.groupings.filter { $0.grouping == grouping && !$0.labelInformed && $0.rule != nil }.compactMap {
                        g -> (name: String, values: [Double])? in
                        g.replicateARI.map { (g.rule!.name, $0.map { $0 ?? 0 }) }
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
}
