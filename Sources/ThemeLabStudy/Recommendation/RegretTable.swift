import Foundation
import ThemeLabCore
import ThemeLabMeasures
import ThemeLabMethods

/// How far each label-free threshold rule falls short of the best threshold for one grouping:
/// regret = ceiling ARI † − rule ARI, per corpus, with the worst case absolute and relative to
/// the ceiling. A rule without a threshold on a corpus counts as ARI 0 there. With replicates, each
/// regret also has its 95% interval: per replicate, that replicate's ceiling − the rule's ARI; the
/// relative regret over replicates is mean regret / mean ceiling, its interval the bootstrap of that ratio.
package struct RegretTable: Sendable {
    package struct Row: Sendable {
        package var corpus: String
        package var topics: Int
        package var relatedShare: Double?
        package var ceiling: Ceiling
        /// Column → regret.
        package var regret: [Column: Double]
        /// Column → regret over replicates (empty without replicates).
        package var regretEstimate: [Column: Estimate] = [:]
        /// Column → the 95% interval of mean regret / mean ceiling over replicates.
        package var relativeInterval: [Column: (low: Double, high: Double)] = [:]
    }

    package struct Worst: Sendable {
        package var regret: Double
        package var relative: Double
        package var corpus: String
        /// With replicates on every row: the largest lower and the largest upper bound of the relative
        /// regret's interval over the same rows (a bound on the worst case's interval).
        package var relativeLow: Double?
        package var relativeHigh: Double?
    }

    /// A column: a threshold rule with the table's grouping, or a grouping that chooses its own cuts.
    package enum Column: Hashable, Comparable, Sendable, CustomStringConvertible {
        case rule(RuleKey)
        case ownCuts(GroupingKey)

        package var description: String {
            switch self {
            case .rule(let r): r.name
            case .ownCuts(let g): g.name
            }
        }

        package static func < (a: Self, b: Self) -> Bool { a.description < b.description }

        /// The rule of a rule's column, the grouping of a column of a grouping that chooses its own cuts.
        package var rule: RuleKey? { if case .rule(let r) = self { r } else { nil } }
        package var ownCuts: GroupingKey? { if case .ownCuts(let g) = self { g } else { nil } }
    }

    package var grouping: GroupingKey
    /// The columns: threshold rules with `grouping`, then groupings that choose their own cuts.
    package var rules: [Column]
    package var rows: [Row]
    /// Rules that read more than the all-pairs distribution (neighbours, the dendrogram), and the
    /// groupings that cut themselves: drawn solid.
    package var localRules: Set<Column>
    /// The groupings choosing their own cuts (HDBSCAN, Leiden) among the columns, or the table's own grouping.
    package var ownCuts: Set<GroupingKey>

    /// Rows from every labeled analysis's `space` that has a ceiling for `grouping`; `settings` are
    /// the experiment's (which rules it ran). `alongside`: groupings that choose their own cuts,
    /// measured against this grouping's ceiling as columns of their own.
    package init(
        analyses: [CorpusAnalysis], grouping: GroupingKey, settings: AnalysisSettings, space: EmbeddingSpace = .centred,
        alongside: [GroupingKey] = []
    ) {
        self.grouping = grouping
        let cutsItself = Set(settings.groupings.filter { $0.kind == .cutsItself }.map(\.key))
        ownCuts = cutsItself.intersection(alongside + [grouping])
        localRules = Set(settings.rules.filter { $0.neighbours > 0 || $0.needsDendrogram }.map { Column.rule($0.key) })
            .union(ownCuts.map(Column.ownCuts))
        var rules: [Column] = []
        rows = analyses.compactMap { a in
            guard let s = a.spaces.first(where: { $0.space == space }), let c = s.ceilings?.first(where: { $0.grouping == grouping }) else {
                return nil
            }
            var regret: [Column: Double] = [:]
            var estimates: [Column: Estimate] = [:]
            var relative: [Column: (low: Double, high: Double)] = [:]
            let bootstrap = a.replicateBootstrap(seed: settings.seed)
            for g in s.groupings where (g.grouping == grouping || alongside.contains(g.grouping)) && !g.labelInformed {
                guard let rule = g.rule.map(Column.rule) ?? (cutsItself.contains(g.grouping) ? .ownCuts(g.grouping) : nil) else { continue }
                if !rules.contains(rule) { rules.append(rule) }
                // A rule of this grouping is cut on the grouping itself: its regret is never below 0 (`RegretTable`); a grouping
                // that chooses its own cuts may beat another's best threshold, and a negative regret says so.
                let floor = rule.rule == nil ? -Double.infinity : 0
                regret[rule] = max(floor, c.ari - (g.recovery?.ari ?? 0))
                if let bootstrap, let ceilings = c.replicateARI, let aris = g.replicateARI, ceilings.allSatisfy({ $0 != nil }) {
                    let (top, regrets) = (ceilings.map { $0! }, zip(ceilings, aris).map { max(floor, $0! - ($1 ?? 0)) })
                    estimates[rule] = bootstrap.estimate(regrets)
                    relative[rule] = bootstrap.interval { idx in
                        let ceiling = idx.reduce(0) { $0 + top[Int($1)] }
                        return ceiling > 0 ? idx.reduce(0) { $0 + regrets[Int($1)] } / ceiling : 0
                    }
                }
            }
            return Row(
                corpus: a.corpus.name, topics: a.corpus.topics ?? 0, relatedShare: a.corpus.relatedPairShare, ceiling: c, regret: regret,
                regretEstimate: estimates, relativeInterval: relative)
        }
        self.rules = rules
    }

    /// Below this ceiling ARI no threshold recovers the topics, and a relative regret would
    /// divide by almost nothing: such rows are shown but left out of the worst case.
    package static let meaningfulCeiling = 0.1

    /// The largest relative regret (regret / ceiling) of `rule` over the rows `include` keeps.
    package func worst(_ rule: Column, where include: (Row) -> Bool = { _ in true }) -> Worst? {
        let kept = rows.filter { include($0) && $0.ceiling.ari >= Self.meaningfulCeiling }
        guard
            var worst = kept.compactMap({ r in r.regret[rule].map { Worst(regret: $0, relative: $0 / r.ceiling.ari, corpus: r.corpus) } })
                .max(by: { ($0.relative, $0.regret) < ($1.relative, $1.regret) })
        else { return nil }
        let bounds = kept.map { $0.relativeInterval[rule] }
        if !bounds.isEmpty, bounds.allSatisfy({ $0 != nil }) {
            worst.relativeLow = bounds.map { $0!.0 }.max()
            worst.relativeHigh = bounds.map { $0!.1 }.max()
        }
        return worst
    }
}

