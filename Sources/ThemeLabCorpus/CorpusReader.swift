import Foundation
import ThemeLabCore

/// Which field or column holds each item's id, text and label (`--id-column`, `--text-column`, `--label-column`, or
/// `idColumn`, `textColumn`, `labelColumn` in an experiment file); by default `id`, `text` and `label`. A column named
/// here other than its default must be on every row.
package struct CorpusColumns: Sendable, Equatable {
    package var id = "id"
    package var text = "text"
    package var label = "label"

    package init(id: String? = nil, text: String? = nil, label: String? = nil) {
        (self.id, self.text, self.label) = (id ?? "id", text ?? "text", label ?? "label")
    }

    /// The role (`id`, `text`, `label`, `group2`, `order`) of the file's field `name`, or nil when it plays none.
    func role(of name: String) -> String? {
        switch name {
        case id: "id"
        case text: "text"
        case label: "label"
        case "group2", "order": [id, text, label].contains(name) ? nil : name
        default: nil
        }
    }

    /// The file's field that plays `role`.
    func name(of role: String) -> String {
        switch role {
        case "id": id
        case "text": text
        case "label": label
        default: role
        }
    }

    /// The columns named here other than by default: each must be on every row.
    var required: [(role: String, column: String)] {
        [("id", id), ("text", text), ("label", label)].filter { $0.role != $0.column }
    }

    /// The option that names `role`'s column: `--label-column`.
    static func option(_ role: String) -> String { "--\(role)-column" }

    /// Refuses one column for two roles (`--label-column id` beside the default id column), naming the option given.
    func refuseSharedColumns(file: String) throws {
        let roles = [("id", id), ("text", text), ("label", label)]
        for (k, (role, column)) in roles.enumerated() {
            guard let other = roles[..<k].first(where: { $0.1 == column })?.0 else { continue }
            let (named, also) = role != column ? (role, other) : (other, role)
            throw ThemeLabError.input(
                "\(file): \(Self.option(named)) '\(column)' is the \(also) column too (each role needs a column of its own)")
        }
    }
}

