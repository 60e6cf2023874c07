import Foundation
import Testing
import ThemeLabCore
import ThemeLabCorpus
import ThemeLabMeasures
import ThemeLabMethods
import ThemeLabReport

@testable import ThemeLabStudy

/// A researcher's own corpus end to end: columns named as the file has them, which entries form each group, and names
/// that cannot collide.
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
        // The label column not named: a note says which field was looked for; the text column not named: one line.
        let unlabelled = try CorpusReader.read(path: folder + "/b.csv").notes
        let note = "b.csv: no 'label' field, so no labels (--label-column, or labelColumn in an experiment file, names another)"
        #expect(unlabelled.contains { $0.hasSuffix(note) }, "\(unlabelled)")
        try AtomicFile.write("id,body,topic\n1,a walk,x\n2,a swim,y\n", to: folder + "/untexted.csv")
        let untexted = CLI.run(["analyze", "--corpus", folder + "/untexted.csv"])
        let errors = untexted.stderr.split(separator: "\n").filter { $0.hasPrefix("themelab:") }
        #expect(untexted.status == 1 && errors.count == 1, "\(untexted.stderr)")
        let message = "corpus 'untexted': no item has a text to embed (a corpus file's texts are its 'text' field"
        #expect(errors.first?.contains(message) == true, "\(untexted.stderr)")
    }

    @Test func wholeNumberIdsAreReadAsTheirDecimalText() throws {
        let path = temporaryFolder() + "/n.jsonl"
        try AtomicFile.write("{\"id\": 7, \"text\": \"a\", \"label\": 1}\n{\"id\": 12, \"text\": \"b\", \"label\": 2}\n", to: path)
        let c = try CorpusReader.read(path: path)
        #expect(c.items.map(\.id) == ["7", "12"] && c.items.map(\.label) == ["1", "2"])
    }

    @Test(arguments: [
        ("id,text\n1,hello\n2,\n", CorpusColumns(), ":3: empty text in field 'text' (remove the line or give it a text)"),
        ("id,body\n1,hello\n", CorpusColumns(text: "text2"), ": --text-column 'text2' is not a column (the header has id, body)"),
        ("id,text,topic\n1,a,x\n", CorpusColumns(label: "label"), nil),
    ])
    func columnsAndEmptyTextsAreCheckedNamingTheLine(_ text: String, _ columns: CorpusColumns, _ message: String?) throws {
        let path = temporaryFolder() + "/c.csv"
        try AtomicFile.write(text, to: path)
        let error = errorMessage { _ = try CorpusReader.read(path: path, columns: columns) }
        #expect(error == message.map { path + $0 })
    }

    /// Corpus options a corpus does not take are refused as an experiment file's fields are (the command line dropped them
    /// in silence); column errors name the option as given and what the file holds; one column cannot take two roles.
    @Test(arguments: [
        (["--corpus", "c.jsonl", "--intents", "0"], "--intents does not apply to corpus 'file' (only to clinc150)"),
        (["--corpus", "c.csv", "--split", "nonsense"], "--split does not apply to corpus 'file' (only to clinc150)"),
        (["--corpus", "seed-12", "--id-column", "text"], "--id-column does not apply to corpus 'seed-12' (only to file)"),
        (["--corpus", "clinc150", "--intents", "0"], "--intents must be a whole number from 1 to 150, got 0"),
        (["--corpus", "clinc150", "--intents", "many"], "--intents must be a whole number from 1 to 150, got 'many'"),
        (
            ["--corpus", "c.csv", "--label-column", "id"],
            "c.csv: --label-column 'id' is the id column too (each role needs a column of its own)"
        ),
        (
            ["--corpus", "c.csv", "--id-column", "text"],
            "c.csv: --id-column 'text' is the text column too (each role needs a column of its own)"
        ),
        (["--corpus", "c.csv", "--id-column", "n", "--label-column", "n"], "c.csv: --label-column 'n' is the id column too"),
        (
            ["--corpus", "c.csv", "--label-column", "lable"],
            "c.csv: --label-column 'lable' is not a column (the header has id, text, label)"
        ),
        (
            ["--corpus", "c.jsonl", "--label-column", "lable"],
            "c.jsonl:1: --label-column 'lable' is not a field of this line (it has id, label, text)"
        ),
    ])
    func corpusOptionsAndColumnsAreCheckedAsGiven(_ arguments: [String], _ message: String) throws {
        let folder = temporaryFolder()
        try AtomicFile.write("id,text,label\n1,a walk,x\n2,a swim,y\n", to: folder + "/c.csv")
        try AtomicFile.write("{\"id\": \"1\", \"text\": \"a walk\", \"label\": \"x\"}\n", to: folder + "/c.jsonl")
        let r = CLI.run(["analyze"] + arguments.map { $0.hasPrefix("c.") ? "\(folder)/\($0)" : $0 } + ["--space", "raw"])
        let expected = message.hasPrefix("c.") ? "themelab: \(folder)/\(message)" : "themelab: analyze: \(message)"
        #expect(r.status == (message.hasPrefix("c.") ? 1 : 2) && r.stderr.hasPrefix(expected), "\(r.stderr)")
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

    /// `ablate --vectors DIR` writes each space's unit vectors as the analysis computes them, with the labels; with
    /// `--shard` it is refused.
    @Test func ablateWritesTheVectorsEachSpaceIsComputedOn() throws {
        let folder = Self.synthetic()
        let experiment = """
            {"name": "own", "corpora": [{"name": "file", "path": "c.jsonl", "as": "mine"}], "encoders": [{"embeddings": "x.npy"}],
             "spaces": ["raw", "centred"], "thresholds": ["otsu"], "groupings": ["average"]}
            """
        try AtomicFile.write(experiment, to: folder + "/own.json")
        let r = CLI.run(["ablate", folder + "/own.json", "--out", folder + "/results", "--vectors", folder + "/vectors"])
        #expect(r.status == 0, "\(r.stderr)")
        let x = try NPY.read(path: folder + "/x.npy")
        for space in [EmbeddingSpace.raw, .centred] {
            let stem = folder + "/vectors/mine--embeddings-x-npy--\(space)"
            #expect(try NPY.read(path: stem + ".npy") == (try space.transform(x)))
            let about = try JSONDecoder().decode(SpaceVectors.self, from: Data(contentsOf: URL(fileURLWithPath: stem + ".json")))
            let topics = try Self.rows(folder).map(\.label)
            #expect(about.labels?.count == 15 && Set(zip(topics, about.labels!).map { "\($0)=\($1)" }).count == 3)
        }
        let shard = CLI.run(["ablate", folder + "/own.json", "--shard", "0/1", "--out", folder + "/p.json", "--vectors", folder + "/v"])
        #expect(
            shard.status == 2 && shard.stderr.contains("--vectors writes a whole run's vectors; give it without --shard"), "\(shard.stderr)"
        )
        let file = CLI.run(["ablate", folder + "/own.json", "--out", folder + "/results", "--vectors", folder + "/c.jsonl"])
        #expect(file.status != 0 && file.stderr.contains("output \(folder)/c.jsonl is the input"), "\(file.stderr)")
        let inside = CLI.run(["ablate", folder + "/own.json", "--out", folder + "/results", "--vectors", folder + "/results/own/v"])
        #expect(inside.status != 0 && inside.stderr.contains("\(folder)/results/own is replaced whole"), "\(inside.stderr)")
        try AtomicFile.write("", to: folder + "/plain")
        let plain = CLI.run(["ablate", folder + "/own.json", "--out", folder + "/results", "--vectors", folder + "/plain"])
        #expect(
            plain.stderr
                == "themelab: ablate: --vectors \(folder)/plain is a file; give a folder (it is created when missing) "
                + "(see themelab ablate --help)\n")
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

    /// One corpus without replicates has no interval: its regret page says so and judges no target, and names no rule
    /// indistinguishable by bounds it does not have (it had said "The target … is met").
    @Test func oneDrawHasNoIntervalAndMeetsNoTarget() throws {
        let folder = Self.synthetic()
        let r = CLI.run([
            "analyze", "--corpus", folder + "/c.jsonl", "--embeddings", folder + "/x.npy", "--space", "centred", "--thresholds",
            "otsu,percentile(90)", "--groupings", "average,leader", "--out", folder + "/out",
        ])
        try #require(r.status == 0, "\(r.stderr)")
        let page = try String(contentsOfFile: folder + "/out/analysis-regret.md", encoding: .utf8)
        #expect(page.contains("of the ceiling; one draw: no interval, on ") && page.contains("is not judged here"), "\(page)")
        #expect(!page.contains("is met") && !page.contains("Indistinguishable from it"), "\(page)")
    }

    @Test func analyzeWritesWhichEntriesFormEachGroup() throws {
        let folder = Self.synthetic()
        let r = CLI.run([
            "analyze", "--corpus", folder + "/c.jsonl", "--embeddings", folder + "/x.npy", "--space", "centred", "--thresholds",
            "otsu,percentile(90)", "--groupings", "average,leader", "--assignments", folder + "/a.csv", "--show-groups",
        ])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("### Groups ([its words by c-TF-IDF], then its most central entries; all in `--assignments FILE`)"))
        #expect(r.stdout.contains("**centred space, average at otsu**: "))
        let lines = try String(contentsOfFile: folder + "/a.csv", encoding: .utf8).split(separator: "\n")
        #expect(lines.first == "id,text,label,space,rule,grouping,group,noise,group_size,central,keywords")
        // 15 items × (2 rules × 2 groupings + the k = topics references of the labelled corpus).
        let rows = lines.dropFirst().map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
        let cells = Dictionary(grouping: rows) { "\($0[4]) \($0[5])" }
        #expect(cells["otsu average"]?.count == 15 && cells["percentile(90) leader"]?.count == 15)
        for (_, cell) in cells {
            let groups = Dictionary(grouping: cell) { $0[6] }
            for (_, members) in groups {
                #expect(members.allSatisfy { Int($0[8]) == members.count && $0[7] == "false" })
                #expect(members.filter { $0[9] == "true" }.count == min(3, members.count))
            }
        }
        let bad = CLI.run([
            "analyze", "--corpus", folder + "/c.jsonl", "--embeddings", folder + "/x.npy", "--assignments", folder + "/a.txt",
        ])
        #expect(bad.status == 2 && bad.stderr.contains("the file must end in .csv, .jsonl, .csv.gz or .jsonl.gz"), "\(bad.stderr)")
    }
}

