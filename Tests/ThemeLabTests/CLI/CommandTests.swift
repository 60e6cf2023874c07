import Foundation
import Testing
import ThemeLabCore
import ThemeLabCorpus
import ThemeLabMeasures
import ThemeLabMethods
import ThemeLabPairs
import ThemeLabReport
import ThemeLabStudy

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// analyze, ablate, check and synth, run in process as a user would run them.
@Suite struct CommandTests {
    @Test func analyzeOnEmbeddingsWithAndWithoutLabels() throws {
        let folder = temporaryFolder()
        let r = CLI.run([
            "synth", "--out-corpus", folder + "/c.jsonl", "--out-embeddings", folder + "/x.npy", "--topics", "6,5,4", "--dims", "32",
        ])
        #expect(r.status == 0, "\(r.stderr)")
        let a = CLI.run([
            "analyze", "--corpus", folder + "/c.jsonl", "--embeddings", folder + "/x.npy", "--json", "--out", folder + "/out",
        ])
        #expect(a.status == 0, "\(a.stderr)")
        let results = try JSONDecoder().decode(AnalysisResults.self, from: Data(a.stdout.utf8))
        let centred = try #require(results.analyses[0].spaces.first { $0.space == .centred })
        #expect(
            centred.thresholds.map(\.rule) == [
                "fixed(0.55)", "noise-floor(4)", "percentile(90)", "otsu", "otsu-floored", "kittler-illingworth", "mixture", "oracle",
            ])
        #expect(centred.groupings.contains { $0.grouping == "kmeans-k" && $0.labelInformed })
        #expect(FileManager.default.fileExists(atPath: folder + "/out/analysis.csv"))
        let csv = try String(contentsOfFile: folder + "/out/analysis.csv", encoding: .utf8)
        #expect(csv.hasPrefix(AnalysisReport.csvTable.names.joined(separator: ",")))

