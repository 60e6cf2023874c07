import Foundation
import Testing

@testable import ThemeLab

/// The determinism contract (README, "Same numbers everywhere"): the committed results are what the code
/// computes, and the CI gate holds across BLAS kernels while still catching real regressions.
@Suite(.serialized) struct ReproducibilityTests {
    static let root = URL(fileURLWithPath: ProjectFiles.locate("Package.swift")!).deletingLastPathComponent().path

    /// Runs Experiments/ci-gate.json into a fresh folder with a fresh cache; returns the results folder.
    static func rerunGate(environment: [String: String] = [:]) throws -> String {
        let folder = temporaryFolder()
        var env = environment
        env["THEMELAB_CACHE"] = folder + "/cache"
        let r = try CLI.run(["ablate", root + "/Experiments/ci-gate.json", "--results", folder + "/results"], environment: env)
        #expect(r.status == 0, "\(r.stderr)")
        return folder + "/results/ci-gate"
    }

    /// The hook: re-running the CI-gate experiment rewrites every committed file under results/ci-gate/
    /// byte for byte, but for the time stamp and command line in the JSON; no file is missing or extra.
    /// A change that moves a number must ship with regenerated results (`make reproduce`).
    @Test func committedResultsAreWhatTheCodeComputes() throws {
        let committed = Self.root + "/results/ci-gate"
        let fresh = try Self.rerunGate()
        let kernel = try JSONDecoder().decode(
            AnalysisResults.self, from: Data(contentsOf: URL(fileURLWithPath: committed + "/ci-gate.json"))
        )
        .provenance.blas.kernel
        try #require(
            kernel == BLASRuntime.corename,
            "results/ were made with OpenBLAS kernel \(kernel), this run has \(BLASRuntime.corename): see README (cross-kernel figures)"
        )
        let files = try FileManager.default.subpathsOfDirectory(atPath: committed).filter { $0.contains(".") }.sorted()
        #expect(
            files == (try FileManager.default.subpathsOfDirectory(atPath: fresh).filter { $0.contains(".") }.sorted()),
            "the committed results/ci-gate/ holds other files than a run writes (stale or missing)")
        for file in files {
            let old = try Self.comparable(committed + "/" + file)
            let new = try Self.comparable(fresh + "/" + file)
            #expect(old == new, "results/ci-gate/\(file) differs from a re-run: regenerate results with make reproduce")
        }
        // The baseline is the committed ci-gate result with its tolerances.
        let baseline = try RegressionCheck.readBaseline(path: Self.root + "/results/baseline.json")
        let results = try RegressionCheck.readBaseline(path: committed + "/ci-gate.json")
        #expect(
            try JSONOutput.encode(baseline.analyses) == (try JSONOutput.encode(results.analyses)),
            "results/baseline.json is not the committed ci-gate result")
    }

    /// A file's text without the fields that legitimately change between runs: the time stamp, the command line,
    /// who chose the kernel (`themelab` re-executing itself, or `make test` starting the runner on the same kernel), and
    /// the CPU's name (the bytes hold per kernel: an AMD Zen 4 forced to SkylakeX rewrites an Intel machine's results).
    static func comparable(_ path: String) throws -> String {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        guard path.hasSuffix(".json") else { return text }
        return text.replacingOccurrences(of: #""createdAt" : "[^"]*""#, with: "", options: .regularExpression)
            .replacingOccurrences(of: #""command" : \[[^\]]*\]"#, with: "", options: .regularExpression)
            .replacingOccurrences(of: #""kernelChosenBy" : "[^"]*""#, with: "", options: .regularExpression)
            .replacingOccurrences(of: #""cpu" : "[^"]*""#, with: "", options: .regularExpression)
    }

    /// The gate passes the CI-gate experiment run under another OpenBLAS kernel (AVX without FMA, or
    /// AVX2 on an AVX-512 machine), and fails when one seed-26 ARI drops by 0.05 or one threshold moves by 0.01.
    @Test func gatePassesAnotherKernelAndFailsRealRegressions() throws {
        let other = BLASRuntime.corename.uppercased() == "SKYLAKEX" ? "HASWELL" : "SANDYBRIDGE"
        let fresh = try Self.rerunGate(environment: ["OPENBLAS_CORETYPE": other])
        let resultsPath = fresh + "/ci-gate.json"
        var results = try JSONDecoder().decode(AnalysisResults.self, from: Data(contentsOf: URL(fileURLWithPath: resultsPath)))
        #expect(results.provenance.blas.kernel.uppercased() == other, "ran under \(results.provenance.blas.kernel)")
        let baseline = Self.root + "/results/baseline.json"
        let pass = try CLI.run(["check", "--results", resultsPath, "--baseline", baseline])
        #expect(pass.status == 0, "the gate fails a run under \(other): \(pass.stdout)")

        let a = try #require(results.analyses.firstIndex { $0.corpus.name == "seed-26" })
        let s = try #require(results.analyses[a].spaces.firstIndex { $0.space == "centred" })
        let g = try #require(results.analyses[a].spaces[s].groupings.firstIndex { $0.grouping == "average" && $0.rule == "otsu" })
        var lower = results
        lower.analyses[a].spaces[s].groupings[g].recovery!.ari -= 0.05
        try AtomicFile.write(try JSONOutput.encode(lower), to: fresh + "/lower.json")
        let fell = try CLI.run(["check", "--results", fresh + "/lower.json", "--baseline", baseline])
        #expect(
            fell.status == 1 && fell.stdout.contains("ari fell: seed-26 |") && fell.stdout.contains("| centred | otsu | average"),
            "\(fell.stdout)")

        results.analyses[a].spaces[s].groupings[g].threshold! += 0.01
        try AtomicFile.write(try JSONOutput.encode(results), to: fresh + "/moved.json")
        let moved = try CLI.run(["check", "--results", fresh + "/moved.json", "--baseline", baseline])
        #expect(moved.status == 1 && moved.stdout.contains("threshold moved: seed-26 |"), "\(moved.stdout)")
    }
}
