import Foundation
import Testing

@testable import ThemeLabReport

/// Figures the README and docs/method.md quote from results/ are the committed results' own: a page cannot go on giving a
/// study's older counts after `make reproduce` changed them.
@Suite struct DocFiguresTests {
    static func page(_ path: String) throws -> String {
        // Prose wraps anywhere: compare with every run of white space as one space.
        try String(contentsOfFile: DocExample.root + "/" + path, encoding: .utf8).split(whereSeparator: \.isWhitespace).joined(
            separator: " ")
    }

    /// The rows of results/comparison-pairs.md's first (average linkage) table: "a b" → (better, worse, indistinguishable).
    static func averagePairs() throws -> (rows: [String: [Int]], total: Int, indistinguishable: Int) {
        let text = try String(contentsOfFile: DocExample.root + "/results/comparison-pairs.md", encoding: .utf8)
        var rows: [String: [Int]] = [:]
        var (total, same, table) = (0, 0, 0)
        for line in text.split(separator: "\n") {
            if line.hasPrefix("<details>") { table += 1 }
            let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count > 5, let a = Int(cells[2]), let b = Int(cells[3]), let c = Int(cells[4]) else { continue }
            (total, same) = (total + a + b + c, same + c)
            if table == 1 { rows["\(cells[0]) \(cells[1])"] = [a, b, c] }
        }
        return (rows, total, same)
    }

    @Test func thePairedComparisonCountsAreTheResults() throws {
        let (rows, total, same) = try Self.averagePairs()
        let p90 = try #require(rows["percentile(90) kittler-illingworth"])
        let corpora = p90.reduce(0, +)
        let method = try Self.page("docs/method.md")
        #expect(
            method.contains(
                "percentile(90) beats Kittler–Illingworth (average linkage) on \(p90[0]) of the \(corpora) study corpora, loses on "
                    + "\(p90[1]) and is indistinguishable on \(p90[2])"))
        let spaced = { (n: Int) in n >= 1000 ? "\(n / 1000) \(String(format: "%03d", n % 1000))" : "\(n)" }
        #expect(
            method.contains("Of the \(spaced(total)) rule-pair comparisons (55 pairs × 3 groupings × \(corpora) corpora), \(spaced(same))"))
        let readme = try Self.page("README.md")
        #expect(
            readme.contains(
                "`percentile(90)` beats `kittler-illingworth` (average linkage) on \(p90[0]) of the \(corpora) study corpora, loses on "
                    + "\(p90[1]) and is indistinguishable on \(p90[2])"))
    }

    @Test func theSuggestedDefaultsBoundsAreTheResults() throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: DocExample.root + "/results/recommendation.json"))
        let file = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let worst = try #require(file["worstCase"] as? [String: Any])
        let (low, high) = (try #require(worst["lowerBound"] as? Double), try #require(worst["upperBound"] as? Double))
        let bounds = String(format: "%.1f–%.1f%%", 100 * low, 100 * high)
        let rule = try #require(file["rule"] as? String)
        let grouping = try #require(file["grouping"] as? String)
        #expect(try Self.page("docs/method.md").contains("`\(rule)` with \(grouping)"))
        #expect(try Self.page("README.md").contains("`\(rule)` with the `\(grouping)` grouping"))
        for page in ["README.md", "docs/method.md"] {
            #expect(try Self.page(page).contains(bounds), "\(page) does not give the bounds \(bounds)")
        }
    }

    /// The README's worst case for the journal method (its rule with its grouping) is the committed results' bounds.
    @Test func theJournalMethodsWorstCaseIsTheResults() throws {
        let report = try ReportTests.committedReport()
        let (rule, grouping) = ReproductionReport.journalMethod
        let table = try #require(report.regretTables(report.layout.regret.study).first { $0.grouping == grouping })
        let worst = try #require(table.worst(.rule(rule)))
        let bounds = String(format: "%.1f–%.1f%%", 100 * (worst.relativeLow ?? .nan), 100 * (worst.relativeHigh ?? .nan))
        #expect(try Self.page("README.md").contains("`\(rule)` with `\(grouping)`, loses more: at worst \(bounds)"), "\(bounds)")
    }
}
