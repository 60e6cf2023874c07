import ThemeLabCore
import ThemeLabCorpus
import ThemeLabEncoder
import ThemeLabMeasures
import ThemeLabMethods
import ThemeLabPairs
import ThemeLabStudy

/// The verdicts of a run set against the same experiments re-run with every vector moved by one unit in the last place
/// (`LastBitPerturbation`): which paired rule comparisons and which C8/C9 verdicts flip. The canonical arithmetic pins
/// the bytes; this says which of them rest on rounding. Written to results/fragility.{csv,md} and marked in REPORT.md.
package struct Fragility: Codable, Sendable {
    package enum Kind: String, Codable, Sendable {
        case comparison
        case c8 = "C8"
        case c9 = "C9"
    }

    package struct Verdict: Codable, Sendable, Equatable {
        package var experiment: String
        package var kind: Kind
        /// What was decided, as REPORT.md and the CSV files name it.
        package var key: String
        package var verdict: String
        /// The verdict with perturbed vectors ("absent" where that run has no such row).
        package var perturbed: String
        package var flips: Bool { verdict != perturbed }
    }

    package var seed: UInt64
    package var verdicts: [Verdict] = []

    package init(seed: UInt64) { self.seed = seed }

    /// The key of one paired comparison: corpus, source, space, grouping and the two rules.
    package static func key(_ f: RuleComparisonFamily, _ c: PairedComparison) -> String {
        "\(f.corpus) · \(f.source) · \(f.space) · \(f.grouping) · \(c.a) vs \(c.b)"
    }

    /// The key of a journal × rule's C8 or C9 verdict.
    package static func key(_ j: JournalResult, _ rule: RuleResult) -> String { "\(ReplayReport.label(j)) · \(rule.rule)" }

    /// Every paired comparison of `canonical` against the same comparison in `perturbed`.
    package mutating func compare(_ canonical: AnalysisResults, _ perturbed: AnalysisResults) {
        func verdicts(_ r: AnalysisResults) -> [(String, String)] {
            RuleComparisonFamily.all(r).flatMap { f in f.comparisons.map { (Self.key(f, $0), $0.verdict.rawValue) } }
        }
        add(canonical.name, .comparison, verdicts(canonical), verdicts(perturbed))
    }

    /// Every journal × rule's C8 and C9 verdicts of `canonical` against `perturbed`.
    package mutating func compare(_ canonical: ReplayResults, _ perturbed: ReplayResults) {
        func verdicts(_ r: ReplayResults, _ verdict: (RuleResult) -> String?) -> [(String, String)] {
            r.journals.flatMap { j in j.rules.compactMap { rule in verdict(rule).map { (Self.key(j, rule), $0) } } }
        }
        add(canonical.name, .c8, verdicts(canonical) { $0.c8?.verdict.rawValue }, verdicts(perturbed) { $0.c8?.verdict.rawValue })
        add(canonical.name, .c9, verdicts(canonical) { $0.c9?.verdict.rawValue }, verdicts(perturbed) { $0.c9?.verdict.rawValue })
    }

    package mutating func add(_ experiment: String, _ kind: Kind, _ canonical: [(String, String)], _ perturbed: [(String, String)]) {
        let other = Dictionary(perturbed, uniquingKeysWith: { a, _ in a })
        verdicts += canonical.map {
            Verdict(experiment: experiment, kind: kind, key: $0.0, verdict: $0.1, perturbed: other[$0.0] ?? "absent")
        }
    }

    /// Whether any verdict of `experiment` was checked.
    package func checked(_ experiment: String) -> Bool { verdicts.contains { $0.experiment == experiment } }

    /// Whether the verdict of `kind` on `key` in `experiment` flips.
    package func flips(_ experiment: String, _ kind: Kind, _ key: String) -> Bool {
        verdicts.contains { $0.experiment == experiment && $0.kind == kind && $0.key == key && $0.flips }
    }

    package static let csvTable = CSVTable(
        CSVTable.text("experiment", "kind", "key", "verdict", "perturbed_verdict") + CSVTable.numbers("flips"))

    /// results/fragility.csv: one row per verdict checked.
    package func csv() -> String {
        Self.csvTable.render(
            verdicts.map { [$0.experiment, $0.kind.rawValue, $0.key, $0.verdict, $0.perturbed, $0.flips ? "true" : "false"] })
    }

    /// Counts per experiment and kind: (checked, flipped), in the order first met.
    package var counts: [(experiment: String, kind: Kind, checked: Int, flipped: Int)] {
        var out: [(experiment: String, kind: Kind, checked: Int, flipped: Int)] = []
        for v in verdicts {
            if let k = out.firstIndex(where: { $0.experiment == v.experiment && $0.kind == v.kind }) {
                out[k].checked += 1
                out[k].flipped += v.flips ? 1 : 0
            } else {
                out.append((v.experiment, v.kind, 1, v.flips ? 1 : 0))
            }
        }
        return out
    }

    /// A summary table and the flipped verdicts (at most `limit`; nil: all).
    package func markdown(limit: Int? = nil, csvLink: String = "fragility.csv") -> String {
        var md = "Every vector moved by one unit in the last place (seed \(seed)), the size of the change another BLAS kernel's "
        md += "rounding makes, and the experiments re-run: a verdict that flips rests on rounding, not on the data. Every verdict "
        md += "checked is in [\(csvLink)](\(csvLink)).\n\n| experiment | verdicts | checked | flip |\n|---|---|---|---|\n"
        for c in counts { md += "| \(c.experiment) | \(c.kind.rawValue) | \(c.checked) | \(c.flipped) |\n" }
        let flipped = verdicts.filter(\.flips)
        guard !flipped.isEmpty else { return md + "\nNo verdict flips.\n" }
        md += "\n| experiment | verdict on | canonical | perturbed |\n|---|---|---|---|\n"
        for v in flipped.prefix(limit ?? flipped.count) {
            md += "| \(v.experiment) | \(v.kind == .comparison ? "" : v.kind.rawValue + ": ")\(v.key) | \(v.verdict) | \(v.perturbed) |\n"
        }
        if let limit, flipped.count > limit { md += "\n… and \(flipped.count - limit) more in [\(csvLink)](\(csvLink)).\n" }
        return md
    }
}
