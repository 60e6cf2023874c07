import Foundation
import ThemeLabCore
import ThemeLabMeasures
import ThemeLabMethods
import ThemeLabStudy

extension SizeReport {
    /// NAME.md: how the figures were made, the answer, the study's and the tuning corpora's tables, the size-aware choice
    /// and how often the spectral estimate fell back. `plots` is the figures' folder relative to the page.
    package static func markdown(_ r: SizeResults, suggested: SizeMethod?, plots: String) -> String {
        "# How many entries before the groups can be trusted (`\(r.name)`)\n\n" + (r.description.map { $0 + "\n\n" } ?? "") + reading(r)
            + "\n## After how many entries is a theme list worth showing?\n\n" + answer(r, suggested: suggested) + "\n"
            + "\n## Study corpora: the worst ratio at each size\n\n" + table(r, role: .study)
            + families(r).map { "\n![\($0)](\(plots)/\(plotPath(r, family: $0).dropFirst("plots/".count)))\n" }.joined()
            + "\n## A choice of method from the number of entries\n\n" + sizeRule(r, suggested: suggested)
            + "\n## The spectral estimate's fallbacks\n\n" + fallbacks(r)
            + "\n## Tuning corpora: the worst ratio at each size\n\n" + table(r, role: .tuning)
    }

    /// How a figure is made.
    static func reading(_ r: SizeResults) -> String {
        let draws = Set(r.curves.flatMap { c in c.points.filter { $0.items < c.items }.map(\.draws) }).sorted().map(String.init)
        return
            "Each corpus is measured at every size of the grid below its own and above its number of topics (below, every entry "
            + "would be alone in its topic), as a stratified sample (every topic keeps its share; \(draws.joined(separator: " or ")) "
            + "seeded draws), and once whole (\"own size\", one draw). On each draw, every label-free method of the study in the "
            + "\(r.space) space, "
            + "against average linkage's best threshold on that draw (the ceiling). A ratio is the mean ARI over the draws divided "
            + "by the mean ceiling, with the 95% percentile bootstrap interval over the draws; a method without groups counts ARI "
            + "0; a size whose mean ceiling is below 0.1 is left out (no threshold recovers the topics there). A cell is the "
            + "worst ratio over the corpora with that many entries, with that corpus's interval. \"Within 10% everywhere from\": "
            + "the smallest size of the grid from which the method's ratio is at least 0.9 on every corpus at every size of at "
            + "least that many entries (the corpora that have them), at the means; in brackets the same read at the intervals' "
            + "upper and lower ends.\n"
    }

    /// A table of one role: a row per method, a column per grid size and the own size, and the smallest size.
    static func table(_ r: SizeResults, role: SizeCurve.Role) -> String {
        let grid = r.gridSizes(role)
        var out = "| method | " + grid.map(String.init).joined(separator: " | ") + " | own size | within 10% everywhere from |\n"
        out += "|---|" + String(repeating: "---|", count: grid.count + 2) + "\n"
        for m in r.methods(role) {
            let cells = (grid.map(Optional.some) + [nil]).map { n in
                r.worstOver(m, role: role, where: SizeResults.at(n)).map { cell($0.ratio) } ?? "—"
            }
            out += "| \(r.methods[m]) | " + cells.joined(separator: " | ") + " | \(smallest(r, m, role: role)) |\n"
        }
        return out
    }

    /// "0.93 [0.88, 0.97]", the interval left out for one draw.
    static func cell(_ x: SizeRatio) -> String { x.draws > 1 ? "\(short(x.value)) [\(short(x.low)), \(short(x.high))]" : short(x.value) }

