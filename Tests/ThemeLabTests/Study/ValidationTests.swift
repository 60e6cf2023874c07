import Foundation
import Testing
import ThemeLabCore
import ThemeLabMethods
import ThemeLabStudy

/// One validation layer: an experiment file and the command line are held to the same bounds,
/// refused with the file and field named, before any corpus is embedded.
/// A synthetic corpus entry with the generator fields given (anisotropy 0 with no spread, seed 1).
func generator(_ fields: String) -> String {
    #"{"name": "synthetic", "generator": {"anisotropy": 0, "anisotropySpread": 0, "seed": 1, "# + fields + "}}"
}

@Suite(.serialized) struct ValidationTests {
    func experiment(_ json: String) throws -> String {
        let path = temporaryFolder() + "/x.json"
        try AtomicFile.write(json, to: path)
        return path
    }

    @Test(arguments: [
        (#""shuffles": 1000000000000"#, "'shuffles' must be a whole number from 0 to 1000, got 1000000000000"),
        (#""shuffles": "ten""#, "'shuffles' must be a whole number from 0 to 1000, got 'ten'"),
        (#""replicates": 1e30"#, "'replicates' must be a whole number from 2 to 1000, got 1e+30"),
        (#""shuffles": 1.5"#, "'shuffles' must be a whole number from 0 to 1000, got 1.5"),
        (#""thresholds": []"#, "'thresholds' is empty: nothing would be computed"),
        (#""threshold": ["otsu"]"#, "'threshold' is not a field of an experiment"),
        (#""thresholds": ["otsu", "fixed(inf)"]"#, "'thresholds[1]' 'fixed(inf)': every argument must be a finite number"),
        (#""spaces": ["raw", "abtt(1e30)"]"#, "'spaces[1]' abtt(1e+30): D must be a whole number from 1 to 1000000"),
        (#""name": "../../x""#, "'name' must be 1–64 letters"),
        (#""gate": {"ARI": 0.5}"#, "'gate'"),
    ])
    func experimentFieldsAreCheckedNamingTheField(_ field: String, _ message: String) throws {
        var json = #"{"name": "x", "corpora": [{"name": "seed-12"}], FIELD}"#.replacingOccurrences(of: "FIELD", with: field)
        if field.hasPrefix(#""name""#) { json = json.replacingOccurrences(of: #""name": "x", "#, with: "") }
        let path = try experiment(json)
        let error = errorMessage { _ = try ExperimentPlan.read(path: path) }
        #expect(error?.hasPrefix(path + ": ") == true && error?.contains(message) == true, "\(error ?? "no error")")
    }

    @Test(arguments: [
        (#"{"name": "clinc150", "maxItems": 5}"#, "'corpora[0].maxItems' does not apply to corpus 'clinc150'"),
        (#"{"name": "clinc150", "intent": 3}"#, "'corpora[0].intent' is not a field of this object"),
        (
            generator(#""dimensions": 4, "topicSizes": [2], "topicStrength": 0, "noise": 0"#),
            "would make zero vectors"
        ),
        (
            generator(#""dimensions": 65536, "topicSizes": [10000000], "topicStrength": 1, "noise": 1"#),
            "GiB is available"
        ),
    ])
    func corpusFieldsAreCheckedNamingTheField(_ corpus: String, _ message: String) throws {
        let path = try experiment(
            #"{"name": "x", "corpora": [{"name": "seed-12"}, CORPUS]}"#.replacingOccurrences(of: "CORPUS", with: corpus))
        let error = errorMessage { _ = try ExperimentPlan.read(path: path) }?.replacingOccurrences(of: "corpora[1]", with: "corpora[0]")
        #expect(error?.hasPrefix(path + ": ") == true && error?.contains(message) == true, "\(error ?? "no error")")
    }

    @Test func boundsFromTheInputAreCheckedBeforeAnyWork() throws {
        var settings = try AnalysisSettings.named(spaces: ["abtt(384)"], thresholds: ["otsu"])
        #expect(
            errorMessage { try Validation.check(settings, items: 100, dimensions: 384, corpus: "c", source: .commandLine) }
                == "--space abtt(384): D must be below the dimension 384")
        settings.spaces = [.whiten(components: nil)]
        #expect(
            errorMessage { try Validation.check(settings, items: 100, dimensions: 65_536, corpus: "c", source: .commandLine) }?
                .contains("--space asks for whiten's 65536×65536 covariance, which needs about 96.0 GiB") == true)
        settings.spaces = [.raw]
        #expect(
            errorMessage { try Validation.check(settings, items: 100_000_000, dimensions: 4096, corpus: "c", source: .commandLine) }?
                .contains("--corpus asks for the pairwise pass over 100000000 × 4096 vectors of 'c', which needs about") == true)
        #expect(errorMessage { try Validation.check(settings, items: 4500, dimensions: 384, corpus: "c", source: .commandLine) } == nil)
    }

    @Test func anExperimentIsRefusedBeforeItsFirstCorpusRuns() throws {
        // The layer is out of range only for the second encoder; nothing may be embedded first.
        let path = try experiment(#"{"name": "x", "corpora": [{"name": "seed-12"}], "encoders": [{"layers": [6]}, {"layers": [7]}]}"#)
        let r = CLI.run(["ablate", path, "--out", temporaryFolder()])
        #expect(r.status == 1)
        // The whole of stderr: no log line of a corpus begun.
        #expect(r.stderr == "themelab: \(path): 'encoders[1].layers[0]' is 7; this model has layers 0...6\n", "\(r.stderr)")
    }

    @Test func theCommandLineUsesTheSameBoundsAndWording() throws {
        let r = CLI.run(["analyze", "--corpus", "clinc150", "--intents", "0"])
        #expect(r.status == 2 && r.stderr.contains("--intents must be a whole number from 1 to 150, got 0"), "\(r.stderr)")
        // k ≥ N: the rule's cells are N/A with the reason (a grid spans corpora of many sizes), not computed from fewer neighbours.
        let k = CLI.run([
            "analyze", "--corpus", "seed-12", "--thresholds", "knn-median(11),knn-median(12)", "--groupings", "components", "--json",
        ])
        let thresholds = try #require(
            ((try JSONSerialization.jsonObject(with: Data(k.stdout.utf8)) as? [String: Any])?["analyses"] as? [[String: Any]])?
                .first.flatMap { ($0["spaces"] as? [[String: Any]])?.first?["thresholds"] as? [[String: Any]] }, "\(k.stderr)")
        #expect(thresholds.count == 2 && thresholds[0]["value"] is Double && thresholds[1]["value"] == nil)
        #expect(thresholds[1]["note"] as? String == "k = 12 neighbours needs more than 12 items; this corpus has 12")
        let synth = CLI.run([
            "synth", "--out-corpus", temporaryFolder() + "/c.jsonl", "--out-embeddings", temporaryFolder() + "/x.npy", "--noise", "nan",
        ])
        #expect(synth.status == 2 && synth.stderr.contains("--noise must be a number from 0 to 1000000, got nan"), "\(synth.stderr)")
    }

    @Test func benchAndItsPlotTakeDegenerateInput() throws {
        // Fewer than 100 items made 100 topics of one and tripped a precondition.
        let bench = CLI.run(["bench", "pairs", "--n", "50", "--d", "8", "--repeat", "1"])
        #expect(bench.status == 0 && bench.stdout.contains(#""n":"50""#), "\(bench.stderr)")
        let folder = temporaryFolder()
        func line(_ n: String, _ d: String, _ s: String) -> String { #"{"n":"\#(n)","d":"\#(d)","seconds":"\#(s)","peak_rss_mib":"1"}"# }
        try AtomicFile.write([line("100", "4", "0"), line("200", "8", "1")].joined(separator: "\n"), to: folder + "/zero.jsonl")
        let zero = CLI.run(["plot", "--bench", folder + "/zero.jsonl", "--out", folder + "/zero.svg"])
        let refusal = "zero.jsonl:1: n must be 2 to 10⁹, d 1 to 10⁹, seconds above 0"
        #expect(zero.status == 1 && zero.stderr.contains(refusal), "\(zero.stderr)")
        // Valid lines whose fit is degenerate (a negative flop rate): the plot leaves out what it cannot draw, and ends.
        try AtomicFile.write(
            [line("2", "4", "5"), line("3", "8", "1e-9"), line("1000000000", "1000000000", "1e-9")].joined(separator: "\n"),
            to: folder + "/odd.jsonl")
        let odd = CLI.run(["plot", "--bench", folder + "/odd.jsonl", "--out", folder + "/odd.svg"])
        #expect(odd.status == 0 && FileManager.default.fileExists(atPath: folder + "/odd.svg"), "\(odd.stderr)")
    }

    /// A plots folder below a file: refused before any work (as every output is, `CommandPaths`), in one line naming it.
    @Test func aFileSystemErrorIsOneLineNamingThePath() throws {
        let folder = temporaryFolder()
        try AtomicFile.write("x", to: folder + "/file")
        let r = CLI.run(["plot", "--results", fixture("fuzz/results/seed-baseline"), "--out", folder + "/file/plots"])
        #expect(r.status == 2 && r.stderr.split(separator: "\n").count == 1 && r.stderr.contains("file/plots"), "\(r.stderr)")
    }

    @Test func resultsFilesThatDoNotDecodeNameTheField() throws {
        let path = try experiment(#"{"schemaVersion": 1, "tolerances": {"ari": 0.01}, "analyses": [{"corpus": 3}]}"#)
        let error = errorMessage { _ = try RegressionCheck.readBaseline(path: path) }
        #expect(
            error?.contains("not a ThemeLab results or baseline file (") == true && error?.contains("analyses[0]") == true, "\(error ?? "")"
        )
    }
}

/// Shard parts carry the checksums of their inputs and are checked whole before a merge.
@Suite(.serialized) struct ShardPartTests {
    func parts(labels: String?, folder: String, name: String) throws -> [String] {
        (0..<2).map { i in
            let out = "\(folder)/\(name)\(i).json"
            let r = CLI.run(
                ["pairs", "--embeddings", folder + "/x.npy", "--tile", "10", "--shard", "\(i)/2", "--out", out]
                    + (labels.map { ["--labels", $0] } ?? []))
            #expect(r.status == 0, "\(r.stderr)")
            return out
        }
    }

    @Test func partsOfOtherInputsOrTamperedPartsAreRefused() throws {
        let folder = temporaryFolder()
        try NPY.write(randomMatrix(rows: 30, cols: 4, seed: 5), to: folder + "/x.npy")
        for (name, label) in [("a", "x"), ("b", "y")] {
            let lines = (0..<30).map { #"{"id": "\#($0)", "label": "\#($0 % 3 == 0 ? label : "z")"}"# }
            try AtomicFile.write(lines.joined(separator: "\n"), to: "\(folder)/\(name).jsonl")
        }
        let a = try parts(labels: folder + "/a.jsonl", folder: folder, name: "a")
        let b = try parts(labels: folder + "/b.jsonl", folder: folder, name: "b")
        #expect(CLI.run(["merge"] + a).status == 0)
        // Same shape, different labels: the old merge accepted this mix.
        let mixed = CLI.run(["merge", a[0], b[1]])
        #expect(
            mixed.status == 1 && mixed.stderr.contains("\(b[1]) was computed from other inputs than \(a[0]) (input checksums differ)"),
            "\(mixed.stderr)")
        var part = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: a[0]))) as? [String: Any])
        part["forest"] = [["i": 0, "j": 400, "w": 0.5]]
        try AtomicFile.write(try JSONSerialization.data(withJSONObject: part), to: a[0])
        let tampered = CLI.run(["merge", "--components", "0.5"] + a)
        #expect(
            tampered.status == 1 && tampered.stderr.contains("\(a[0]): 'forest' has an edge (0, 400, 0.5) outside the 30 items"),
            "\(tampered.stderr)")
        part["forest"] = nil
        part["items"] = "many"
        try AtomicFile.write(try JSONSerialization.data(withJSONObject: part), to: a[0])
        let garbled = CLI.run(["merge"] + a)
        #expect(garbled.stderr.contains("not a part written by themelab pairs --shard ('items' is not an integer)"), "\(garbled.stderr)")
    }
}
