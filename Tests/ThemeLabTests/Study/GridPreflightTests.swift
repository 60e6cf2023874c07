import Foundation
import Testing
import ThemeLabCore
import ThemeLabMethods
import ThemeLabStudy

@testable import ThemeLabCorpus

/// Every command that runs a grid or an analysis checks what it will cost and write before any work: the declared
/// grid against stated bounds (`GridEstimate`), each output name against NAME_MAX and PATH_MAX, and an output that is
/// a folder; refusals name the file and the factor. "Before any work" is read off the log: no corpus line, no space line.
@Suite struct GridPreflightTests {
    static func experiment(_ object: [String: Any], in folder: String = temporaryFolder()) throws -> String {
        let path = folder + "/x.json"
        try AtomicFile.write(Data(try JSONSerialization.data(withJSONObject: object)), to: path)
        return path
    }

    /// A generator corpus of a few small topics (no model needed), one per seed.
    static func generator(seed: Int, dimensions: Int = 8, topicSizes: [Int] = [4, 3, 3]) -> [String: Any] {
        [
            "name": "synthetic",
            "generator": [
                "dimensions": dimensions, "topicSizes": topicSizes, "anisotropy": 1, "anisotropySpread": 0.3, "topicStrength": 0.6,
                "noise": 1, "seed": seed,
            ],
        ]
    }

    static func didWork(_ stderr: String) -> Bool { stderr.contains(": corpus ") || stderr.contains(" space\n") }

