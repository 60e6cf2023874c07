import Foundation
import Testing
import ThemeLabCore
import ThemeLabCorpus

@testable import ThemeLabReport
@testable import ThemeLabRun
@testable import ThemeLabStudy

/// Exports are inert: every CSV the harness writes reads back the same in Python's `csv` module and in the harness's own
/// reader, no text field begins with what a spreadsheet runs as a formula, and text printed or written as Markdown
/// carries no control character that drives a terminal.
@Suite struct ExportTests {
    /// Texts a spreadsheet would run or a reader would split (OWASP's CSV-injection cases, a lone CR, quotes).
    static let hostileTexts = [
        "=1+2", "+SUM(A1)", "-2", "@cmd", "\tTab first", "\rCR first", "lone\rCR inside", "two\r\nlines", "comma, and \"quote\"",
        "'=already quoted", "''-two quotes", "plain text", "\u{1B}]0;title\u{07} OSC and BEL", "-0.12", "=cmd|' /C calc'!A0",
    ]
    static let hostileIDs = ["=A1", "-5", "+7", "@x", "'-q", "id 5", "id,6", "id\"7", "id\r8", "id9", "10", "-11", "\t12", "@13", "14"]
    static let hostileLabels = ["=HYPERLINK(\"http://x\")", "-1", "@topic\u{07}"]

    /// A 15-item corpus of hostile ids, texts and labels (3 topics, as the generator's 6, 5, 4) named `-hostile,"name"`,
    /// and its vectors.
    static func hostileCorpus() throws -> (folder: String, file: String) {
        let folder = ResearcherAnalysisTests.synthetic()
        let labels = try CorpusReader.read(path: folder + "/c.jsonl").items.map(\.label!)
        let topics = Array(Set(labels)).sorted()
        let lines = try labels.enumerated().map { k, label in
            let item = ["id": hostileIDs[k], "text": hostileTexts[k], "label": hostileLabels[topics.firstIndex(of: label)!]]
            return String(decoding: try JSONSerialization.data(withJSONObject: item, options: [.sortedKeys]), as: UTF8.self)
        }
        let file = folder + "/-hostile,\"name\".jsonl"
        try AtomicFile.write(lines.joined(separator: "\n") + "\n", to: file)
        return (folder, file)
    }

    /// Python's `csv` module's rows of each file: the reference reader.
    static func pythonRows(_ paths: [String]) throws -> [[[String]]] {
        let script = """
            import csv, json, sys
            print(json.dumps([list(csv.reader(open(p, newline="", encoding="utf-8"))) for p in sys.argv[1:]]))
            """
        let r = try CLI.launch(
            executable: "/usr/bin/env", ["python3", "-c", script] + paths, environment: ProcessInfo.processInfo.environment)
        try #require(r.status == 0, "python3: \(r.stderr)")
        return try JSONDecoder().decode([[[String]]].self, from: Data(r.stdout.utf8))
    }

    /// A text field as it was before neutralisation, by the rule docs/results-format.md states: one leading `'` fewer
    /// when single quotes and then `=`, `+`, `-`, `@`, TAB or CR begin it.
    static func restored(_ field: String) -> String {
        let rest = field.unicodeScalars.drop { $0 == "'" }
        guard rest.count < field.unicodeScalars.count, let first = rest.first, "=+-@\t\r".unicodeScalars.contains(first) else {
            return field
        }
        return String(field.unicodeScalars.dropFirst())
    }

    /// The columns that hold text (names, ids, texts, labels, verdicts): every other column holds numbers.
    static let textColumns: Set<String> = [
        "id", "text", "label", "corpus", "source", "space", "rule", "grouping", "rule_a", "rule_b", "verdict", "claim", "reported",
        "ours", "quantities", "why", "key_figure", "experiment", "kind", "key", "perturbed_verdict", "order", "policy", "stage", "keywords",
    ]

