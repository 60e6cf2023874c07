import Foundation
import Testing
import ThemeLabCore
import ThemeLabCorpus
import ThemeLabMethods
import ThemeLabReport
import ThemeLabStudy

/// A researcher's own corpus end to end: columns named as the file has them, which entries form each group, and names
/// that cannot collide (issue 44).
@Suite struct ResearcherAnalysisTests {
    /// A labelled corpus of 15 items in 3 topics from the generator, with its vectors: FOLDER/c.jsonl and FOLDER/x.npy.
    static func synthetic() -> String {
        let folder = temporaryFolder()
        let r = CLI.run([
            "synth", "--out-corpus", folder + "/c.jsonl", "--out-embeddings", folder + "/x.npy", "--topics", "6,5,4", "--dims", "32",
        ])
        precondition(r.status == 0, r.stderr)
        return folder
    }

    /// The generator's corpus as rows of (id, label).
    static func rows(_ folder: String) throws -> [(id: String, label: String)] {
        try CorpusReader.read(path: folder + "/c.jsonl").items.map { ($0.id, $0.label!) }
    }

    @Test func aCSVWithItsOwnColumnNamesIsReadAsItComes() throws {
        let folder = Self.synthetic()
        // Banking77's own layout: text,category and no id column.
        let csv =
            "text,category\n"
            + (try Self.rows(folder)).enumerated().map { "utterance \($0.offset),\($0.element.label)" }.joined(separator: "\n")
        try AtomicFile.write(csv + "\n", to: folder + "/b.csv")
        let r = CLI.run([
            "analyze", "--corpus", folder + "/b.csv", "--label-column", "category", "--embeddings", folder + "/x.npy", "--space", "centred",
            "--thresholds", "otsu", "--groupings", "average", "--json",
        ])
        #expect(r.status == 0, "\(r.stderr)")
        let results = try JSONDecoder().decode(AnalysisResults.self, from: Data(r.stdout.utf8))
        let a = try #require(results.analyses.first)
        #expect(a.corpus.labeled && a.corpus.topics == 3)
        #expect(a.notes.contains { $0.hasSuffix("b.csv: no 'id' field; each item's id is its line number") })
        let c = try CorpusReader.read(path: folder + "/b.csv", columns: CorpusColumns(label: "category"))
        #expect(c.items.first?.id == "2" && c.items.first?.text == "utterance 0")
    }

    @Test func wholeNumberIdsAreReadAsTheirDecimalText() throws {
        let path = temporaryFolder() + "/n.jsonl"
        try AtomicFile.write("{\"id\": 7, \"text\": \"a\", \"label\": 1}\n{\"id\": 12, \"text\": \"b\", \"label\": 2}\n", to: path)
        let c = try CorpusReader.read(path: path)
        #expect(c.items.map(\.id) == ["7", "12"] && c.items.map(\.label) == ["1", "2"])
    }

    @Test(arguments: [
        ("id,text\n1,hello\n2,\n", CorpusColumns(), ":3: empty text in field 'text' (remove the line or give it a text)"),
        ("id,body\n1,hello\n", CorpusColumns(text: "text2"), ":1: no column 'text2' for the text (the header has id, body)"),
        ("id,text,topic\n1,a,x\n", CorpusColumns(label: "label"), nil),
    ])
    func columnsAndEmptyTextsAreCheckedNamingTheLine(_ text: String, _ columns: CorpusColumns, _ message: String?) throws {
        let path = temporaryFolder() + "/c.csv"
        try AtomicFile.write(text, to: path)
        let error = errorMessage { _ = try CorpusReader.read(path: path, columns: columns) }
        #expect(error == message.map { path + $0 })
    }

