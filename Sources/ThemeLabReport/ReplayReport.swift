import Foundation
import ThemeLabCore
import ThemeLabCorpus
import ThemeLabEncoder
import ThemeLabMeasures
import ThemeLabMethods
import ThemeLabPairs
import ThemeLabStudy

/// The replay's outputs: NAME.json, NAME.csv (one row per journal × rule × policy), NAME-timeline.csv
/// (one row per kept save), NAME.md, plots/*.svg, and the C8/C9 section of REPORT.md; the wall-clock seconds go
/// to NAME-timings.csv, which the byte contract of results/ leaves out.
package enum ReplayReport {
    /// The policies drawn in the timeline plots (those present).
    package static let drawn = [
        "always", "never", "launch-only", JournalMethodPolicy(growth: 1.5, drift: JournalMethodPolicy.defaultDrift).name,
    ]

    package static func write(_ r: ReplayResults, folder: String) throws {
        try AtomicFile.write(try JSONOutput.encode(r), to: "\(folder)/\(r.name).json")
        try AtomicFile.write(summaryCSV(r), to: "\(folder)/\(r.name).csv")
        try AtomicFile.write(timelineCSV(r), to: "\(folder)/\(r.name)-timeline.csv")
        try AtomicFile.write(timingsCSV(r), to: "\(folder)/\(r.name)-timings.csv")
        try AtomicFile.write(markdown(r), to: "\(folder)/\(r.name).md")
        for (path, svg) in plots(r) { try AtomicFile.write(svg, to: "\(folder)/\(path)") }
    }

    /// A journal's name in file names and headings: corpus and order.
    package static func label(_ j: JournalResult) -> String { "\(j.corpus) · \(j.order)" }
    package static func slug(_ j: JournalResult) -> String {
        SVGPlot.slug("\(j.corpus)-\(j.order)").split(separator: "-", omittingEmptySubsequences: true).joined(separator: "-")
    }

    package static let csvTable = CSVTable(
        CSVTable.text("corpus", "source", "order") + CSVTable.numbers("orders", "items", "launch", "initial")
            + CSVTable.text("rule", "policy")
            + CSVTable.numbers(
                ["final_ari", "mean_staleness", "min_staleness", "final_largest_share", "regroups", "work", "work_share"].flatMap {
                    [$0, "\($0)_low", "\($0)_high"]
                }))

    package static func summaryCSV(_ r: ReplayResults) -> String {
        var lines = [csvTable.header]
        for j in r.journals {
            for rule in j.rules {
                for p in rule.policies {
                    let s = p.summary
                    let figures: [Estimate?] = [
                        s.finalAri, s.meanStaleness, s.minStaleness, s.finalLargestShare, s.regroups, s.work, s.workShare,
                    ]
                    let fields =
                        [j.corpus, j.source, j.order, "\(j.orders)", "\(j.items)", "\(j.launch)", "\(j.initial)", rule.rule, p.policy]
                        + figures.flatMap { (e: Estimate?) -> [String] in
                            e.map { [$0.mean, $0.low, $0.high].map { String($0) } } ?? ["", "", ""]
                        }
                    lines.append(csvTable.row(fields))
                }
            }
        }
        return lines.joined()
    }

    /// Wall-clock seconds, outside the byte contract: per journal (its whole replay) and per journal × rule × policy
    /// (the policy's own work, mean and range over orders).
    package static func timingsCSV(_ r: ReplayResults) -> String {
        let table = CSVTable(
            CSVTable.text("corpus", "order", "rule", "policy") + CSVTable.numbers("seconds", "seconds_low", "seconds_high"))
        var lines = [table.header]
        for j in r.journals {
            lines.append(table.row([j.corpus, j.order, "", "", "\(j.seconds)", "", ""]))
            for rule in j.rules {
                for p in rule.policies {
                    let figures = p.seconds.map { [$0.mean, $0.low, $0.high].map { String($0) } } ?? ["", "", ""]
                    lines.append(table.row([j.corpus, j.order, rule.rule, p.policy] + figures))
                }
            }
        }
        return lines.joined()
    }

    package static func timelineCSV(_ r: ReplayResults) -> String {
        let metrics = ["ari", "staleness", "largest_share", "groups", "regroups", "work"]
        let table = CSVTable(
            CSVTable.text("corpus", "order", "rule", "policy")
                + CSVTable.numbers(["items"] + metrics.flatMap { [$0, "\($0)_min", "\($0)_max"] }))
        var lines = [table.header]
        for j in r.journals {
            for rule in j.rules {
                for p in rule.policies {
                    let t = p.timeline
                    let bands = [t.ari, t.staleness, t.largestShare, t.groups, t.regroups, t.work].compactMap { $0 }
                    for (k, items) in t.items.enumerated() {
                        let fields =
                            [j.corpus, j.order, rule.rule, p.policy, "\(items)"]
                            + bands.flatMap { [$0.mean[k], $0.low[k], $0.high[k]].map { String($0) } }
                        lines.append(table.row(fields))
                    }
                }
            }
        }
        return lines.joined()
    }

    /// An estimate as "0.912 [0.880, 0.940]" (no interval for a single order).
    package static func figure(_ e: Estimate?, orders: Int) -> String {
        guard let e else { return "n/a" }
        return orders > 1 ? "\(formatShort(e.mean)) \(formatInterval(e))" : formatShort(e.mean)
    }

    package static func percent(_ e: Estimate?, orders: Int) -> String {
        guard let e else { return "n/a" }
        func p(_ x: Double) -> String { String(format: x < 0.01 ? "%.2f%%" : "%.1f%%", 100 * x) }
        return orders > 1 ? "\(p(e.mean)) [\(p(e.low)), \(p(e.high))]" : p(e.mean)
    }

    /// The frontier table of one journal and rule: every policy's staleness against its work.
    package static func frontier(_ j: JournalResult, _ rule: RuleResult) -> String {
        var md =
            "| policy | mean staleness ARI | worst staleness | final ARI vs labels | largest group | regroups | work (share of always) |\n"
        md += "|---|---|---|---|---|---|---|\n"
        for p in rule.policies.sorted(by: { $0.summary.work.mean > $1.summary.work.mean }) {
            let s = p.summary
            md += "| \(p.policy) | \(figure(s.meanStaleness, orders: j.orders)) | \(formatShort(s.minStaleness.mean)) | "
            md += "\(figure(s.finalAri, orders: j.orders)) | \(formatShort(s.finalLargestShare.mean)) | "
            md += "\(String(format: "%.1f", s.regroups.mean)) | "
            md += "\(percent(s.workShare, orders: j.orders)) |\n"
        }
        return md
    }

    package static func markdown(_ r: ReplayResults) -> String {
        var md = "# \(r.name)\n\n\(r.description ?? "")\n\n"
        md += "Threshold rules recomputed at every regroup: \(r.settings.rules.map(\.name).joined(separator: ", ")). "
        md +=
            "Intervals: 95% percentile bootstrap over orders. Staleness = ARI between the shown grouping and a fresh regroup at that save; "
        md += "work = similarities computed.\n\n"
        for j in r.journals {
            md +=
                "## \(label(j))\n\n\(j.items) saves, \(j.topics) topics, \(j.orders) order(s), launches of \(j.launch) after \(j.initial) "
            md += "initial saves; vectors: \(j.source).\n\n"
            for rule in j.rules {
                md += "### \(rule.rule)\n\n" + frontier(j, rule) + "\n"
                if let c8 = rule.c8 {
                    md +=
                        "C8 (never vs always): gap at the end \(figure(c8.gapFinal, orders: j.orders)), its growth since the quarter save "
                    md += "\(figure(c8.gapGrowth, orders: j.orders)); never's largest group grew by "
                    md += "\(figure(c8.magnetGrowth, orders: j.orders)) "
                    md += "— **\(c8.verdict)**.\n"
                }
                if let c9 = rule.c9 {
                    md += "C9 (\(c9.policy)): mean staleness \(figure(c9.meanStaleness, orders: j.orders)) at "
                    md += "\(percent(c9.workShare, orders: j.orders)) of always's work, final ARI loss "
                    md += "\(figure(c9.finalAriLoss, orders: j.orders)) "
                    md += "— **\(c9.verdict)**.\n"
                }
                md += "\n"
            }
        }
        return escapingControlCharacters(md, keepingLineFeeds: true)
    }

    /// REPORT.md's section: C8 and C9 per journal for the journal method's rule (the first listed), then each journal's frontier
    /// (or, with `frontiers`, a link to the file that has them). A verdict that flips under the last-bit check
    /// (`fragility`) is marked "(flips)".
    package static func section(_ r: ReplayResults, plotFolder: String, fragility: Fragility? = nil, frontiers: String? = nil) -> String {
        var md = "## Regrouping over time (C8, C9): experiment `\(r.name)`\n\n"
        md += "Each corpus is replayed as a journal; the shown grouping is compared at every save with the labels and with a fresh "
        md += "regroup (staleness). C8 holds when incremental-only assignment falls further behind always-regrouping between the "
        md += "quarter save and the last (ARI gap growth > 0) and its largest group grows (magnet), each interval above 0. C9 holds "
        md += "for \(drawn[3]) when its mean staleness ARI is ≥ \(C9JournalMethodPolicySuffices.closeStaleness) at ≤ "
        md += "\(Int(C9JournalMethodPolicySuffices.costFraction * 100))% of always's work, over the whole interval. "
        md += fragility == nil ? "\n\n" : "(flips): the verdict changes when every vector moves by one unit in the last place.\n\n"
        md += "| journal | rule | C8 gap growth | C8 magnet growth | C8 | C9 mean staleness | C9 work share | C9 |\n"
        md += "|---|---|---|---|---|---|---|---|\n"
        for j in r.journals {
            for rule in j.rules {
                let (c8, c9, n) = (rule.c8, rule.c9, j.orders)
                md += "| \(label(j)) | \(rule.rule) | \(figure(c8?.gapGrowth, orders: n)) | \(figure(c8?.magnetGrowth, orders: n)) | "
                func mark(_ kind: Fragility.Kind) -> String {
                    fragility?.flips(r.name, kind, Fragility.key(j, rule)) == true ? " (flips)" : ""
                }
                md += "\(c8?.verdict.rawValue ?? "n/a")\(mark(.c8)) | \(figure(c9?.meanStaleness, orders: n)) | "
                md += "\(percent(c9?.workShare, orders: n)) | "
                md += "\(c9?.verdict.rawValue ?? "n/a")\(mark(.c9)) |\n"
            }
        }
        if let frontiers {
            md += "\nEach journal's frontier (staleness against work, every policy) is in [\(frontiers)](\(frontiers)); its plots "
            return md + "are in `\(plotFolder)/`.\n"
        }
        md += "\nThe frontier (staleness against work) per journal for \(r.journals.first?.rules.first?.rule ?? "the first rule"), "
        md += "every policy; plots in `\(plotFolder)/`.\n\n"
        for j in r.journals {
            guard let rule = j.rules.first else { continue }
            md += "### \(label(j)) (\(j.items) saves, \(j.orders) order(s))\n\n" + frontier(j, rule) + "\n"
            md += "![\(label(j))](\(plotFolder)/replay-\(slug(j)).svg) ![frontier](\(plotFolder)/frontier-\(slug(j)).svg)\n\n"
        }
        return md
    }

    /// Per journal (first rule): ARI vs labels, staleness, largest-group share and cumulative work over saves, and the frontier.
    package static func plots(_ r: ReplayResults) -> [(String, String)] {
        var out: [(String, String)] = []
        for j in r.journals {
            guard let rule = j.rules.first else { continue }
            let shown = rule.policies.filter { drawn.contains($0.policy) }
            func series(_ band: (PolicyTimeline) -> TimelineBand?) -> [SVGPlot.Series] {
                shown.enumerated().compactMap { k, p in
                    let items = p.timeline.items
                    guard let b = band(p.timeline) else { return nil }
                    return SVGPlot.Series(
                        label: p.policy, points: zip(items, b.mean).map { (Double($0), $1) }, colour: k,
                        band: j.orders > 1 ? items.indices.map { (Double(items[$0]), b.low[$0], b.high[$0]) } : [])
                }
            }
            let title = "\(label(j)), \(rule.rule)"
            let panels: [(String, String, (PolicyTimeline) -> TimelineBand?, Bool)] = [
                ("replay", "ARI vs labels", \.ari, false), ("staleness", "staleness (ARI vs fresh regroup)", \.staleness, false),
                ("largest", "largest group share", \.largestShare, false), ("work", "similarities computed", \.work, true),
            ]
            for (stem, y, band, log) in panels {
                out.append(
                    (
                        "plots/\(stem)-\(slug(j)).svg",
                        SVGPlot.lines(title: title, xLabel: "saves", yLabel: y, series: series(band), logY: log)
                    ))
            }
            let frontier = rule.policies.enumerated().compactMap { k, p -> SVGPlot.Series? in
                guard let share = p.summary.workShare else { return nil }
                return SVGPlot.Series(label: p.policy, points: [(share.mean, p.summary.meanStaleness.mean)], colour: k)
            }
            out.append(
                (
                    "plots/frontier-\(slug(j)).svg",
                    SVGPlot.lines(
                        title: "\(title): frontier", xLabel: "work / always's work", yLabel: "mean staleness ARI", series: frontier,
                        logX: true)
                ))
        }
        return out
    }
}