        // Without labels: thresholds, no recovery, and it says so.
        let unlabeled = try String(contentsOfFile: folder + "/c.jsonl", encoding: .utf8)
            .replacingOccurrences(of: #","label":"topic-[0-9]+""#, with: "", options: .regularExpression)
            .replacingOccurrences(of: #""label":"topic-[0-9]+","#, with: "", options: .regularExpression)
        try AtomicFile.write(unlabeled, to: folder + "/u.jsonl")
        let u = CLI.run(["analyze", "--corpus", folder + "/u.jsonl", "--embeddings", folder + "/x.npy"])
        #expect(u.status == 0, "\(u.stderr)")
        #expect(u.stdout.contains("no labels: distributions, thresholds and groups"))
        #expect(!u.stdout.contains("oracle"))
    }

    @Test func analyzeRejectsBadInputClearly() throws {
        let folder = temporaryFolder()
        try AtomicFile.write("{\"id\":\"a\",\"label\":\"x\"}\n{\"id\":\"b\",\"label\":\"y\"}\n", to: folder + "/c.jsonl")
        try NPY.write(Matrix(rows: 3, cols: 2, storage: [1, 0, 0, 1, 1, 1]), to: folder + "/three.npy")
        let mismatch = CLI.run(["analyze", "--corpus", folder + "/c.jsonl", "--embeddings", folder + "/three.npy"])
        #expect(mismatch.status == 1 && mismatch.stderr.contains("has 2 items but the vectors have 3 rows"))
        try NPY.write(Matrix(rows: 2, cols: 2, storage: [1, .nan, 0, 1]), to: folder + "/nan.npy")
        let nan = CLI.run(["analyze", "--corpus", folder + "/c.jsonl", "--embeddings", folder + "/nan.npy"])
        #expect(nan.status == 1 && nan.stderr.contains("item 'a': vector has a non-finite value"))
        let space = CLI.run(["analyze", "--corpus", folder + "/c.jsonl", "--embeddings", folder + "/nan.npy", "--space", "curved"])
        #expect(space.status == 2 && space.stderr.contains("unknown space 'curved'"))
        try AtomicFile.write("{\"id\":\"a\",\"label\":\"x\"}\n", to: folder + "/one.jsonl")
        try NPY.write(Matrix(rows: 1, cols: 2, storage: [1, 0]), to: folder + "/one.npy")
        let one = CLI.run(["analyze", "--corpus", folder + "/one.jsonl", "--embeddings", folder + "/one.npy"])
        #expect(one.status == 1 && one.stderr.contains("pairs need at least 2"))
        // An output below a file is refused before any work (the analysis files were written before the error).
        _ = CLI.run(["synth", "--out-corpus", folder + "/s.jsonl", "--out-embeddings", folder + "/s.npy", "--topics", "4,3", "--dims", "8"])
        try AtomicFile.write("a file", to: folder + "/plain")
        let set = CLI.run([
            "analyze", "--corpus", folder + "/s.jsonl", "--embeddings", folder + "/s.npy", "--out", folder + "/o", "--assignments",
            folder + "/plain/x.csv",
        ])
        #expect(
            set.status == 2 && set.stderr.contains("plain/x.csv would be inside ") && set.stderr.contains("plain, a file"), "\(set.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder + "/o"), "refused before any work")
    }

    @Test func checkPassesOnItselfAndFailsOnADegradedResult() throws {
        let folder = temporaryFolder()
        _ = CLI.run([
            "synth", "--out-corpus", folder + "/c.jsonl", "--out-embeddings", folder + "/x.npy", "--topics", "6,5,4", "--dims", "32",
        ])
        _ = CLI.run([
            "analyze", "--corpus", folder + "/c.jsonl", "--embeddings", folder + "/x.npy", "--out", folder + "/r", "--groupings", "average",
        ])
        let write = CLI.run([
            "check", "--results", folder + "/r/analysis.json", "--write-baseline", folder + "/b.json", "--tolerance", "ari=0.01",
        ])
        #expect(write.status == 0, "\(write.stderr)")
        let pass = CLI.run(["check", "--results", folder + "/r/analysis.json", "--baseline", folder + "/b.json"])
        #expect(pass.status == 0 && pass.stdout.hasPrefix("check passed"), "\(pass.stdout)")
        // Degrade: move every average-linkage grouping's ARI down by 0.1.
        var results = try JSONDecoder().decode(
            AnalysisResults.self, from: Data(contentsOf: URL(fileURLWithPath: folder + "/r/analysis.json")))
        for s in results.analyses[0].spaces.indices {
            for g in results.analyses[0].spaces[s].groupings.indices where results.analyses[0].spaces[s].groupings[g].recovery != nil {
                results.analyses[0].spaces[s].groupings[g].recovery!.ari -= 0.1
            }
        }
        try AtomicFile.write(try JSONOutput.encode(results), to: folder + "/worse.json")
        let fail = CLI.run(["check", "--results", folder + "/worse.json", "--baseline", folder + "/b.json"])
        #expect(fail.status == 1)
        #expect(fail.stdout.contains("ari fell:") && fail.stdout.contains("(−0.1000, tolerance 0.01)"), "\(fail.stdout)")
    }

    @Test func ablateRunsAnExperimentFile() throws {
        let folder = temporaryFolder()
        try AtomicFile.write(
            """
            {"name": "tiny", "corpora": [{"name": "synthetic", "generator": {"dimensions": 24, "topicSizes": [5, 4, 3],
              "anisotropy": 2, "anisotropySpread": 0.2, "topicStrength": 1, "noise": 0.5, "seed": 4}}],
             "spaces": ["raw", "centred", "abtt(1)", "whiten(8)"], "thresholds": ["otsu", "oracle"],
             "groupings": ["components", "average", "kmeans-k"], "shuffles": 0}
            """, to: folder + "/tiny.json")
        let r = CLI.run(["ablate", folder + "/tiny.json", "--out", folder + "/results"])
        #expect(r.status == 0, "\(r.stderr)")
        // The library's log (its estimated time first) and the command's note, both on the one stderr.
        #expect(
            r.stderr.hasPrefix("tiny: estimated ") && r.stderr.contains("\ntiny: corpus ")
                && r.stderr.hasSuffix("\nwrote \(folder)/results/tiny/tiny.{json,csv,md} (1 analyses)\n"))
        let csv = try String(contentsOfFile: folder + "/results/tiny/tiny.csv", encoding: .utf8)
        // 4 spaces × (2 rules × 2 groupings + 1 reference) rows, plus the header.
        #expect(csv.split(separator: "\n").count == 1 + 4 * 5)
        // The old spelling of --out still works, with a note.
        let again = CLI.run(["ablate", folder + "/tiny.json", "--results", folder + "/again"])
        #expect(again.status == 0 && again.stderr.hasPrefix("themelab: --results for an output folder is deprecated; use --out\n"))
        #expect(try String(contentsOfFile: folder + "/again/tiny/tiny.csv", encoding: .utf8) == csv, "same inputs and seed, same bytes")
        try AtomicFile.write(
            "{\"name\": \"bad\", \"corpora\": [{\"name\": \"seed-12\"}], \"thresholds\": [\"median\"]}", to: folder + "/bad.json")
        let bad = CLI.run(["ablate", folder + "/bad.json"])
        #expect(bad.status == 1 && bad.stderr.contains("bad.json: 'thresholds[0]' unknown threshold rule 'median'"), "\(bad.stderr)")
        // A run that fails after taking a new --out folder leaves no folder behind (an empty one with a lock misleads).
        try AtomicFile.write("{\"name\": \"gone\", \"corpora\": [{\"name\": \"file\", \"path\": \"c.jsonl\"}]}", to: folder + "/gone.json")
        try AtomicFile.write("{\"id\": \"a\", \"text\": \"x\"}\nnot json\n", to: folder + "/c.jsonl")
        let gone = CLI.run(["ablate", folder + "/gone.json", "--out", folder + "/fresh/out"])
        #expect(gone.status == 1 && gone.stderr.contains("c.jsonl:2: not valid JSON"), "\(gone.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder + "/fresh").isEmpty, "the failed run's folder is gone")
    }
}