    @Test func experimentPathsAreReadFromTheExperimentFilesFolder() throws {
        let folder = Self.synthetic()
        let experiment = """
            {"name": "own", "corpora": [{"name": "file", "path": "c.jsonl"}], "encoders": [{"embeddings": "x.npy"}],
             "spaces": ["centred"], "thresholds": ["otsu"], "groupings": ["average"]}
            """
        try AtomicFile.write(experiment, to: folder + "/own.json")
        let r = CLI.run(["ablate", folder + "/own.json", "--out", folder + "/results"])
        #expect(r.status == 0, "\(r.stderr)")
        try AtomicFile.write(experiment.replacingOccurrences(of: "c.jsonl", with: "missing.jsonl"), to: folder + "/bad.json")
        let bad = CLI.run(["ablate", folder + "/bad.json", "--out", folder + "/results"])
        #expect(bad.status == 1)
        #expect(
            bad.stderr
                == "themelab: \(folder)/bad.json: 'corpora[0].path' names no file: \(folder)/missing.jsonl (relative paths are read from "
                + "the experiment file's folder)\n")
    }

    @Test func twoCorporaOfOneNameAreRefusedBeforeAnyWorkAndAnAsNameSeparatesThem() throws {
        let a = Self.synthetic()
        try FileManager.default.createDirectory(atPath: a + "/other", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: a + "/c.jsonl", toPath: a + "/other/c.jsonl")
        func experiment(_ second: String) -> String {
            """
            {"name": "two", "corpora": [{"name": "file", "path": "c.jsonl"}, {"name": "file", "path": "other/c.jsonl"\(second)}],
             "spaces": ["centred"], "thresholds": ["otsu"], "groupings": ["average"]}
            """
        }
        try AtomicFile.write(experiment(""), to: a + "/two.json")
        let r = CLI.run(["ablate", a + "/two.json", "--out", a + "/results"])
        #expect(r.status == 1)
        #expect(
            r.stderr
                == "themelab: \(a)/two.json: 'corpora[1]' is named 'c' as corpora[0] is (\(a)/c.jsonl, \(a)/other/c.jsonl): their "
                + "results would collide; give one an \"as\" name\n")
        #expect(!FileManager.default.fileExists(atPath: a + "/results/two"))
        // Named apart, the names reach the results (the generator's corpora carry no text: vectors come from each file).
        let plan = try ExperimentPlan.decode(Data(experiment(#", "as": "c-other""#).utf8), path: a + "/two.json")
        #expect(plan.corpora.map { $0.as } == [nil, "c-other"])
        #expect(errorMessage { try plan.refuseSharedNames([(0, "c"), (1, "c-other")], source: .commandLine) } == nil)
        // Slugs collide too: "c other" and "c-other" would name the same plot files.
        #expect(errorMessage { try plan.refuseSharedNames([(0, "c other"), (1, "c-other")], source: .commandLine) } != nil)
    }

    @Test func noFileIsWrittenTwiceInARun() throws {
        var files = OutputFiles()
        let path = temporaryFolder() + "/p.svg"
        try files.write("first", to: path)
        #expect(
            errorMessage { try files.write("second", to: path) }
                == "\(path) would be written twice in one run: two inputs share its name (give one an 'as' name)")
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "first")
    }

    @Test func aBaselineWithARowTwiceIsRefusedWhenWritten() throws {
        let folder = Self.synthetic()
        let a = CLI.run([
            "analyze", "--corpus", folder + "/c.jsonl", "--embeddings", folder + "/x.npy", "--space", "centred", "--thresholds", "otsu",
            "--groupings", "average", "--out", folder + "/out",
        ])
        #expect(a.status == 0, "\(a.stderr)")
        var object = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: folder + "/out/analysis.json"))) as? [String: Any])
        let analyses = try #require(object["analyses"] as? [Any])
        object["analyses"] = analyses + analyses
        try AtomicFile.write(try JSONSerialization.data(withJSONObject: object), to: folder + "/twice.json")
        let r = CLI.run(["check", "--results", folder + "/twice.json", "--write-baseline", folder + "/b.json"])
        #expect(r.status == 1 && r.stderr.contains("appears twice; rows must be unique"), "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder + "/b.json"))
    }

    /// Each group's most central entries against a brute-force mean similarity over every pair in the group.
    @Test func centralEntriesAreTheLargestMeanSimilarityToTheirGroup() throws {
        let x = try unitRows(randomMatrix(rows: 40, cols: 8, seed: 3))
        let labels: [Int32] = (0..<40).map { Int32($0 % 4 == 3 ? -1 : $0 % 3) }
        let central = centralEntries(labels, vectors: x, count: 3)
        for g in Int32(0)...2 {
            let members = labels.indices.filter { labels[$0] == g }
            func mean(_ i: Int) -> Double {
                members.filter { $0 != i }.map { j in zip(x.row(i), x.row(j)).reduce(0.0) { $0 + Double($1.0 * $1.1) } }.reduce(0, +)
                    / Double(members.count - 1)
            }
            let expected = members.sorted { mean($0) > mean($1) }.prefix(3)
            #expect(central[g] == Array(expected))
        }
        #expect(central[-1] == nil)
    }

    @Test func analyzeWritesWhichEntriesFormEachGroup() throws {
        let folder = Self.synthetic()
        let r = CLI.run([
            "analyze", "--corpus", folder + "/c.jsonl", "--embeddings", folder + "/x.npy", "--space", "centred", "--thresholds",
            "otsu,percentile(90)", "--groupings", "average,leader", "--assignments", folder + "/a.csv",
        ])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("### Groups (most central entries first; all in `--assignments FILE`)"))
        #expect(r.stdout.contains("**centred space, average at otsu**: "))
        let lines = try String(contentsOfFile: folder + "/a.csv", encoding: .utf8).split(separator: "\n")
        #expect(lines.first == "id,text,label,space,rule,grouping,group,group_size,central")
        // 15 items × (2 rules × 2 groupings + the k = topics references of the labelled corpus).
        let rows = lines.dropFirst().map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
        let cells = Dictionary(grouping: rows) { "\($0[4]) \($0[5])" }
        #expect(cells["otsu average"]?.count == 15 && cells["percentile(90) leader"]?.count == 15)
        for (_, cell) in cells {
            let groups = Dictionary(grouping: cell) { $0[6] }
            for (_, members) in groups {
                #expect(members.allSatisfy { Int($0[7]) == members.count })
                #expect(members.filter { $0[8] == "true" }.count == min(3, members.count))
            }
        }
        let bad = CLI.run([
            "analyze", "--corpus", folder + "/c.jsonl", "--embeddings", folder + "/x.npy", "--assignments", folder + "/a.txt",
        ])
        #expect(bad.status == 2 && bad.stderr.contains("the file must end in .jsonl or .csv"), "\(bad.stderr)")
    }
}
