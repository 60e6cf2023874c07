import Foundation
import Testing
import ThemeLabCorpus

@Suite struct CorpusReaderTests {
    func write(_ text: String, _ name: String) -> String {
        let path = temporaryFolder() + "/" + name
        _ = FileManager.default.createFile(atPath: path, contents: Data(text.utf8))
        return path
    }

    @Test func readsJSONL() throws {
        let path = write(
            """
            {"id": "a", "text": "I said the wrong thing", "label": "work", "order": 2}

            {"id": "b", "text": "Café au lait", "label": "food", "group2": "life", "order": 1}
            """, "c.jsonl")
        let c = try CorpusReader.read(path: path)
        #expect(c.name == "c")
        #expect(
            c.items == [
                CorpusItem(id: "a", text: "I said the wrong thing", label: "work", order: 2),
                CorpusItem(id: "b", text: "Café au lait", label: "food", group2: "life", order: 1),
            ])
        #expect(c.labelIndices() == [0, 1])
    }

    /// A name taken from a file name loses what would break a Markdown row or heading or an SVG figure (hostile review).
    @Test func aFileNameBecomesANameReportsCanCarry() throws {
        #expect(CorpusReader.corpusName(ofFile: "/x/a|b\u{1}c\nd<i>`e`.jsonl") == "a_b_c_d_i__e_")
        #expect(CorpusReader.corpusName(ofFile: "my journal & café.csv") == "my journal & café")
        let c = try CorpusReader.read(path: write("{\"id\": \"a\", \"text\": \"x\"}\n", "p|q.jsonl"))
        #expect(c.name == "p_q")
    }

    @Test func readsCSVWithQuotesAndTSV() throws {
        let csv = write("id,text,label\r\n1,\"Hello, \"\"you\"\"\",greet\r\n2,\"two\nlines\",greet\r\n3,plain,other\r\n", "c.csv")
        let c = try CorpusReader.read(path: csv)
        #expect(c.items.map(\.text) == ["Hello, \"you\"", "two\nlines", "plain"])
        #expect(c.labelIndices() == [0, 0, 1])
        let tsv = write("label\tid\ttext\nx\tA\tone, two\ny\tB\tthree\n", "c.tsv")
        #expect(
            try CorpusReader.read(path: tsv).items == [
                CorpusItem(id: "A", text: "one, two", label: "x"),
                CorpusItem(id: "B", text: "three", label: "y"),
            ])
    }

    @Test func unlabeledCorpusHasNoLabelIndices() throws {
        let c = try CorpusReader.read(path: write("{\"id\":\"a\",\"text\":\"x\"}\n{\"id\":\"b\",\"text\":\"y\"}\n", "u.jsonl"))
        #expect(!c.isLabeled && c.labelIndices() == nil)
    }

    @Test(arguments: [
        ("{\"id\":\"a\",\"label\":\"x\"}\n{\"id\":\"b\",\"label\":\n", ":2: not valid JSON"),
        ("{\"id\":\"a\",\"label\":\"x\"}\n{\"text\":\"t\",\"label\":\"x\"}\n", ":2: missing field 'id'"),
        ("{\"id\":\"a\",\"label\":\"x\"}\n\n{\"id\":\"a\",\"label\":\"y\"}\n", ":3: duplicate id 'a' (first on line 1)"),
        ("{\"id\":\"a\",\"label\":\"x\"}\n{\"id\":\"b\"}\n", ":2: missing field 'label'"),
        ("[1, 2]\n", ":1: expected a JSON object"),
        ("{\"id\":\"a\",\"label\":3.5}\n", ":1: field 'label' must be a string or a whole number"),
        ("{\"id\":\"a\",\"text\":7}\n", ":1: field 'text' must be a string"),
        ("{\"id\":\"a\",\"text\":\" \"}\n", ":1: empty text in field 'text' (remove the line or give it a text)"),
        ("{\"id\":\"a\",\"text\":\"x\"}\n{\"text\":\"y\"}\n", ":2: missing field 'id' (line 1 has one; give every item an id, or none "),
        ("\n  \n", ": empty file"),
    ])
    func jsonlErrorsNameFileAndLine(_ text: String, _ message: String) {
        let path = write(text, "bad.jsonl")
        let error = errorMessage { _ = try CorpusReader.read(path: path) }
        #expect(error?.hasPrefix(path) == true)
        #expect(error?.contains(message) == true, "\(error ?? "no error")")
    }

    @Test func invalidUTF8NamesTheLine() {
        let path = temporaryFolder() + "/bin.jsonl"
        var data = Data("{\"id\":\"a\",\"label\":\"x\"}\n{\"id\":\"".utf8)
        data.append(contentsOf: [0xC3, 0x28])
        data.append(contentsOf: Array("\",\"label\":\"x\"}\n".utf8))
        _ = FileManager.default.createFile(atPath: path, contents: data)
        #expect(errorMessage { _ = try CorpusReader.read(path: path) } == "\(path):2: invalid UTF-8")
        let csv = temporaryFolder() + "/bin.csv"
        _ = FileManager.default.createFile(atPath: csv, contents: Data("id,label\n".utf8) + Data([0xFF]) + Data(",x\n".utf8))
        #expect(errorMessage { _ = try CorpusReader.read(path: csv) } == "\(csv):2: invalid UTF-8")
        // Lines end at LF, CRLF or a lone CR, as the reader reads the rows (a CR-only file was all line 1).
        for end in ["\r", "\r\n", "\n"] {
            let ended = temporaryFolder() + "/ended.csv"
            let rows = Data("id,label\(end)a,x\(end)\"b\(end)c\",y\(end)".utf8) + Data([0xFF]) + Data(",z\(end)".utf8)
            _ = FileManager.default.createFile(atPath: ended, contents: rows)
            #expect(errorMessage { _ = try CorpusReader.read(path: ended) } == "\(ended):5: invalid UTF-8", "\(end.debugDescription)")
        }
    }

    @Test func csvErrors() {
        let ragged = write("id,label\na,x\nb\n", "r.csv")
        #expect(errorMessage { _ = try CorpusReader.read(path: ragged) } == "\(ragged):3: 1 fields, header has 2")
        let open = write("id,label\na,\"x\n", "q.csv")
        #expect(errorMessage { _ = try CorpusReader.read(path: open) } == "\(open):2: unterminated quoted field")
        let missing = temporaryFolder() + "/nope.jsonl"
        #expect(errorMessage { _ = try CorpusReader.read(path: missing) } == "\(missing): cannot read file")
    }

    /// Whole-number ids and labels are kept as their digits say, past 2^53 too; one a Double cannot hold exactly is
    /// refused naming the line.
    @Test func wholeNumberIDsAndLabelsAreKeptExactly() throws {
        let path = write(
            """
            {"id": 9007199254740993, "text": "a", "label": 9007199254740993}
            {"id": 9007199254740992, "text": "b", "label": 9007199254740992}
            {"id": 18446744073709551615, "text": "c", "label": -12345678901234567890123456789012345678}
            {"id": 1e3, "text": "d", "label": 9007199254740995.0}
            """, "big.jsonl")
        let c = try CorpusReader.read(path: path)
        #expect(c.items.map(\.id) == ["9007199254740993", "9007199254740992", "18446744073709551615", "1000"])
        #expect(
            c.items.map(\.label) == ["9007199254740993", "9007199254740992", "-12345678901234567890123456789012345678", "9007199254740995"])
        #expect(c.topicSizes.count == 4)
        for value in ["1e17", "9007199254740993e1", "1234567890123456789012345678901234567890"] {
            let bad = write("{\"id\": \"a\", \"text\": \"a\"}\n{\"id\": \(value), \"text\": \"b\"}\n", "inexact.jsonl")
            #expect(
                errorMessage { _ = try CorpusReader.read(path: bad) }
                    == "\(bad):2: field 'id' is a whole number that is not read exactly from JSON (more than 38 digits, or 2^53 or more "
                    + "written with a fraction or an exponent); write it as a string")
        }
    }

    /// NUL is refused at input, naming the file, the line and the field (a CSV the harness writes never carries one).
    @Test func aNULIsRefusedNamingTheLineAndField() {
        let jsonl = write("{\"id\": \"a\", \"text\": \"x\"}\n{\"id\": \"b\", \"text\": \"x\\u0000y\"}\n", "nul.jsonl")
        #expect(
            errorMessage { _ = try CorpusReader.read(path: jsonl) } == "\(jsonl):2: field 'text' holds a NUL character (U+0000); remove it")
        let csv = write("id,body,label\na,x,t\nb,y,t\u{0}u\n", "nul.csv")
        #expect(
            errorMessage { _ = try CorpusReader.read(path: csv, columns: CorpusColumns(text: "body")) }
                == "\(csv):3: field 'label' holds a NUL character (U+0000); remove it")
    }

    /// Fields are split code point by code point, as Python's csv splits them: a combining mark after a comma or a quote
    /// belongs to the next field's text, not to the separator (Python: `[['a', '\u0301b', '\u0301c']]`).
    @Test func aCombiningMarkAfterASeparatorStartsTheNextField() throws {
        let records = try DelimitedText.records("a,\u{301}b,\"\u{301}c\"\n", delimiter: ",", file: "m.csv")
        #expect(records.map(\.fields) == [["a", "\u{301}b", "\u{301}c"]])
    }

    /// A quoted text field that single quotes and a formula character begin loses one quote: what the harness's CSV
    /// writer added to neutralise it; an unquoted one and an `order` are read as they are.
    @Test func aNeutralisedTextIsReadAsItWas() throws {
        let csv = write("id,text,label,order\n\"'=a\",\"''-b\",\"'@c\",1\n'=d,\"'x\",\"'\tt\",2\n", "n.csv")
        let c = try CorpusReader.read(path: csv)
        #expect(c.items.map(\.id) == ["=a", "'=d"] && c.items.map(\.text) == ["'-b", "'x"] && c.items.map(\.label) == ["@c", "\tt"])
    }
}
