import Foundation

/// How far each label-free threshold rule falls short of the best threshold for one grouping:
/// regret = ceiling ARI † − rule ARI, per corpus, with the worst case absolute and relative to
/// the ceiling. A rule without a threshold on a corpus counts as ARI 0 there.
public struct RegretTable: Sendable {
    public struct Row: Sendable {
        public var corpus: String
        public var topics: Int
        public var relatedShare: Double?
        public var ceiling: Ceiling
        /// Rule name → regret.
        public var regret: [String: Double]
    }

    public struct Worst: Sendable {
        public var regret: Double
        public var relative: Double
        public var corpus: String
    }

    public var grouping: String
    public var rules: [String]
    public var rows: [Row]
    /// Rules that read more than the all-pairs distribution (neighbours, the dendrogram): drawn solid.
    public var localRules: Set<String>

    /// Rows from every labeled analysis's `space` that has a ceiling for `grouping`; `settings` are
    /// the experiment's (which rules it ran).
    public init(analyses: [CorpusAnalysis], grouping: String, settings: AnalysisSettings, space: String = "centred") {
        self.grouping = grouping
        localRules = Set(((try? settings.rules()) ?? []).filter { $0.neighbours > 0 || $0.needsDendrogram }.map(\.name))
        var rules: [String] = []
        rows = analyses.compactMap { a in
            guard let s = a.spaces.first(where: { $0.space == space }), let c = s.ceilings?.first(where: { $0.grouping == grouping }) else {
                return nil
            }
            var regret: [String: Double] = [:]
            for g in s.groupings where g.grouping == grouping && !g.labelInformed {
                guard let rule = g.rule else { continue }
                if !rules.contains(rule) { rules.append(rule) }
                regret[rule] = c.ari - (g.recovery?.ari ?? 0)
            }
            return Row(
                corpus: a.corpus.name, topics: a.corpus.topics ?? 0, relatedShare: a.corpus.relatedPairShare, ceiling: c, regret: regret)
        }
        self.rules = rules
    }

    /// Below this ceiling ARI no threshold recovers the topics, and a relative regret would
    /// divide by almost nothing: such rows are shown but left out of the worst case.
    public static let meaningfulCeiling = 0.1

    /// The largest relative regret (regret / ceiling) of `rule` over the rows `include` keeps.
    public func worst(_ rule: String, where include: (Row) -> Bool = { _ in true }) -> Worst? {
        rows.filter { include($0) && $0.ceiling.ari >= Self.meaningfulCeiling }.compactMap { r in
            r.regret[rule].map { Worst(regret: $0, relative: $0 / r.ceiling.ari, corpus: r.corpus) }
        }.max { ($0.relative, $0.regret) < ($1.relative, $1.regret) }
    }

    /// Corpus rows, then the worst case over all rows and over `subset` (a label and a filter).
    public func markdown(subset: (label: String, include: (Row) -> Bool)) -> String {
        var out = "| corpus | topics | related share | ceiling ARI † (threshold) | " + rules.joined(separator: " | ") + " |\n"
        out += "|---|---|---|---|" + String(repeating: "---|", count: rules.count) + "\n"
        for r in rows {
            let best = rules.compactMap { r.regret[$0] }.min()
            out +=
                "| \(r.corpus) | \(r.topics) | \(r.relatedShare.map { String(format: "%.2f%%", 100 * $0) } ?? "n/a") | "
                + "\(formatShort(r.ceiling.ari)) (\(formatShort(r.ceiling.threshold))) | "
                + rules.map { rule in r.regret[rule].map { $0 == best ? "**\(formatShort($0))**" : formatShort($0) } ?? "n/a" }.joined(
                    separator: " | ") + " |\n"
        }
        for (label, include) in [("all corpora", { (_: Row) in true }), subset] {
            out +=
                "| **worst, \(label)** | | | | "
                + rules.map { rule in
                    worst(rule, where: include).map { "\(formatShort($0.regret)) (\(String(format: "%.0f%%", 100 * $0.relative)))" }
                        ?? "n/a"
                }.joined(separator: " | ") + " |\n"
        }
        return out
    }

    /// The worst regret at each number of topics (log axis), one line per rule; the rules that
    /// read only the all-pairs distribution are dashed, the neighbour and dendrogram rules solid.
    public func plot() -> String {
        let topicCounts = Set(rows.map(\.topics)).sorted()
        let series = rules.map { rule in
            let readsMore = localRules.contains(rule)
            return SVGPlot.Series(
                label: rule,
                points: topicCounts.compactMap { t in
                    rows.filter { $0.topics == t }.compactMap { $0.regret[rule] }.max().map { (x: Double(max(t, 1)), y: $0) }
                }, dashed: !readsMore)
        }
        return SVGPlot.lines(
            title: "Worst regret at each topic count — \(grouping), centred space", xLabel: "topics in the corpus",
            yLabel: "ceiling ARI − rule ARI (worst corpus)", series: series, logX: true)
    }
}