    /// 50 corpora × 5 000 rules × 8 groupings × 1 000 replicates took 18.6 GB in 121 s and was not refused: now it is
    /// refused as the file is read, naming the factor that drives it; and `--replicates` that takes a grid past the
    /// bound is refused the same way before any corpus is loaded (`slurm ablate` writes no scripts, `ablate` no line).
    @Test func aGridPastTheCellBoundIsRefusedAsItIsRead() throws {
        let path = try Self.experiment([
            "name": "x", "corpora": (1...50).map { Self.generator(seed: $0) }, "spaces": ["raw"],
            "thresholds": (1...5000).map { "fixed(\(Double($0) / 5001))" },
            "groupings": ["components", "leader", "average", "kmeans-k", "average-k", "hdbscan(5)", "leiden(5)", "average-silhouette"],
            "replicates": 1000, "shuffles": 0,
        ])
        let message = try #require(errorMessage { _ = try ExperimentPlan.read(path: path) })
        #expect(
            message
                == "\(path): the grid is 50 corpora × 5000 thresholds × 8 groupings × 1000 replicates = 2.0e9 cells, above the bound "
                + "of 1.0e6 cells; reduce 'thresholds'")
        let folder = temporaryFolder()
        let small = try Self.experiment(
            [
                "name": "y", "corpora": [["name": "seed-12"]], "replicates": 2, "resample": ["fraction": 0.8], "spaces": ["raw"],
                "thresholds": (1...1100).map { "fixed(\(Double($0) / 1101))" }, "groupings": ["components"], "shuffles": 0,
            ], in: folder)
        let slurm = CLI.run(["slurm", "ablate", small, "--work", folder + "/w", "--out", folder + "/r", "--replicates", "1000"])
        let refusal =
            "\(small): the grid is 1 corpus × 1100 thresholds × 1000 replicates = 1.1e6 cells, above the bound of 1.0e6 cells; "
            + "reduce 'thresholds'"
        try #require(slurm.status == 1 && slurm.stderr == "themelab: \(refusal)\n", "\(slurm.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder + "/w/array.sbatch"))
        for command in [["ablate", small, "--out", folder + "/r"], ["ablate", small, "--shard", "0/1", "--out", folder + "/p.json"]] {
            let r = CLI.run(command + ["--replicates", "1000"])
            #expect(r.status == 1 && r.stderr == "themelab: \(refusal)\n", "\(r.stderr)")
        }
    }

    /// The paired rule comparisons of a grid with replicates grow with the square of its rules: bounded as well.
    @Test func pairedComparisonsPastTheirBoundAreRefusedAsTheFileIsRead() throws {
        let path = try Self.experiment([
            "name": "x", "corpora": (1...2).map { Self.generator(seed: $0) }, "spaces": ["raw"],
            "thresholds": (1...2000).map { "fixed(\(Double($0) / 2001))" }, "groupings": ["components"], "replicates": 10,
        ])
        #expect(
            errorMessage { _ = try ExperimentPlan.read(path: path) }
                == "\(path): the paired rule comparisons are 2 corpora × 1999000 pairs of thresholds = 4.0e6 comparisons, above "
                + "the bound of 1.0e6 comparisons; reduce 'thresholds'")
    }

    /// Once the corpora are loaded, the grid's time and bytes written are estimated from their sizes and refused past
    /// their bounds, naming the factor whose halving cuts the figure most.
    @Test func aGridTooLargeForItsCorporaIsRefusedNamingTheFactor() throws {
        func grid(items: Int, _ settings: AnalysisSettings) -> GridEstimate {
            let corpus = Corpus(name: "big", items: (0..<items).map { CorpusItem(id: "\($0)", text: "x", label: "t\($0 % 7)") })
            let plan = ExperimentPlan(name: "x", corpora: [CorpusSpec(name: "seed-12")], settings: settings)
            return GridEstimate(plan, sizes: [.init(index: 0, LoadedCorpus(corpus: corpus), dimensions: 384, needsEncoder: false)])
        }
        let source = ParameterSource.experiment("x.json")
        // A million items, ten replicates: the pairwise passes alone take days; halving the items quarters them.
        var replicated = AnalysisSettings()
        replicated.replicates = 10
        let slow = grid(items: 1_000_000, replicated)
        let figures = try slow.checkSized(source: source, memory: false)
        let slowly = errorMessage { throw slow.timeRefusal(figures, source: source) } ?? ""
        #expect(
            slowly.wholeMatch(of: /x.json: the grid would take about \d+ hours, above the bound of 24 hours; reduce (.*)/)?.1
                == "the items of 'corpora[0]' (1000000)", "\(slowly)")
        // 200 000 items, 300 cells, every cell's groups written as assignments: gigabytes.
        var assigned = try AnalysisSettings.named(
            spaces: ["raw"], thresholds: (1...100).map { "fixed(\(Double($0) / 101))" }, groupings: ["components", "leader", "average"])
        assigned.assignments = true
        let written = errorMessage { _ = try grid(items: 200_000, assigned).checkSized(source: source, memory: false) }
        #expect(
            written?.wholeMatch(of: /x.json: the grid would write about [\d.]+ GiB, above the bound of 2 GiB; reduce 'thresholds'/) != nil)
    }

    /// `ablate` says how long it expects to take, as `replay` does, with replicates or without; `analyze` too.
    @Test func everyGridPrintsItsEstimatedTime() throws {
        for replicates in [nil, 3] {
            var plan: [String: Any] = [
                "name": "tiny", "corpora": [Self.generator(seed: 1)], "thresholds": ["otsu"], "groupings": ["components"], "shuffles": 0,
            ]
            plan["replicates"] = replicates
            let path = try Self.experiment(plan)
            let r = CLI.run(["ablate", path, "--out", temporaryFolder()])
            #expect(r.status == 0, "\(r.stderr)")
            let line = r.stderr.split(separator: "\n").first { $0.hasPrefix("tiny: estimated ") }
            #expect(line?.wholeMatch(of: /tiny: estimated \d+ s/) != nil, "\(r.stderr)")
        }
    }

    /// Replicates are drawn as they are analysed, a few at a time, not all before the first: 100 replicates of 400 ×
    /// 2 560 generated vectors (4 MB each) were held all at once (458 MiB at the peak; about 100 MiB now).
    @Test func replicatesAreDrawnAsTheyAreAnalysed() throws {
        let folder = temporaryFolder()
        let path = try Self.experiment(
            [
                "name": "lazy", "corpora": [Self.generator(seed: 1, dimensions: 2560, topicSizes: Array(repeating: 40, count: 10))],
                "spaces": ["raw"], "thresholds": ["fixed(0.5)"], "groupings": ["components"], "shuffles": 0, "replicates": 100,
            ], in: folder)
        // Through a shell that forks: a process spawned by this one inherits its peak (Linux keeps maxrss across exec).
        let r = try CLI.launch(
            executable: "/bin/bash",
            ["-c", "\"$0\" \"$@\"; exit $?", CLI.binary, "ablate", path, "--shard", "0/1", "--out", folder + "/part.json"],
            environment: ProcessInfo.processInfo.environment)
        #expect(r.status == 0, "\(r.stderr)")
        let peak = try #require(r.stderr.firstMatch(of: /peak (\d+) MiB/).flatMap { Int($0.1) })
        #expect(peak < 250, "\(peak) MiB at the peak")
    }

    /// 300 000 copies of one corpus were refused after 118 s and 902 MiB (when the second was loaded): the file's bytes
    /// are bounded before it is parsed (parsing that file alone takes 900 MB), the count of corpora before one is
    /// decoded, and a repeat is refused as the file is read, naming the index.
    @Test func repeatedAndTooManyCorporaAreRefusedAsTheFileIsRead() throws {
        let copies = try Self.experiment(["name": "x", "corpora": Array(repeating: ["name": "seed-12"], count: 300_000)])
        let size = try #require(try FileManager.default.attributesOfItem(atPath: copies)[.size] as? Int)
        #expect(
            errorMessage { _ = try ExperimentPlan.read(path: copies) }
                == "\(copies): \(size) bytes, more than an experiment file may hold (1048576)")
        let many = try Self.experiment(["name": "x", "corpora": Array(repeating: ["name": "seed-12"], count: 3000)])
        #expect(
            errorMessage { _ = try ExperimentPlan.read(path: many) }
                == "\(many): 'corpora' lists 3000 corpora; an experiment takes at most 1000")
        let twice = try Self.experiment(["name": "x", "corpora": [["name": "seed-12"], ["name": "seed-26"], ["name": "seed-12"]]])
        #expect(
            errorMessage { _ = try ExperimentPlan.read(path: twice) }
                == "\(twice): 'corpora[2]' repeats corpora[0]: their results would collide")
    }

    /// A 234-byte corpus file name failed "File name too long" when its plots were written, after the work: every name a
    /// run writes is checked against NAME_MAX and PATH_MAX first, and the refusal names the corpus.
    @Test func outputNamesTooLongAreRefusedBeforeAnyWork() throws {
        let folder = temporaryFolder()
        let stem = String(repeating: "a", count: 228)
        try AtomicFile.write(
            "{\"id\": \"1\", \"text\": \"x\", \"label\": \"p\"}\n{\"id\": \"2\", \"text\": \"y\", \"label\": \"q\"}\n",
            to: "\(folder)/\(stem).jsonl")
        try NPY.write(Matrix(rows: 2, cols: 2, storage: [1, 0, 0, 1]), to: folder + "/x.npy")
        let path = try Self.experiment(
            ["name": "long", "corpora": [["name": "file", "path": "\(stem).jsonl"]], "encoders": [["embeddings": "x.npy"]]], in: folder)
        let r = CLI.run(["ablate", path, "--out", folder + "/r"])
        #expect(r.status == 1 && !Self.didWork(r.stderr), "\(r.stderr)")
        #expect(
            r.stderr.hasPrefix("themelab: \(path): 'corpora[0]' would write \(folder)/r/long/plots/\(stem)-embeddings-x-npy-raw-")
                && r.stderr.contains("bytes; a file name holds at most 255 (NAME_MAX): give the corpus a shorter \"as\" name"),
            "\(r.stderr)")
        let deep = folder + "/" + Array(repeating: String(repeating: "d", count: 200), count: 21).joined(separator: "/")
        let analyze = CLI.run(["analyze", "--corpus", "\(folder)/\(stem).jsonl", "--embeddings", folder + "/x.npy", "--out", deep])
        #expect(analyze.status == 2 && !Self.didWork(analyze.stderr), "\(analyze.stderr)")
        let length = (deep + "/analysis.json").utf8.count
        #expect(
            analyze.stderr.contains("/analysis.json is a path of \(length) bytes; a path holds at most 4095 (PATH_MAX)"),
            "\(analyze.stderr)")
    }

    /// `analyze --assignments DIR` naming a folder failed after the analysis: refused before it.
    @Test func anOutputThatIsAFolderIsRefusedBeforeAnyWork() throws {
        let folder = temporaryFolder()
        try AtomicFile.write(
            "{\"id\": \"1\", \"text\": \"x\", \"label\": \"p\"}\n{\"id\": \"2\", \"text\": \"y\", \"label\": \"q\"}\n",
            to: folder + "/c.jsonl")
        try NPY.write(Matrix(rows: 2, cols: 2, storage: [1, 0, 0, 1]), to: folder + "/x.npy")
        try FileManager.default.createDirectory(atPath: folder + "/groups.csv", withIntermediateDirectories: true)
        let r = CLI.run([
            "analyze", "--corpus", folder + "/c.jsonl", "--embeddings", folder + "/x.npy", "--assignments", folder + "/groups.csv",
        ])
        #expect(r.status == 2 && !Self.didWork(r.stderr), "\(r.stderr)")
        #expect(
            r.stderr == "themelab: analyze: output \(folder)/groups.csv is a folder; name a file to write (see themelab analyze --help)\n",
            "\(r.stderr)")
    }
}