/// Reads a corpus from JSONL (one object per line) or from CSV/TSV with a header row naming the
/// same columns: `id`, `text`, `label` (or those `CorpusColumns` names), optional `group2` and `order`. An id may be a
/// whole number (read as its decimal text); without an id column items are numbered by their line (with a note); an empty
/// text is refused naming the line. Errors name the file and line.
package enum CorpusReader {
    package static func read(path: String, columns: CorpusColumns = CorpusColumns()) throws -> Corpus {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ThemeLabError.input("\(path): cannot read file")
        }
        let name = corpusName(ofFile: path)
        try columns.refuseSharedColumns(file: path)
        switch URL(fileURLWithPath: path).pathExtension.lowercased() {
        case "csv": return try parseDelimited(data, delimiter: ",", file: path, name: name, columns: columns)
        case "tsv": return try parseDelimited(data, delimiter: "\t", file: path, name: name, columns: columns)
        default: return try parseJSONL(data, file: path, name: name, columns: columns)
        }
    }

    /// A corpus's name from its file's, less its extension, with what would break a report's table row, heading or
    /// figure (a control character or line break, `|`, `<`, `>`, a backquote) replaced by `_`.
    package static func corpusName(ofFile path: String) -> String {
        let stem = URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
        let unsafe: Set<Unicode.Scalar> = ["|", "<", ">", "`", "\u{2028}", "\u{2029}"]
        return String(
            String.UnicodeScalarView(
                stem.unicodeScalars.map { $0.properties.generalCategory == .control || unsafe.contains($0) ? "_" : $0 }))
    }

    package static func parseJSONL(_ data: Data, file: String, name: String, columns: CorpusColumns = CorpusColumns()) throws -> Corpus {
        var builder = Builder(file: file, columns: columns)
        var lineNumber = 0
        for rawLine in data.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
            lineNumber += 1
            guard let line = String(data: rawLine, encoding: .utf8) else {
                throw ThemeLabError.input("\(file):\(lineNumber): invalid UTF-8")
            }
            if line.allSatisfy(\.isWhitespace) { continue }
            guard let fields = try JSONInput.parse(Data(rawLine), file: "\(file):\(lineNumber)") as? [String: Any] else {
                throw ThemeLabError.input("\(file):\(lineNumber): expected a JSON object")
            }
            for (role, column) in columns.required where fields[column] == nil {
                throw ThemeLabError.input(
                    "\(file):\(lineNumber): \(CorpusColumns.option(role)) '\(column)' is not a field of this line "
                        + "(it has \(fields.keys.sorted().joined(separator: ", ")))")
            }
            try builder.add(try roles(of: fields, columns: columns, at: "\(file):\(lineNumber)"), line: lineNumber)
        }
        return try builder.corpus(name: name)
    }

    /// An object's fields by role (`CorpusColumns.role`): strings, and whole numbers for an id, a label or an order.
    static func roles(of fields: [String: Any], columns: CorpusColumns, at place: String) throws -> [String: String] {
        var strings: [String: String] = [:]
        for (key, value) in fields {
            guard let role = columns.role(of: key) else { continue }
            switch (value, role == "text" ? nil : (value as? NSNumber).flatMap(WholeNumber.init)) {
            case (let s as String, _) where role != "order": strings[role] = s
            case (_, .exact(let digits)?): strings[role] = digits
            case (_, .inexact?):
                throw ThemeLabError.input(
                    "\(place): field '\(key)' is a whole number that is not read exactly from JSON (more than 38 digits, or 2^53 "
                        + "or more written with a fraction or an exponent); write it as a string")
            case (is NSNull, _): continue
            default:
                let kind = role == "order" ? "an integer" : role == "text" ? "a string" : "a string or a whole number"
                throw ThemeLabError.input("\(place): field '\(key)' must be \(kind)")
            }
        }
        return strings
    }

    package static func parseDelimited(
        _ data: Data, delimiter: Character, file: String, name: String, columns names: CorpusColumns = CorpusColumns()
    ) throws -> Corpus {
        guard let text = String(data: data, encoding: .utf8) else {
            let line = firstInvalidUTF8Line(data)
            throw ThemeLabError.input("\(file):\(line): invalid UTF-8")
        }
        let records = try DelimitedText.records(text, delimiter: delimiter, file: file)
        guard let header = records.first else { throw ThemeLabError.input("\(file): empty file (expected a header row)") }
        let columns = header.fields.map { $0.trimmingCharacters(in: .whitespaces) }
        for (role, column) in names.required where !columns.contains(column) {
            throw ThemeLabError.input(
                "\(file): \(CorpusColumns.option(role)) '\(column)' is not a column (the header has \(columns.joined(separator: ", ")))")
        }
        var builder = Builder(file: file, columns: names)
        for record in records.dropFirst() {
            if record.fields.count == 1, record.fields[0].isEmpty { continue }
            guard record.fields.count == columns.count else {
                throw ThemeLabError.input("\(file):\(record.line): \(record.fields.count) fields, header has \(columns.count)")
            }
            var strings: [String: String] = [:]
            for (k, (column, value)) in zip(columns, record.fields).enumerated() {
                guard let role = names.role(of: column), !value.isEmpty || role == "text" else { continue }
                strings[role] = role == "order" ? value : record.text(k)
            }
            try builder.add(strings, line: record.line)
        }
        return try builder.corpus(name: name)
    }

    /// The line of the first byte that is not UTF-8, lines ending at LF, CRLF or a lone CR (as `DelimitedText` reads them).
    package static func firstInvalidUTF8Line(_ data: Data) -> Int {
        var (line, start) = (1, data.startIndex)
        for i in data.indices where data[i] == UInt8(ascii: "\n") || data[i] == UInt8(ascii: "\r") {
            if String(data: data[start..<i], encoding: .utf8) == nil { return line }
            // The LF of a CRLF ends no second line.
            if !(data[i] == UInt8(ascii: "\n") && i > data.startIndex && data[i - 1] == UInt8(ascii: "\r")) { line += 1 }
            start = i + 1
        }
        return line
    }

    /// Collects items, checking each row as it comes.
    package struct Builder {
        package let file: String
        package let columns: CorpusColumns
        package var items: [CorpusItem] = []
        package var lineOfID: [String: Int] = [:]
        package var labeledLine: Int?
        package var unlabeledLine: Int?
        package var orderedLine: Int?
        package var unorderedLine: Int?
        package var lineOfOrder: [Int: Int] = [:]
        package var identifiedLine: Int?
        package var unidentifiedLine: Int?

        package init(file: String, columns: CorpusColumns = CorpusColumns()) { (self.file, self.columns) = (file, columns) }

        /// Adds the item of one row, its fields by role (`CorpusColumns.role`).
        package mutating func add(_ fields: [String: String], line: Int) throws {
            for (role, column) in columns.required where fields[role] == nil {
                throw ThemeLabError.input("\(file):\(line): missing field '\(column)' (the \(role) column you named)")
            }
            let given = fields["id"].flatMap { $0.isEmpty ? nil : $0 }
            try everyOrNone(
                columns.id, given: given != nil, line: line, &identifiedLine, &unidentifiedLine,
                "give every item an id, or none and each is numbered by its line")
            if let role = ["id", "text", "label", "group2", "order"].first(where: { fields[$0]?.unicodeScalars.contains("\0") == true }) {
                throw ThemeLabError.input(
                    "\(file):\(line): field '\(columns.name(of: role))' holds a NUL character (U+0000); remove it")
            }
            let id = given ?? String(line)
            if let text = fields["text"], text.allSatisfy(\.isWhitespace) {
                throw ThemeLabError.input("\(file):\(line): empty text in field '\(columns.text)' (remove the line or give it a text)")
            }
            if let first = lineOfID[id] {
                throw ThemeLabError.input("\(file):\(line): duplicate id '\(id)' (first on line \(first))")
            }
            var order: Int?
            if let o = fields["order"] {
                guard let n = Int(o) else { throw ThemeLabError.input("\(file):\(line): field 'order' must be an integer, got '\(o)'") }
                if let first = lineOfOrder[n] {
                    throw ThemeLabError.input("\(file):\(line): order \(n) repeats line \(first)'s (each item is saved at its own step)")
                }
                lineOfOrder[n] = line
                order = n
            }
            try everyOrNone("order", given: order != nil, line: line, &orderedLine, &unorderedLine, "give every item an order or none")
            let label = fields["label"].flatMap { $0.isEmpty ? nil : $0 }
            try everyOrNone(columns.label, given: label != nil, line: line, &labeledLine, &unlabeledLine, "label every item or none")
            lineOfID[id] = line
            items.append(CorpusItem(id: id, text: fields["text"], label: label, group2: fields["group2"], order: order))
        }

        /// Refuses a field that some rows give and others lack, naming the later line and the first of the other kind.
        package func everyOrNone(
            _ field: String, given: Bool, line: Int, _ with: inout Int?, _ without: inout Int?, _ advice: String
        ) throws {
            if given { with = with ?? line } else { without = without ?? line }
            guard let w = with, let o = without else { return }
            throw ThemeLabError.input(
                "\(file):\(max(w, o)): missing field '\(field)' (line \(min(w, o)) \(w < o ? "has" : "lacks") one; \(advice))")
        }

        package func corpus(name: String) throws -> Corpus {
            guard !items.isEmpty else { throw ThemeLabError.input("\(file): empty file (expected at least one item)") }
            var notes = unidentifiedLine != nil ? ["\(file): no '\(columns.id)' field; each item's id is its line number"] : []
            if labeledLine == nil {
                notes.append(
                    "\(file): no '\(columns.label)' field, so no labels (--label-column, or labelColumn in an experiment file, "
                        + "names another)")
            }
            return Corpus(name: name, items: items, notes: notes)
        }
    }
}

