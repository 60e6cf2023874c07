/// The one CSV writer of the harness: every CSV file it writes declares its columns here, each with a kind, and every
/// field goes through `field(_:_:)` (RFC 4180, as Python's `csv` module reads it).
///
/// - A field holding a comma, a double quote, CR, LF or NUL is quoted, a quote inside doubled.
/// - A text field (ids, texts, labels, names) whose first character, after any single quotes, is `=`, `+`, `-`, `@`, TAB
///   or CR is written with one more `'` in front, inside quotes, so a spreadsheet shows it as text instead of running it
///   as a formula (OWASP, "CSV Injection"). `restoredText` takes that quote off again; the corpus reader does so.
/// - A number field is written as it is: −0.12 stays a number. The column's kind decides, never the value.
package struct CSVTable: Sendable {
    package enum Kind: Sendable { case text, number }

    package struct Column: Sendable {
        package var name: String
        package var kind: Kind
    }

    package let columns: [Column]

    package init(_ columns: [Column]) { self.columns = columns }

    /// Text columns, in order.
    package static func text(_ names: String...) -> [Column] { names.map { Column(name: $0, kind: .text) } }
    /// Number columns (numbers, counts, booleans), in order.
    package static func numbers(_ names: String...) -> [Column] { numbers(names) }
    package static func numbers(_ names: [String]) -> [Column] { names.map { Column(name: $0, kind: .number) } }

    package var names: [String] { columns.map(\.name) }

    /// The header line, with its line break.
    package var header: String { line(names.map { ($0, .text) }) }

    /// One row as a line, with its line break; one field per column.
    package func row(_ fields: [String]) -> String {
        assert(fields.count == columns.count, "a CSV row of \(fields.count) fields for \(columns.count) columns")
        return line(zip(fields, columns.map(\.kind)).map { ($0, $1) })
    }

    /// The header and `rows`.
    package func render(_ rows: [[String]]) -> String { header + rows.map(row).joined() }

    private func line(_ fields: [(String, Kind)]) -> String {
        fields.map { Self.field($0.0, $0.1) }.joined(separator: ",") + "\n"
    }

    /// The characters that make a spreadsheet read a cell as a formula when they begin it (all ASCII).
    package static let formulaStarts: Set<UInt8> = Set("=+-@\t\r".utf8)

    /// The characters that make a field quoted (all ASCII, so never part of another character's UTF-8).
    private static let quoted: Set<UInt8> = Set(",\"\r\n\0".utf8)

    /// One field as written: neutralised when it is text that a spreadsheet would run, quoted when it must be.
    package static func field(_ value: String, _ kind: Kind) -> String {
        let neutralised = kind == .text && startsLikeAFormula(value, quotes: 0...)
        guard neutralised || value.utf8.contains(where: quoted.contains) else { return value }
        // Code point by code point: a quote that a combining mark follows is one Character with it, and still a quote.
        var out = String.UnicodeScalarView(neutralised ? "\"'".unicodeScalars : "\"".unicodeScalars)
        for c in value.unicodeScalars {
            out.append(c)
            if c == "\"" { out.append(c) }
        }
        out.append("\"")
        return String(out)
    }

    /// A quoted text field as it was before `field` neutralised it: one leading `'` fewer when single quotes and then a
    /// formula character begin it; any other field as it is.
    package static func restoredText(_ field: String) -> String {
        startsLikeAFormula(field, quotes: 1...) ? String(field.utf8.dropFirst())! : field
    }

    /// Whether `text` is a run of single quotes (its length in `quotes`) and then a formula character.
    private static func startsLikeAFormula(_ text: String, quotes: PartialRangeFrom<Int>) -> Bool {
        let leading = text.utf8.prefix { $0 == UInt8(ascii: "'") }.count
        guard quotes.contains(leading), let next = text.utf8.dropFirst(leading).first else { return false }
        return formulaStarts.contains(next)
    }
}