extension RegretTable {
    /// Each of `groupings` against its best threshold (the experiment's groupings that choose their own cuts as extra
    /// columns of `host`'s table), then each of those against its own best parameter; tables without rows or columns
    /// (no labels, no parameter) left out.
    package static func tables(
        _ analyses: [CorpusAnalysis], settings: AnalysisSettings, space: EmbeddingSpace = .centred, groupings: [GroupingKey],
        host: GroupingKey?
    ) -> [RegretTable] {
        let own = settings.groupings.filter { $0.kind == .cutsItself }.map(\.key)
        let tables =
            groupings.map {
                RegretTable(analyses: analyses, grouping: $0, settings: settings, space: space, alongside: $0 == host ? own : [])
            }
            + own.map { RegretTable(analyses: analyses, grouping: $0, settings: settings, space: space) }
        return tables.filter { !$0.rows.isEmpty && !$0.rules.isEmpty }
    }
}

extension ReportLayout.Regret {
    /// The layout's regret tables (`RegretTable.tables`, centred space); none without results.
    package func tables(_ results: AnalysisResults?) -> [RegretTable] {
        guard let results else { return [] }
        return RegretTable.tables(results.analyses, settings: results.settings, groupings: groupings, host: ownCutsCeiling)
    }

    /// Whether a row's corpus is in the subset whose worst case is also given apart.
    package func includes(_ row: RegretTable.Row) -> Bool { !row.corpus.hasSuffix(subset.excludeCorpusSuffix) }
}