/// RFC 4180 records, read code point by code point as Python's `csv` module reads them: fields separated by a
/// delimiter, optionally double-quoted (a quote inside a quoted field is doubled), records ended by LF, CRLF or a lone CR.
package enum DelimitedText {
    package struct Record {
        package var fields: [String]
        package var line: Int
        /// Whether each field was written in double quotes.
        package var quoted: [Bool] = []

        /// Field `k` of a text column: as it was before the harness's CSV writer neutralised a leading formula character
        /// (`CSVTable.restoredText`, on a quoted field).
        package func text(_ k: Int) -> String { quoted[k] ? CSVTable.restoredText(fields[k]) : fields[k] }
    }

    package static func records(_ text: String, delimiter: Character, file: String) throws -> [Record] {
        var reader = Reader(delimiter: delimiter.unicodeScalars.first!)
        for c in text.unicodeScalars { reader.take(c) }
        return try reader.finish(file: file)
    }

    /// The state of one pass over a text: the records so far, the one being read and where the reader is.
    private struct Reader {
        let delimiter: Unicode.Scalar
        var records: [Record] = []
        var current = Record(fields: [], line: 1)
        var field = String.UnicodeScalarView()
        var line = 1
        var (inQuotes, fieldQuoted, closing) = (false, false, false)
        var previous: Unicode.Scalar?

        init(delimiter: Unicode.Scalar) { self.delimiter = delimiter }

        mutating func take(_ c: Unicode.Scalar) {
            defer { previous = c }
            if closing {
                // A quote inside quotes: doubled, a quote of the field's; else the end of the quotes.
                closing = false
                guard c != "\"" else {
                    field.append(c)
                    return
                }
                inQuotes = false
            }
            if inQuotes {
                if c == "\"" {
                    closing = true
                } else {
                    if c == "\r" || (c == "\n" && previous != "\r") { line += 1 }
                    field.append(c)
                }
                return
            }
            switch c {
            case "\"" where field.isEmpty: (inQuotes, fieldQuoted) = (true, true)
            case delimiter: endField()
            case "\n" where previous == "\r": break
            case "\n", "\r":
                endField()
                records.append(current)
                line += 1
                current = Record(fields: [], line: line)
            default: field.append(c)
            }
        }

        mutating func endField() {
            current.fields.append(String(field))
            current.quoted.append(fieldQuoted)
            (field, fieldQuoted) = (String.UnicodeScalarView(), false)
        }

        mutating func finish(file: String) throws -> [Record] {
            if closing { (closing, inQuotes) = (false, false) }
            if inQuotes { throw ThemeLabError.input("\(file):\(current.line): unterminated quoted field") }
            if !field.isEmpty || !current.fields.isEmpty || fieldQuoted {
                endField()
                records.append(current)
            }
            return records
        }
    }
}
