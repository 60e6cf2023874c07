import Foundation
import Testing
import ThemeLabCore
import ThemeLabMethods
import ThemeLabStudy

/// The determinism contract (docs/determinism.md): the committed results are what the code
/// computes, and the CI gate holds across BLAS kernels while still catching real regressions.
@Suite(.serialized) struct ReproducibilityTests {
    static let root = projectRoot

    /// Runs Experiments/NAME.json into a fresh folder with a fresh cache; returns the results folder.
    static func rerun(_ experiment: String, environment: [String: String] = [:]) throws -> String {
        let folder = temporaryFolder()
        var env = environment
        env["THEMELAB_CACHE"] = folder + "/cache"
        let r = try CLI.launch(["ablate", root + "/Experiments/\(experiment).json", "--out", folder + "/results"], environment: env)
        #expect(r.status == 0, "\(r.stderr)")
        return folder + "/results/\(experiment)"
    }

    static func rerunGate(environment: [String: String] = [:]) throws -> String { try rerun("ci-gate", environment: environment) }

    /// Files a results folder holds, less the wall-clock ones the byte contract leaves out.
    static func contractFiles(_ folder: String) throws -> [String] {
        try FileManager.default.subpathsOfDirectory(atPath: folder).filter { $0.contains(".") && !Self.isWallClock($0) }.sorted()
    }

    /// The byte contract (docs/determinism.md) leaves out wall-clock files: timings.csv,
    /// NAME-timings.csv and bench/.
    static func isWallClock(_ path: String) -> Bool {
        path.hasPrefix("bench/") || path.hasSuffix("timings.csv")
    }

