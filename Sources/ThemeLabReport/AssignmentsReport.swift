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

    package static let csvColumns = ["id", "text", "label", "space", "rule", "grouping", "group", "group_size", "central"]

    /// The most rows one file holds (items × cells): past it the file would not fit in memory, so it is refused.
    package static let maximumRows = 20_000_000

    /// Every item of every cell that kept its members, cell by cell in the analysis's row order, items in corpus order;
    /// refused, naming the corpus, past `maximumRows`.
    package static func rows(_ a: CorpusAnalysis) throws -> [Row] {
        guard let items = a.items else { return [] }
        let cells = a.spaces.reduce(0) { total, s in total + s.groupings.filter { $0.members != nil }.count }
        guard items.count * cells <= maximumRows else {
            throw ThemeLabError.invalid(
                "assignments of '\(a.corpus.name)': \(items.count) items × \(cells) cells is more than \(maximumRows) rows; "
                    + "ask for fewer spaces, rules or groupings")
        }
        var out: [Row] = []
        for s in a.spaces {
            for g in s.groupings {
                guard let m = g.members, m.labels.count == items.count else { continue }
                let sizes = m.sizes
                let central = Set(m.central.values.joined())
                for (i, item) in items.enumerated() {
                    let group = m.labels[i]
                    out.append(
                        Row(
                            id: item.id, text: item.text, label: item.label, space: s.space.description, rule: g.rule?.name,
                            grouping: g.grouping.name, group: group >= 0 ? Int(group) : nil, groupSize: sizes[group] ?? 0,
                            central: central.contains(i)))
                }
            }
        }
        return out
    }

    /// JSON Lines, keys sorted (so the bytes are the same on every run).
    package static func jsonl(_ rows: [Row]) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return try rows.map { String(decoding: try encoder.encode($0), as: UTF8.self) + "\n" }.joined()
    }

    package static func csv(_ rows: [Row]) -> String {
        var lines = [csvColumns.joined(separator: ",")]
        for r in rows {
            let fields = [
                r.id, r.text ?? "", r.label ?? "", r.space, r.rule ?? "", r.grouping, r.group.map(String.init) ?? "", String(r.groupSize),
                r.central ? "true" : "false",
            ]
            lines.append(fields.map(AnalysisReport.csvField).joined(separator: ","))
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// FOLDER/CORPUS-SOURCE.jsonl and .csv for every analysis that kept its members; a name written twice is refused.
    package static func writeAll(_ results: AnalysisResults, folder: String) throws {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        var files = OutputFiles()
        for a in results.analyses {
            let (rows, stem) = (try rows(a), "\(folder)/\(fileNameSlug(a.corpus.name))-\(fileNameSlug(a.source))")
            guard !rows.isEmpty else { continue }
            try files.write(try jsonl(rows), to: stem + ".jsonl")
            try files.write(csv(rows), to: stem + ".csv")
        }
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

    /// `rows` in `format`.
    package static func render(_ rows: [Row], as format: Format) throws -> String {
        switch format {
        case .csv: csv(rows)
        case .jsonl: try jsonl(rows)
        }
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
                    let texts = (m.central[group] ?? []).map { "«\(cut(items[$0].text ?? items[$0].id, width))»" }
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
        return top.value == labels.count ? ", all '\(top.key)'" : ", mostly '\(top.key)' (\(top.value) of \(labels.count))"
    }

    /// A text on one line, cut to `width` characters with "…".
    static func cut(_ text: String, _ width: Int) -> String {
        let line = text.split(whereSeparator: \.isNewline).joined(separator: " ")
        return line.count <= width ? line : String(line.prefix(width - 1)) + "…"
    }
}