    /// The question in the app's words, answered from the study corpora.
    package static func answer(_ r: SizeResults, suggested: SizeMethod?) -> String {
        let ranked = r.methods(.study).compactMap { m in r.smallestSize(m, role: .study).map { (m: m, n: $0) } }.sorted { $0.n < $1.n }
        let largest = r.gridSizes(.study).last ?? 0
        var out: String
        if let first = ranked.first {
            let same = ranked.filter { $0.n == first.n }.map { "`\(r.methods[$0.m])`" }
            out =
                "From **\(first.n) entries** on, \(same.joined(separator: ", ")) \(same.count == 1 ? "stays" : "stay") within 10% of the "
                + "ceiling on every study corpus that has that many entries (\(smallest(r, first.m))). Below that, no method tried "
                + "does on every corpus."
        } else {
            out =
                "**At no size measured** (up to \(largest) entries, and each corpus whole) does any method tried stay within 10% "
                + "of the ceiling on every study corpus: a theme list is not reliably close to the best grouping of any size here."
        }
        let journal = r.methods.firstIndex {
            $0.grouping == ReproductionReport.journalMethod.grouping && $0.rule == ReproductionReport.journalMethod.rule
        }
        for (what, m) in [("The journal method", journal), ("The suggested default", index(r, suggested))] {
            guard let m else { continue }
            out += " \(what) (`\(r.methods[m])`): \(smallest(r, m))."
        }
        return out + " The best worst case at each size: " + bestAtEachSize(r) + "."
    }

    /// The place of `method` (its grouping and rule) among the results' methods.
    static func index(_ r: SizeResults, _ method: SizeMethod?) -> Int? {
        method.flatMap { s in r.methods.firstIndex { $0.grouping == s.grouping && $0.rule == s.rule } }
    }

    /// "8: 0.31 (`average-modularity(2,2)`), 12: …".
    static func bestAtEachSize(_ r: SizeResults) -> String {
        r.gridSizes(.study).compactMap { n in
            r.methods(.study).compactMap { m in r.worstOver(m, role: .study, where: SizeResults.at(n)).map { (m, $0.ratio.value) } }
                .max { $0.1 < $1.1 }.map { "\(n): \(short($0.1)) (`\(r.methods[$0.0])`)" }
        }.joined(separator: ", ")
    }

    /// The size-aware choice made on the tuning corpora, and set beside the suggested default on the study corpora.
    static func sizeRule(_ r: SizeResults, suggested: SizeMethod?) -> String {
        let rule = SizeRule(choosingOn: r)
        let bands = rule.merged.map {
            "\($0.from == 0 ? "below \(rule.merged.dropFirst().first?.from ?? 0) entries" : "from \($0.from)"): `\(r.methods[$0.method])`"
        }
        var out =
            "Chosen on the tuning corpora, in each band of sizes the method whose worst ratio has the largest lower bound (the "
            + "study's procedure: the smallest upper bound of the worst-case relative regret): " + bands.joined(separator: "; ") + ".\n\n"
        guard let def = index(r, suggested) else { return out + "The suggested default is not among these methods.\n" }
        out +=
            "On the study corpora, beside the suggested default `\(r.methods[def])` (worst ratio at the draws' means, then the "
            + "bounds of the worst case):\n\n| entries | chosen on the tuning corpora | its worst ratio | the default's | verdict |\n"
            + "|---|---|---|---|---|\n"
        let grid = r.gridSizes(.study)
        for (i, from) in grid.enumerated() {
            let upTo = i + 1 < grid.count ? grid[i + 1] : Int.max
            let band: (SizeCurve, SizePoint) -> Bool = { _, p in (from..<upTo).contains(p.items) }
            let label = upTo == Int.max ? "\(from) or more" : "\(from)–\(upTo - 1)"
            out += "| \(label) | `\(r.methods[rule.method(at: from)])` | " + comparison(r, band, rule: rule, suggested: def) + " |\n"
        }
        return out + "| all | | " + comparison(r, { _, _ in true }, rule: rule, suggested: def) + " |\n"
    }

    /// The rule's and the default's worst cases over the points `include` keeps, and which is better: "beats the default"
    /// when the rule's lower bound is above the default's upper bound, "worse" the other way, else "indistinguishable".
    static func comparison(_ r: SizeResults, _ include: (SizeCurve, SizePoint) -> Bool, rule: SizeRule, suggested: Int) -> String {
        guard let mine = r.worstOver(role: .study, where: include, method: rule.method(at:)),
            let theirs = r.worstOver(suggested, role: .study, where: include)
        else { return "— | — | no corpus with a ceiling of 0.1 |" }
        let verdict = mine.low > theirs.high ? "beats the default" : mine.high < theirs.low ? "worse than the default" : "indistinguishable"
        return "\(worst(mine)) | \(worst(theirs)) | \(verdict)"
    }

