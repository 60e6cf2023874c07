import Foundation
import ThemeLabCore
import ThemeLabCorpus
import ThemeLabMethods
import ThemeLabStudy

/// Which entries form each group: the `assignments` files (one row per item and cell, JSONL or CSV; docs/results-format.md)
/// and the groups listing of `analyze`'s Markdown.
package enum AssignmentsReport {
    /// One row of an assignments file: one item in one cell, in long form (a cell's rows together), every column of one
    /// type in every row, so pandas reads each with one dtype.
    package struct Row: Encodable {
        package var id: String
        package var text: String?
        package var label: String?
        package var space: String
        /// The threshold rule, or "own cuts" for a grouping that chooses its own cuts, "k=topics" for a label-informed
        /// reference (the names `check` gives such rows).
        package var rule: String
        package var grouping: String
        /// The group's number within its cell, from 0; −1 for an item left out as noise.
        package var group: Int
        /// Whether the grouping left the item out as noise.
        package var noise: Bool
        package var groupSize: Int
        /// One of the group's three most central entries (`centralEntries`).
        package var central: Bool
        /// The group's words (`ClassTFIDF`), most characteristic first; none for noise or a corpus without texts.
        package var keywords: [String]

        package enum CodingKeys: String, CodingKey {
            case id, text, label, space, rule, grouping, group, noise, groupSize, central, keywords
        }

        /// The row's fields in the order of `csvTable`'s columns (a missing text or label empty, keywords space-separated).
        package var csvFields: [String] {
            [
                id, text ?? "", label ?? "", space, rule, grouping, String(group), String(noise), String(groupSize), String(central),
                keywords.joined(separator: " "),
            ]
        }

        /// As synthesised, but a missing text or label is written as null, so every line has every key.
        package func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(id, forKey: .id)
            try c.encode(text, forKey: .text)
            try c.encode(label, forKey: .label)
            try c.encode(space, forKey: .space)
            try c.encode(rule, forKey: .rule)
            try c.encode(grouping, forKey: .grouping)
            try c.encode(group, forKey: .group)
            try c.encode(noise, forKey: .noise)
            try c.encode(groupSize, forKey: .groupSize)
            try c.encode(central, forKey: .central)
            try c.encode(keywords, forKey: .keywords)
        }
    }

    /// The CSV's columns: the cell's and item's names are text, the group and its size numbers, noise and central booleans.
    package static let csvTable = CSVTable(
        CSVTable.text("id", "text", "label", "space", "rule", "grouping") + CSVTable.numbers("group", "noise", "group_size", "central")
            + CSVTable.text("keywords"))

    /// The rule column of a cell: the rule, else what the cell is cut by.
    package static func ruleName(_ g: GroupingOutcome) -> String { g.rule?.name ?? (g.labelInformed ? "k=topics" : "own cuts") }

    /// Every item of every cell that kept its members, cell by cell in the analysis's row order, items in corpus order,
    /// handed to `body` one at a time: no file's rows are ever all in memory.
    package static func forEachRow(_ a: CorpusAnalysis, _ body: (Row) throws -> Void) throws {
        guard let items = a.items else { return }
        let words = ClassTFIDF(texts: items.map(\.text))
        for s in a.spaces {
            for g in s.groupings {
                guard let m = g.members, m.labels.count == items.count else { continue }
                let (sizes, central, keywords) = (m.sizes, m.isCentral, words.keywords(classes: m.labels))
                for (i, item) in items.enumerated() {
                    let group = m.labels[i]
                    try body(
                        Row(
                            id: item.id, text: item.text, label: item.label, space: s.space.description, rule: ruleName(g),
                            grouping: g.grouping.name, group: Int(max(group, -1)), noise: group < 0, groupSize: sizes[group] ?? 0,
                            central: central[i], keywords: keywords[group] ?? []))
                }
            }
        }
    }

    /// The rows of `analyses` in `format`, handed to `write` a line at a time (a CSV's header first): JSON Lines with keys
    /// sorted, so the bytes are the same on every run, or CSV through the harness's one writer (`CSVTable`).
    package static func write(_ analyses: [CorpusAnalysis], as format: Format, to write: (String) throws -> Void) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        if format.kind == .csv { try write(csvTable.header) }
        for a in analyses {
            try forEachRow(a) { r in
                switch format.kind {
                case .jsonl: try write(String(decoding: try encoder.encode(r), as: UTF8.self) + "\n")
                case .csv: try write(csvTable.row(r.csvFields))
                }
            }
        }
    }

    /// The assignments of `analyses` as a file's contents, streamed into it row by row (gzip-compressed for a `.gz` name).
    package static func contents(_ analyses: [CorpusAnalysis], as format: Format) -> FileContents {
        .text(gzip: format.gzip) { write in try Self.write(analyses, as: format, to: write) }
    }

    /// FOLDER/CORPUS-SOURCE.jsonl and .csv for every analysis that kept its members; a name written twice is refused.
    package static func writeAll(_ results: AnalysisResults, folder: String) throws {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        var files = OutputFiles()
        for a in results.analyses where a.items != nil && a.spaces.contains(where: { $0.groupings.contains { $0.members != nil } }) {
            let stem = Self.stem(folder: folder, corpus: a.corpus.name, source: a.source)
            for format in [Format(kind: .jsonl), Format(kind: .csv)] {
                try files.write(contents([a], as: format), to: stem + format.ending)
            }
        }
    }

    /// FOLDER/CORPUS-SOURCE: the path of an analysis's assignment files but their ending (.jsonl, .csv).
    package static func stem(folder: String, corpus: String, source: String) -> String {
        "\(folder)/\(fileNameSlug(corpus))-\(fileNameSlug(source))"
    }

    /// The format of an assignments file, named by its ending: CSV or JSON Lines, gzip-compressed after a further `.gz`.
    package struct Format: Equatable {
        package enum Kind: String { case csv, jsonl }
        package var kind: Kind
        package var gzip = false

        package init(kind: Kind, gzip: Bool = false) { (self.kind, self.gzip) = (kind, gzip) }

        /// ".csv", ".jsonl.gz", ….
        package var ending: String { ".\(kind.rawValue)\(gzip ? ".gz" : "")" }
    }

    /// The format `path` asks for: CSV for `.csv`, JSON Lines for `.jsonl`, either gzip-compressed with `.gz` after it;
    /// another ending is refused (before any work).
    package static func format(of path: String) throws -> Format {
        let name = URL(fileURLWithPath: path).lastPathComponent.lowercased()
        let gzip = name.hasSuffix(".gz")
        let inner = URL(fileURLWithPath: gzip ? String(name.dropLast(3)) : name).pathExtension
        guard let kind = Format.Kind(rawValue: inner) else {
            throw ThemeLabError.invalid("--assignments \(path): the file must end in .csv, .jsonl, .csv.gz or .jsonl.gz (its format)")
        }
        return Format(kind: kind, gzip: gzip)
    }

    /// Groups listed per label-free cell: each group's size, its words (`ClassTFIDF`) and its most central entries
    /// (texts cut to `width`), the `limit` largest groups, then how many more; with labels, the most common topic of each
    /// group.
    package static func markdown(_ a: CorpusAnalysis, limit: Int = 8, width: Int = 60) -> String {
        guard let items = a.items else { return "" }
        let words = ClassTFIDF(texts: items.map(\.text))
        var out = ""
        for s in a.spaces {
            for g in s.groupings where !g.labelInformed {
                guard let m = g.members else { continue }
                let keywords = words.keywords(classes: m.labels)
                let count = m.groupsBySize.count
                out +=
                    "\n**\(s.space) space, \(g.grouping)\(g.rule.map { " at \($0)" } ?? "")**: \(count) group\(count == 1 ? "" : "s")\n\n"
                let shared = m.groupsBySize.filter { $0.size > 1 }
                for (group, size) in shared.prefix(limit) {
                    let texts = m.central(of: group).map { "«\(cut(items[$0].text ?? items[$0].id, width))»" }
                    let named =
                        keywords[group].map { $0.isEmpty ? "" : " [\(escapingControlCharacters($0.joined(separator: ", ")))]" } ?? ""
                    out += "- \(size) entries\(named)\(topic(of: group, m, items)): \(texts.joined(separator: " · "))\n"
                }
                if let largest = shared.dropFirst(limit).first?.size {
                    out += "- … \(shared.count - limit) more group\(shared.count - limit == 1 ? "" : "s") of \(largest) entries or fewer\n"
                }
                let alone = m.groupsBySize.count - shared.count
                if alone > 0 { out += "- \(alone) entr\(alone == 1 ? "y" : "ies") alone in a group of one\n" }
                if let noise = m.sizes[-1] { out += "- \(noise) entr\(noise == 1 ? "y" : "ies") left out as noise\n" }
            }
        }
        return out.isEmpty
            ? "" : "\n### Groups ([its words by c-TF-IDF], then its most central entries; all in `--assignments FILE`)\n" + out
    }

    /// What `analyze` prints after the tables: every analysis's groups (`markdown`) when `shown`, else where to find them.
    package static func listing(_ analyses: [CorpusAnalysis], shown: Bool) -> String {
        shown
            ? analyses.map { markdown($0) }.joined()
            : "\nGroups: --show-groups lists each cell's groups with their words and most central entries; --assignments FILE "
                + "writes every item's group.\n"
    }

    /// ", mostly 'travel' (4 of 5)" or ", all 'travel'" for a labelled corpus; empty without labels.
    static func topic(of group: Int32, _ m: GroupMembers, _ items: [CorpusItem]) -> String {
        let labels = m.labels.indices.filter { m.labels[$0] == group }.compactMap { items[$0].label }
        let counts = labels.reduce(into: [String: Int]()) { $0[$1, default: 0] += 1 }
        guard let top = counts.max(by: { ($0.value, $1.key) < ($1.value, $0.key) }) else { return "" }
        let label = escapingControlCharacters(top.key)
        return top.value == labels.count ? ", all '\(label)'" : ", mostly '\(label)' (\(top.value) of \(labels.count))"
    }

    /// A text on one line, cut to `width` characters with "…", its other control characters escaped (ESC, BEL: text
    /// from a corpus never drives the terminal it is printed on).
    static func cut(_ text: String, _ width: Int) -> String {
        let line = text.split(whereSeparator: \.isNewline).joined(separator: " ")
        return escapingControlCharacters(line.count <= width ? line : String(line.prefix(width - 1)) + "…")
    }
}
