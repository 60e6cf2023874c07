import Foundation
import ThemeLabCore
import ThemeLabCorpus
import ThemeLabMethods
import ThemeLabStudy

/// Which entries form each group: the `assignments` files (one row per item and cell, JSONL or CSV; docs/results-format.md)
/// and the groups listing of `analyze`'s Markdown.
package enum AssignmentsReport {
    /// One row of an assignments file.
    package struct Row: Encodable {
        package var id: String
        package var text: String?
        package var label: String?
        package var space: String
        package var rule: String?
        package var grouping: String
        /// The group's number within its cell (nil: left out as noise).
        package var group: Int?
        package var groupSize: Int
        /// One of the group's three most central entries (`centralEntries`).
        package var central: Bool

        package enum CodingKeys: String, CodingKey { case id, text, label, space, rule, grouping, group, groupSize, central }

        /// The row's fields in the order of `csvTable`'s columns (a missing text, label, rule or group empty).
        package var csvFields: [String] {
            [id, text ?? "", label ?? "", space, rule ?? "", grouping, group.map(String.init) ?? "", String(groupSize), String(central)]
        }

        /// As synthesised, but a missing text, label, rule or group is written as null, so every line has every key.
        package func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(id, forKey: .id)
            try c.encode(text, forKey: .text)
            try c.encode(label, forKey: .label)
            try c.encode(space, forKey: .space)
            try c.encode(rule, forKey: .rule)
            try c.encode(grouping, forKey: .grouping)
            try c.encode(group, forKey: .group)
            try c.encode(groupSize, forKey: .groupSize)
            try c.encode(central, forKey: .central)
        }
    }

    /// The CSV's columns: the cell's and item's names are text, the group and its size numbers.
    package static let csvTable = CSVTable(
        CSVTable.text("id", "text", "label", "space", "rule", "grouping") + CSVTable.numbers("group", "group_size", "central"))

    /// Every item of every cell that kept its members, cell by cell in the analysis's row order, items in corpus order,
    /// handed to `body` one at a time: no file's rows are ever all in memory.
    package static func forEachRow(_ a: CorpusAnalysis, _ body: (Row) throws -> Void) throws {
        guard let items = a.items else { return }
        for s in a.spaces {
            for g in s.groupings {
                guard let m = g.members, m.labels.count == items.count else { continue }
                let (sizes, central) = (m.sizes, m.isCentral)
                for (i, item) in items.enumerated() {
                    let group = m.labels[i]
                    try body(
                        Row(
                            id: item.id, text: item.text, label: item.label, space: s.space.description, rule: g.rule?.name,
                            grouping: g.grouping.name, group: group >= 0 ? Int(group) : nil, groupSize: sizes[group] ?? 0,
                            central: central[i]))
                }
            }
        }
    }

    /// The rows of `analyses` in `format`, handed to `write` a line at a time (a CSV's header first): JSON Lines with keys
    /// sorted, so the bytes are the same on every run, or CSV through the harness's one writer (`CSVTable`).
    package static func write(_ analyses: [CorpusAnalysis], as format: Format, to write: (String) throws -> Void) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        if format == .csv { try write(csvTable.header) }
        for a in analyses {
            try forEachRow(a) { r in
                switch format {
                case .jsonl: try write(String(decoding: try encoder.encode(r), as: UTF8.self) + "\n")
                case .csv: try write(csvTable.row(r.csvFields))
                }
            }
        }
    }

    /// The assignments of `analyses` as a file's contents, streamed into it row by row.
    package static func contents(_ analyses: [CorpusAnalysis], as format: Format) -> FileContents {
        .stream { stream in try write(analyses, as: format, to: stream.write) }
    }

    /// FOLDER/CORPUS-SOURCE.jsonl and .csv for every analysis that kept its members; a name written twice is refused.
    package static func writeAll(_ results: AnalysisResults, folder: String) throws {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        var files = OutputFiles()
        for a in results.analyses where a.items != nil && a.spaces.contains(where: { $0.groupings.contains { $0.members != nil } }) {
            let stem = Self.stem(folder: folder, corpus: a.corpus.name, source: a.source)
            for format in [Format.jsonl, .csv] { try files.write(contents([a], as: format), to: "\(stem).\(format.rawValue)") }
        }
    }

    /// FOLDER/CORPUS-SOURCE: the path of an analysis's assignment files but their ending (.jsonl, .csv).
    package static func stem(folder: String, corpus: String, source: String) -> String {
        "\(folder)/\(fileNameSlug(corpus))-\(fileNameSlug(source))"
    }

    /// The formats an assignments file may have, named by its ending.
    package enum Format: String { case csv, jsonl }

    /// The format `path` asks for: CSV for `.csv`, JSON Lines for `.jsonl`; another ending is refused (before any work).
    package static func format(of path: String) throws -> Format {
        guard let format = Format(rawValue: URL(fileURLWithPath: path).pathExtension.lowercased()) else {
            throw ThemeLabError.invalid("--assignments \(path): the file must end in .jsonl or .csv (its format)")
        }
        return format
    }

    /// Groups listed per label-free cell: each group's size and its most central entries (texts cut to `width`), the
    /// `limit` largest groups, then how many more; with labels, the most common topic of each group.
    package static func markdown(_ a: CorpusAnalysis, limit: Int = 8, width: Int = 60) -> String {
        guard let items = a.items else { return "" }
        var out = ""
        for s in a.spaces {
            for g in s.groupings where !g.labelInformed {
                guard let m = g.members else { continue }
                let count = m.groupsBySize.count
                out +=
                    "\n**\(s.space) space, \(g.grouping)\(g.rule.map { " at \($0)" } ?? "")**: \(count) group\(count == 1 ? "" : "s")\n\n"
                let shared = m.groupsBySize.filter { $0.size > 1 }
                for (group, size) in shared.prefix(limit) {
                    let texts = m.central(of: group).map { "«\(cut(items[$0].text ?? items[$0].id, width))»" }
                    out += "- \(size) entries\(topic(of: group, m, items)): \(texts.joined(separator: " · "))\n"
                }
                if let largest = shared.dropFirst(limit).first?.size {
                    out += "- … \(shared.count - limit) more group\(shared.count - limit == 1 ? "" : "s") of \(largest) entries or fewer\n"
                }
                let alone = m.groupsBySize.count - shared.count
                if alone > 0 { out += "- \(alone) entr\(alone == 1 ? "y" : "ies") alone in a group of one\n" }
                if let noise = m.sizes[-1] { out += "- \(noise) entr\(noise == 1 ? "y" : "ies") left out as noise\n" }
            }
        }
        return out.isEmpty ? "" : "\n### Groups (most central entries first; all in `--assignments FILE`)\n" + out
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