    /// "0.45 (seed-12 at 12; bounds 0.30–0.52)".
    static func worst(_ w: SizeWorst) -> String {
        "\(short(w.ratio.value)) (\(w.corpus) at \(w.items); bounds \(short(w.low))–\(short(w.high)))"
    }

    /// For each added method that fell back anywhere: per size, the draws that did over the study corpora.
    static func fallbacks(_ r: SizeResults) -> String {
        let study = r.curves(.study)
        let rows = r.methods(.study).flatMap { m -> [String] in
            let sizes = Set(study.flatMap { $0.points.map(\.items) }).sorted()
            let counted = sizes.map { n in
                let points = study.flatMap { $0.points.filter { $0.items == n } }
                return (n, points.map { $0.fallbacks[m] }.reduce(0, +), points.map(\.draws).reduce(0, +))
            }
            guard counted.contains(where: { $0.1 > 0 }) else { return [] }
            return [
                "| \(r.methods[m]) | " + counted.filter { $0.1 > 0 }.map { "\($0.0): \($0.1) of \($0.2)" }.joined(separator: ", ") + " |"
            ]
        }
        guard !rows.isEmpty else { return "No method fell back at any size.\n" }
        return "Draws on which no eigengap cleared the threshold, so that k is the fallback (study corpora, by size):\n\n"
            + "| method | size: draws that fell back of all |\n|---|---|\n" + rows.joined(separator: "\n") + "\n"
    }
}

extension SizeReport {
    /// REPORT.md's section: the answer, each method's smallest size and worst ratio at a few sizes, the figures, the
    /// size-aware choice's verdict; the full tables in `folder`/NAME.md.
    package static func section(_ r: SizeResults, suggested: SizeMethod?, folder: String) -> String {
        let grid = r.gridSizes(.study)
        let shown = [12, 32, 128, 512].filter(grid.contains)
        var out = "## How many entries before the groups can be trusted (`\(r.name)`)\n\n" + answer(r, suggested: suggested) + "\n\n"
        out +=
            "Every study corpus subsampled to each size (stratified, seeded); a cell is the worst ratio of the method's ARI to "
            + "the ceiling over the corpora with that many entries, with its 95% interval over the draws. All sizes, the tuning "
            + "corpora and the size-aware choice: [\(r.name).md](\(folder)/\(r.name).md).\n\n"
        out += "| method | within 10% everywhere from | " + shown.map { "\($0) entries" }.joined(separator: " | ") + " | own size |\n"
        out += "|---|---|" + String(repeating: "---|", count: shown.count + 1) + "\n"
        for m in r.methods(.study) {
            let cells = (shown.map(Optional.some) + [nil]).map { n in
                r.worstOver(m, role: .study, where: SizeResults.at(n)).map { cell($0.ratio) } ?? "—"
            }
            out += "| \(r.methods[m]) | \(smallest(r, m)) | " + cells.joined(separator: " | ") + " |\n"
        }
        out += families(r).map { "\n![\(r.name), \($0)](\(folder)/\(plotPath(r, family: $0)))\n" }.joined()
        return out + "\n" + ruleVerdict(r, suggested: suggested) + "\n"
    }

    /// One sentence: whether the size-aware choice beats the suggested default on the study corpora, with both worst cases.
    static func ruleVerdict(_ r: SizeResults, suggested: SizeMethod?) -> String {
        let rule = SizeRule(choosingOn: r)
        guard let def = index(r, suggested), let mine = r.worstOver(role: .study, where: { _, _ in true }, method: rule.method(at:)),
            let theirs = r.worstOver(def, role: .study, where: { _, _ in true })
        else { return "" }
        let beats = mine.low > theirs.high
        return "**A choice of method from the number of entries** (made on the tuning corpora: "
            + rule.merged.map { "`\(r.methods[$0.method])` from \($0.from)" }.joined(separator: ", ") + ") "
            + (beats ? "beats" : "does not beat") + " the suggested default on the study corpora: its worst ratio "
            + "\(worst(mine)) against `\(r.methods[def])`'s \(worst(theirs))."
    }
}