    /// Checks one written CSV against Python's reading of it: the harness's own reader splits it the same way, every row
    /// has the header's fields, no text field begins with a formula character, and every number field is a plain number.
    /// Returns the rows, text fields restored.
    static func checkCSV(_ path: String, pythonRows rows: [[String]]) throws -> [[String: String]] {
        let ours = try DelimitedText.records(try String(contentsOfFile: path, encoding: .utf8), delimiter: ",", file: path)
        #expect(ours.map(\.fields) == rows, "\(path): ThemeLab's reader and Python's split it differently")
        let header = try #require(rows.first)
        var out: [[String: String]] = []
        for row in rows.dropFirst() {
            #expect(row.count == header.count, "\(path): \(row)")
            var fields: [String: String] = [:]
            for (name, value) in zip(header, row) {
                if textColumns.contains(name) {
                    #expect(
                        !(value.unicodeScalars.first.map { "=+-@\t\r".unicodeScalars.contains($0) } ?? false), "\(path) \(name): \(value)")
                    fields[name] = restored(value)
                } else {
                    #expect(value.isEmpty || Double(value) != nil || ["true", "false"].contains(value), "\(path) \(name): \(value)")
                    fields[name] = value
                }
            }
            out.append(fields)
        }
        return out
    }

    @Test func everyCSVOfAnExperimentRoundTripsThroughPythonAndOurReader() throws {
        let (folder, file) = try Self.hostileCorpus()
        let experiment = """
            {"name": "exports", "corpora": [{"name": "file", "path": \(String(reflecting: URL(fileURLWithPath: file).lastPathComponent))}],
             "encoders": [{"embeddings": "x.npy"}], "spaces": ["centred"], "thresholds": ["otsu", "fixed(-0.12)", "percentile(90)"],
             "groupings": ["average", "leader"], "replicates": 3, "resample": {"scheme": "stratified-subsample", "fraction": 0.8},
             "shuffles": 0, "assignments": true}
            """
        try AtomicFile.write(experiment, to: folder + "/exports.json")
        let r = CLI.run(["ablate", folder + "/exports.json", "--out", folder + "/out"])
        try #require(r.status == 0, "\(r.stderr)")
        let out = folder + "/out/exports"
        let assignments = try #require(
            try FileManager.default.contentsOfDirectory(atPath: out + "/assignments").first { $0.hasSuffix(".csv") })
        let paths = [out + "/exports.csv", out + "/exports-comparisons.csv", out + "/assignments/" + assignments]
        let python = try Self.pythonRows(paths)
        let tidy = try Self.checkCSV(paths[0], pythonRows: python[0])
        #expect(Set(tidy.map { $0["corpus"] }) == ["-hostile,\"name\""])
        #expect(tidy.contains { $0["rule"] == "fixed(-0.12)" && $0["threshold"] == "-0.12" }, "a negative threshold stays a number")
        let comparisons = try Self.checkCSV(paths[1], pythonRows: python[1])
        #expect(!comparisons.isEmpty && comparisons.allSatisfy { $0["corpus"] == "-hostile,\"name\"" })
        let rows = try Self.checkCSV(paths[2], pythonRows: python[2])
        let cells = Dictionary(grouping: rows) { [$0["space"], $0["rule"], $0["grouping"]].map { $0 ?? "" } }
        #expect(cells.count >= 6 && rows.count == 15 * cells.count)
        let labels = try CorpusReader.read(path: file).items.map(\.label)
        for (_, cell) in cells {
            #expect(cell.map { $0["id"] } == Self.hostileIDs && cell.map { $0["text"] } == Self.hostileTexts)
            #expect(cell.map { $0["label"] } == labels)
        }
        // The harness's own reader reads one cell of the file back as the corpus it came from.
        let text = try String(contentsOfFile: paths[2], encoding: .utf8)
        let records = try DelimitedText.records(text, delimiter: ",", file: paths[2])
        let firstCell = records.prefix(16).map {
            $0.fields.map { "\"" + $0.replacingOccurrences(of: "\"", with: "\"\"") + "\"" }.joined(separator: ",")
        }
        try AtomicFile.write(firstCell.joined(separator: "\n") + "\n", to: folder + "/back.csv")
        let back = try CorpusReader.read(path: folder + "/back.csv")
        #expect(back.items.map(\.id) == Self.hostileIDs && back.items.map(\.text) == Self.hostileTexts && back.items.map(\.label) == labels)
    }

    @Test func theReportsCSVsRoundTripToo() throws {
        let folder = temporaryFolder()
        let root = ReproducibilityTests.root + "/results"
        var claims = try JSONDecoder().decode([ClaimsReport.Row].self, from: Data(contentsOf: URL(fileURLWithPath: root + "/claims.json")))
        claims[0].claim = "=1+2"
        claims[0].corpus = "-c,\"d\"\re"
        claims[0].ours = "@x"
        claims[0].figures[0].ownDraw = -0.05
        var fragility = Fragility(seed: 0)
        fragility.add("-e", .comparison, [("=k\r1", "better")], [("=k\r1", "worse")])
        var replay = try JSONDecoder().decode(
            ReplayResults.self, from: Data(contentsOf: URL(fileURLWithPath: root + "/replay/replay.json")))
        replay.journals[0].corpus = "+j\rk"
        replay.journals[0].order = "@o"
        let band = TimelineBand(mean: [-0.5], low: [-1], high: [0])
        replay.journals[0].rules[0].policies[0].timeline = PolicyTimeline(
            items: [3], ari: band, staleness: band, largestShare: band, groups: band, regroups: band, work: band)
        var clock = Reproduction.WallClock()
        clock.time("=stage") {}
        let files = [
            ("claims.csv", ClaimsReport.csv(claims)), ("fragility.csv", fragility.csv()), ("replay.csv", ReplayReport.summaryCSV(replay)),
            ("timeline.csv", ReplayReport.timelineCSV(replay)), ("timings.csv", ReplayReport.timingsCSV(replay)),
            ("stages.csv", clock.csv(total: 1)),
        ]
        for (name, text) in files { try AtomicFile.write(text, to: "\(folder)/\(name)") }
        let python = try Self.pythonRows(files.map { "\(folder)/\($0.0)" })
        let read = try zip(files, python).map { try Self.checkCSV("\(folder)/\($0.0)", pythonRows: $1) }
        #expect(read[0][0]["claim"] == "=1+2" && read[0][0]["corpus"] == "-c,\"d\"\re" && read[0][0]["ours"] == "@x")
        #expect(read[0][0]["key_own_draw"] == "-0.05")
        #expect(read[1].first?["experiment"] == "-e" && read[1].first?["key"] == "=k\r1")
        for rows in read[2...4] { #expect(rows.contains { $0["corpus"] == "+j\rk" && $0["order"] == "@o" }) }
        #expect(read[3].first?["ari"] == "-0.5" && read[3].first?["ari_min"] == "-1.0")
        #expect(read[5].map { $0["stage"] } == ["=stage", "total"])
        #expect(Reproduction.WallClock.stageSeconds(csv: files[5].1).keys.sorted() == ["=stage"])
    }

    /// The groups listing `analyze` prints and the Markdown it writes escape ESC, OSC and BEL from item texts, labels
    /// and file names, as error messages do.
    @Test func terminalOutputAndMarkdownCarryNoControlCharacters() throws {
        let (folder, file) = try Self.hostileCorpus()
        let vectors = folder + "/x\u{1B}[31m.npy"
        try FileManager.default.copyItem(atPath: folder + "/x.npy", toPath: vectors)
        let r = CLI.run([
            "analyze", "--corpus", file, "--embeddings", vectors, "--space", "centred", "--thresholds", "otsu", "--groupings", "average",
            "--out", folder + "/out", "--show-groups",
        ])
        try #require(r.status == 0, "\(r.stderr)")
        let md = try String(contentsOfFile: folder + "/out/analysis.md", encoding: .utf8)
        for (name, text) in [("stdout", r.stdout), ("analysis.md", md)] {
            let controls = text.unicodeScalars.filter { $0.properties.generalCategory == .control && $0 != "\n" }
            #expect(controls.isEmpty, "\(name) holds \(controls.map { $0.escaped(asASCII: true) })")
        }
        #expect(r.stdout.contains("### Groups") && r.stdout.contains("@topic\\u{07}"))
        #expect(r.stdout.contains("x\\u{1B}[31m.npy") && md.contains("x\\u{1B}[31m.npy"))
    }
}

extension ExportTests {
    /// The CSV's recovery columns and the names a gate may tolerate come from `Metric`, in its order.
    @Test func csvColumnsAndToleranceNamesComeFromTheType() {
        let columns = AnalysisReport.csvTable.names
        #expect(
            Array(columns[7..<19]) == [
                "groups", "ari", "nmi", "homogeneity", "completeness", "v_measure", "pair_precision",
                "pair_recall", "pair_f1", "purity", "singleton_share", "largest_group_share",
            ])
        #expect(
            RegressionCheck.tolerableNames == [
                "ari", "nmi", "homogeneity", "completeness", "v_measure", "pair_precision",
                "pair_recall", "pair_f1", "purity", "threshold",
            ])
    }
}