    /// The hook: re-running the CI-gate experiment, and the seeds experiment with its paired comparisons, rewrites
    /// every committed file under results/NAME/ byte for byte, but for the time stamp and command line in the JSON; no
    /// file is missing or extra. A change that moves a number must ship with regenerated results (`make reproduce`).
    @Test(arguments: ["ci-gate", "seeds"]) func committedResultsAreWhatTheCodeComputes(_ experiment: String) throws {
        let committed = Self.root + "/results/\(experiment)"
        let fresh = try Self.rerun(experiment)
        let kernel = try JSONOutput.decode(
            AnalysisResults.self, from: Data(contentsOf: URL(fileURLWithPath: committed + "/\(experiment).json"))
        )
        .provenance.blas.kernel
        try #require(
            kernel == BLASRuntime.corename,
            "results/ were made with OpenBLAS kernel \(kernel), this run has \(BLASRuntime.corename): see docs/determinism.md"
        )
        let files = try Self.contractFiles(committed)
        #expect(
            files == (try Self.contractFiles(fresh)),
            "the committed results/\(experiment)/ holds other files than a run writes (stale or missing)")
        for file in files {
            let old = try Self.comparable(committed + "/" + file)
            let new = try Self.comparable(fresh + "/" + file)
            #expect(old == new, "results/\(experiment)/\(file) differs from a re-run: regenerate results with make reproduce")
        }
        guard experiment == "ci-gate" else { return }
        // The baseline is the committed ci-gate result with its tolerances.
        let baseline = try RegressionCheck.readBaseline(path: Self.root + "/results/baseline.json")
        let results = try RegressionCheck.readBaseline(path: committed + "/ci-gate.json")
        #expect(
            try JSONOutput.encode(baseline.analyses) == (try JSONOutput.encode(results.analyses)),
            "results/baseline.json is not the committed ci-gate result")
        #expect(baseline.provenance?.blas.arithmetic == .canonical, "results/baseline.json is not canonical")
    }

    /// One replay journal (CLINC150, 8 intents in bursts, 5 orders: the journal whose staleness moved across kernels)
    /// re-run alone gives the committed replay's rows for it byte for byte: its JSON entry, CSV and timeline rows.
    @Test func committedReplayJournalIsWhatTheCodeComputes() throws {
        let folder = temporaryFolder()
        let plan = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: Self.root + "/Experiments/replay.json")))
                as? [String: Any])
        let journal = try #require((plan["journals"] as? [[String: Any]])?.first { ($0["order"] as? String) == "bursts(4)" })
        var one = plan
        one["journals"] = [journal]
        try JSONSerialization.data(withJSONObject: one).write(to: URL(fileURLWithPath: folder + "/replay.json"))
        let r = try CLI.launch(
            ["replay", folder + "/replay.json", "--out", folder + "/results"], environment: ["THEMELAB_CACHE": folder + "/cache"])
        try #require(r.status == 0, "\(r.stderr)")
        let (committed, fresh) = (Self.root + "/results/replay/replay", folder + "/results/replay/replay")
        func journals(_ path: String) throws -> [(corpus: String, json: String)] {
            let json = try #require(
                try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path + ".json"))) as? [String: Any])
            return try (json["journals"] as? [[String: Any]] ?? []).map {
                (
                    $0["corpus"] as? String ?? "",
                    String(decoding: try JSONSerialization.data(withJSONObject: $0, options: [.sortedKeys]), as: UTF8.self)
                )
            }
        }
        let ours = try journals(fresh)
        try #require(ours.count == 1)
        let corpus = ours[0].corpus
        #expect(try journals(committed).first { $0.corpus == corpus }?.json == ours[0].json, "journal \(corpus) differs")
        for suffix in [".csv", "-timeline.csv"] {
            func rows(_ path: String) throws -> [Substring] {
                try String(contentsOfFile: path + suffix, encoding: .utf8).split(separator: "\n").filter { $0.hasPrefix(corpus + ",") }
            }
            let (rerun, kept) = (try rows(fresh), try rows(committed))
            #expect(!rerun.isEmpty && rerun == kept, "replay\(suffix): rows of \(corpus) differ from the committed ones")
        }
    }

    /// `reproduce` keeps vectors in the checkout's cache between runs: a warm run (`--recompute`) embeds nothing (the
    /// cache file is not rewritten) and writes the cold run's bytes, and `--cold` (a private cache made afresh) writes
    /// them too. A plain second run copies the stage from the first (the same bytes, its time stamp included) and says so.
    @Test func warmAndColdReproduceWriteTheSameBytes() throws {
        let folder = temporaryFolder()
        let env = ["THEMELAB_CACHE": folder + "/cache"]
        let kept = "reproduce: seeds: kept from an earlier run with the same code, inputs and settings"
        func run(_ out: String, _ extra: [String] = [], keeps: Bool = false) throws -> String {
            let r = try CLI.launch(
                ["reproduce", "--only", "seeds", "--replicates", "2", "--out", folder + "/" + out] + extra, environment: env)
            try #require(r.status == 0, "\(r.stderr)")
            #expect(r.stderr.contains("reproduce: [1/3] seeds: "), "\(r.stderr)")
            #expect(r.stderr.contains(kept) == keeps, "\(out): \(r.stderr)")
            #expect(!r.stderr.contains("\r"), "a progress line redrawn into a pipe")
            return folder + "/" + out
        }
        let first = try run("first")
        // One cache file per encoder of the seeds experiment (all-MiniLM-L6-v2 and the masked-LM encoder).
        let cacheFiles = try FileManager.default.contentsOfDirectory(atPath: folder + "/cache").filter { $0.hasSuffix(".tlec3") }.sorted()
        try #require(cacheFiles.count == 2, "\(cacheFiles)")
        func written() throws -> [Date?] {
            try cacheFiles.map { try FileManager.default.attributesOfItem(atPath: folder + "/cache/" + $0)[.modificationDate] as? Date }
        }
        let before = try written()
        let warm = try run("warm", ["--recompute"])
        #expect(try written() == before, "a warm run rewrote the cache")
        let again = try run("again", keeps: true)
        let cold = try run("cold", ["--cold"])
        let (files, warmFiles, coldFiles) = (try Self.contractFiles(first), try Self.contractFiles(warm), try Self.contractFiles(cold))
        #expect(files.contains("seeds/seeds.json") && files == warmFiles && files == coldFiles)
        #expect(files == (try Self.contractFiles(again)))
        for file in files {
            let bytes = try Self.comparable(first + "/" + file)
            #expect(bytes == (try Self.comparable(warm + "/" + file)), "\(file): warm run differs")
            #expect(bytes == (try Self.comparable(cold + "/" + file)), "\(file): cold run differs")
            guard file.hasPrefix("seeds/") else { continue }
            // The kept stage is the run that stored it (--recompute stores too), byte for byte.
            func raw(_ root: String) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: root + "/" + file)) }
            #expect(try raw(warm) == (try raw(again)), "\(file): a kept stage differs from the run that stored it")
        }
    }

    /// A file's text without the fields that legitimately change between runs: the time stamp, the command line,
    /// who chose the kernel (`themelab` re-executing itself, or `make test` starting the runner on the same kernel), and
    /// the CPU's name and features (the bytes hold per kernel: an AMD Zen 4 forced to SkylakeX rewrites an Intel machine's
    /// results, and an AVX2-only Zen 3 on the canonical kernel an AVX-512 machine's).
    static func comparable(_ path: String) throws -> String {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        // The explorer page embeds the same provenance, in compact JSON.
        guard path.hasSuffix(".json") || path.hasSuffix(".html") else { return text }
        return text.replacingOccurrences(of: #""createdAt" ?: ?"[^"]*""#, with: "", options: .regularExpression)
            .replacingOccurrences(of: #""command" ?: ?\[[^\]]*\]"#, with: "", options: .regularExpression)
            .replacingOccurrences(of: #""kernelChosenBy" ?: ?"[^"]*""#, with: "", options: .regularExpression)
            .replacingOccurrences(of: #""cpu(Features)?" ?: ?"[^"]*""#, with: "", options: .regularExpression)
    }

    /// The gate refuses the CI-gate experiment run under a native kernel (AVX-512, or AVX without FMA) unless asked,
    /// passes it with --allow-native, and fails when one seed-26 ARI drops by 0.05 or one threshold moves by 0.01.
    @Test func gatePassesAnotherKernelAndFailsRealRegressions() throws {
        let other = CPUFeatures.current().hasAVX512 ? "SKYLAKEX" : "SANDYBRIDGE"
        let fresh = try Self.rerunGate(environment: ["OPENBLAS_CORETYPE": other, "THEMELAB_KERNEL": "native"])
        let resultsPath = fresh + "/ci-gate.json"
        var results = try JSONDecoder().decode(AnalysisResults.self, from: Data(contentsOf: URL(fileURLWithPath: resultsPath)))
        #expect(results.provenance.blas.kernel.uppercased() == other, "ran under \(results.provenance.blas.kernel)")
        #expect(results.provenance.blas.arithmetic == .native)
        let baseline = Self.root + "/results/baseline.json"
        let refused = CLI.run(["check", "--results", resultsPath, "--baseline", baseline])
        #expect(refused.status == 1 && refused.stderr.contains("--allow-native to compare across kernels"), "\(refused.stderr)")
        let pass = CLI.run(["check", "--results", resultsPath, "--baseline", baseline, "--allow-native"])
        #expect(pass.status == 0, "the gate fails a run under \(other): \(pass.stdout)")

        let a = try #require(results.analyses.firstIndex { $0.corpus.name == "seed-26" })
        let s = try #require(results.analyses[a].spaces.firstIndex { $0.space == .centred })
        let g = try #require(results.analyses[a].spaces[s].groupings.firstIndex { $0.grouping == "average" && $0.rule == "otsu" })
        var lower = results
        lower.analyses[a].spaces[s].groupings[g].recovery!.ari -= 0.05
        try AtomicFile.write(try JSONOutput.encode(lower), to: fresh + "/lower.json")
        let fell = CLI.run(["check", "--results", fresh + "/lower.json", "--baseline", baseline, "--allow-native"])
        #expect(
            fell.status == 1 && fell.stdout.contains("ari fell: seed-26 |") && fell.stdout.contains("| centred | otsu | average"),
            "\(fell.stdout)")

        results.analyses[a].spaces[s].groupings[g].threshold! += 0.01
        try AtomicFile.write(try JSONOutput.encode(results), to: fresh + "/moved.json")
        let moved = CLI.run(["check", "--results", fresh + "/moved.json", "--baseline", baseline, "--allow-native"])
        #expect(moved.status == 1 && moved.stdout.contains("threshold moved: seed-26 |"), "\(moved.stdout)")
    }
}