/// Regret, the suggested default and the figures for any experiment's own corpora.
@Suite struct ExperimentRegretAndFigureTests {
    /// Two labelled generator corpora, 3 replicates, three rules, average linkage and a grouping that cuts itself.
    static func run() throws -> (folder: String, results: AnalysisResults) {
        let folder = temporaryFolder()
        let corpora = ReplicateTests.corpora
        let experiment =
            #"{"name": "own", "corpora": [\#(corpora)], "spaces": ["centred"], "#
            + #""thresholds": ["otsu", "percentile(90)", "kittler-illingworth"], "#
            + #""groupings": ["average", "leader", "average-modularity(2,2)"], "replicates": 3, "shuffles": 0}"#
        try AtomicFile.write(experiment, to: folder + "/own.json")
        let r = CLI.run(["ablate", folder + "/own.json", "--out", folder])
        precondition(r.status == 0, r.stderr)
        let data = try Data(contentsOf: URL(fileURLWithPath: folder + "/own/own.json"))
        return (folder + "/own", try JSONDecoder().decode(AnalysisResults.self, from: data))
    }

    @Test func ablateWritesRegretAndTheSuggestedDefaultByReproducesProcedure() throws {
        let (folder, results) = try Self.run()
        let tables = RegretTable(
            analyses: results.analyses, grouping: "average", settings: results.settings, alongside: ["average-modularity(2,2)"])
        let leader = RegretTable(analyses: results.analyses, grouping: "leader", settings: results.settings)
        let own = RegretTable(analyses: results.analyses, grouping: "average-modularity(2,2)", settings: results.settings)
        let expected = try #require(Recommendation(study: [tables, leader, own], tuning: [], subset: { _ in true }).file(study: "own"))
        let written = try JSONDecoder().decode(
            RecommendationFile.self, from: Data(contentsOf: URL(fileURLWithPath: folder + "/own-recommendation.json")))
        #expect(written == expected)
        let md = try String(contentsOfFile: folder + "/own-regret.md", encoding: .utf8)
        #expect(
            md.contains("## Suggested default (centred space)") && md.contains("### average-modularity(2,2) against its own best parameter")
        )
        #expect(md.contains("| average-modularity(2,2) |"), "the grouping that cuts itself is a column of average's table")
    }

    @Test func theARICurveMarksTheBestCutAndEveryRule() throws {
        let (folder, results) = try Self.run()
        let a = try #require(results.analyses.first)
        let s = try #require(a.space(.centred))
        let ceiling = try #require(s.ceilings?.first { $0.grouping == "average" })
        let curve = try #require(ceiling.curve)
        #expect(curve.count >= 2 && curve.count <= CurvePoint.limit && curve.map(\.threshold) == curve.map(\.threshold).sorted())
        // The curve passes through the best cut with the ceiling's ARI (the sweep's score, within rounding).
        let best = try #require(curve.first { $0.threshold == ceiling.threshold })
        #expect(abs(best.ari - ceiling.ari) < 1e-9)
        let stem = SVGPlot.stem(corpus: a.corpus.name, source: a.source, space: "centred")
        let svg = try String(contentsOfFile: folder + "/plots/\(stem)-ari-vs-threshold.svg", encoding: .utf8)
        #expect(svg.components(separatedBy: "class=\"best-cut\"").count - 1 == s.ceilings!.filter { $0.curve != nil }.count)
        for t in s.thresholds { #expect(svg.contains("id=\"threshold-\(t.rule.name)\""), "\(t.rule)") }
        #expect(svg.contains("ARI against the threshold † — \(a.corpus.name), its own draw — centred"))
    }

    /// Two rules at one threshold draw one visible line: the legend says which lies under which.
    @Test func aThresholdLineDrawnOverIsNamedInTheLegend() throws {
        let (_, results) = try Self.run()
        var s = try #require(results.analyses.first?.space(.centred))
        let value = try #require(s.thresholds.compactMap(\.value).first)
        for k in s.thresholds.indices { s.thresholds[k].value = value }
        var entries: [SVGPlot.LegendEntry] = []
        var styles = MethodColours.Figure()
        _ = SVGPlot.thresholdLines(s.thresholds, within: -1...1, { 400 * $0 }, entries: &entries, styles: &styles)
        let last = try #require(s.thresholds.last?.rule)
        #expect(entries.count == s.thresholds.count && s.thresholds.count >= 2)
        #expect(entries.dropLast().allSatisfy { $0.label.hasSuffix(" (under \(last))") } && !entries.last!.label.contains("(under"))
    }

    /// A method keeps its home colour from figure to figure where no entry drawn before it took that colour; two rules of
    /// one base in one figure differ in colour and dash.
    @Test func aMethodHasOneColourInEveryFigure() throws {
        let (folder, results) = try Self.run()
        let colour = MethodColours.palette[MethodColours.home(GroupingKey("average"))]
        let plots = try FileManager.default.contentsOfDirectory(atPath: folder + "/plots").filter { $0.contains("ablation-ari") }
        #expect(plots.count == results.analyses.count)
        for plot in plots {
            let svg = try String(contentsOfFile: folder + "/plots/" + plot, encoding: .utf8)
            #expect(svg.contains("data-grouping=\"average\" data-value=") && svg.contains("fill=\"\(colour)\""))
            #expect(svg.contains("bars: mean ARI over 3 replicates; error bars: 95% interval of that mean; ◇: own draw"))
            #expect(svg.contains("data-slot=\"own cuts\" data-grouping=\"average-modularity(2,2)\""))
        }
        var figure = MethodColours.Figure()
        let (a, b) = (figure.style(RuleKey("percentile(90)")), figure.style(RuleKey("percentile(80)")))
        #expect(
            a.colour == MethodColours.palette[MethodColours.home(RuleKey("percentile(90)"))] && a.colour != b.colour && a.dash != b.dash)
    }

    /// The slot labels stand at 45°, with a font no larger than the space between neighbours allows.
    @Test func slotLabelsNeverOverlap() throws {
        let (_, results) = try Self.run()
        let s = try #require(results.analyses.first?.space(.centred))
        var many = s
        many.thresholds = (0..<40).map { ThresholdOutcome(rule: RuleKey("fixed(0.\($0))"), value: 0.5, labelInformed: false) }
        let svg = SVGPlot.ablation(many, corpus: "c", source: "s")
        let slot = (SVGPlot.width - SVGPlot.left - SVGPlot.right) / 41
        let sizes = svg.matches(of: /class="slot-label"[^>]*font-size="([0-9.]+)"/).map { Double($0.output.1)! }
        #expect(sizes.count == 41 && sizes.allSatisfy { $0 * 1.25 <= slot * 0.7072 })
    }

    @Test func aFailedCheckNamesTheInputsThatChanged() throws {
        var baseline = try RegressionCheck.readBaseline(path: ReproducibilityTests.root + "/results/baseline.json")
        var results = baseline
        let path = try #require(results.provenance?.inputs.keys.sorted().first)
        results.provenance?.inputs[path] = String(repeating: "0", count: 64)
        baseline.provenance?.inputs["gone.jsonl"] = String(repeating: "1", count: 64)
        let lines = RegressionCheck.changedInputs(results: results.provenance, baseline: baseline.provenance)
        let before = try #require(baseline.provenance?.inputs[path])
        #expect(lines == ["gone.jsonl: read by the baseline only", "\(path): \(before.prefix(12))… → 000000000000…"].sorted())
    }
}