/// HDBSCAN and Leiden through `analyze` as a user runs them: names with two arguments split right,
/// one row each with no rule, noise reported, their own-parameter ceilings, the same labels as the
/// groupings called directly.
@Suite struct OwnCutsCommandTests {
    @Test func hdbscanAndLeidenRowsInAnalyze() throws {
        let folder = temporaryFolder()
        let r = CLI.run([
            "synth", "--out-corpus", folder + "/c.jsonl", "--out-embeddings", folder + "/x.npy", "--topics", "12,9,7,5,3", "--dims", "32",
        ])
        #expect(r.status == 0, "\(r.stderr)")
        let a = CLI.run([
            "analyze", "--corpus", folder + "/c.jsonl", "--embeddings", folder + "/x.npy", "--json", "--space", "centred",
            "--thresholds", "otsu", "--groupings", "average,hdbscan(4,3),leiden(5,2)", "--out", folder + "/out",
        ])
        #expect(a.status == 0, "\(a.stderr)")
        let s = try #require(try JSONDecoder().decode(AnalysisResults.self, from: Data(a.stdout.utf8)).analyses[0].spaces.first)
        let hdbscan = try #require(s.groupings.first { $0.grouping == "hdbscan(4,3)" })
        let leiden = try #require(s.groupings.first { $0.grouping == "leiden(5,2)" })
        #expect(hdbscan.rule == nil && !hdbscan.labelInformed && leiden.rule == nil && !leiden.labelInformed)
        #expect(s.ceilings?.first { $0.grouping == "hdbscan(4,3)" }?.parameter == "m")
        #expect(s.ceilings?.first { $0.grouping == "leiden(5,2)" }?.parameter == "γ")

        // The same labels as the groupings called directly on the centred vectors.
        let x = try EmbeddingSpace.centred.transform(try NPY.read(path: folder + "/x.npy")) { "\($0)" }
        let topics = try #require(try CorpusReader.read(path: folder + "/c.jsonl").labelIndices())
        let (hdbscanGrouping, leidenGrouping) = (
            HDBSCANGrouping(minClusterSize: 4, neighbours: 3), LeidenGrouping(neighbours: 5, resolution: 2)
        )
        let needs = PassNeeds.of(groupings: [hdbscanGrouping, leidenGrouping], items: x.rows)
        let products = PassPlan(needs: needs, exactHistogramPairLimit: 0).run(x, labels: nil, engine: PairEngine())
        let request = GroupingRequest(target: .ownCuts, order: Array(0..<x.rows))
        let direct = try #require(try hdbscanGrouping.groups(request, in: products).labels)
        let noise = direct.filter { $0 < 0 }.count
        #expect(hdbscan.noise?.items == (noise > 0 ? noise : nil))
        #expect(hdbscan.recovery?.ari == Recovery(topics: topics, groups: GroupingCut.noiseAsSingletons(direct)).ari)
        let communities = try #require(try leidenGrouping.groups(request, in: products).labels)
        #expect(leiden.recovery?.ari == Recovery(topics: topics, groups: communities).ari)

        let markdown = try String(contentsOfFile: folder + "/out/analysis.md", encoding: .utf8)
        #expect(markdown.contains("Groupings that choose their own cuts"))
        #expect(markdown.contains("hdbscan(4,3) ARI") && markdown.contains("at m = "))
    }
}
