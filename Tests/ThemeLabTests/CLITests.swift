import Foundation
import Testing

@testable import ThemeLab

/// Runs the built `themelab` binary, as a user would.
struct CLI {
    static let binary = Bundle.module.bundleURL.deletingLastPathComponent().appendingPathComponent("themelab").path

    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    static func run(
        _ arguments: [String], environment: [String: String] = [:], removing: [String] = [], workingDirectory: String? = nil
    ) throws -> Result {
        var env = ProcessInfo.processInfo.environment
        for key in removing { env[key] = nil }
        env.merge(environment) { $1 }
        return try run(executable: binary, arguments, environment: env, workingDirectory: workingDirectory)
    }

    /// Any program with these arguments and environment (in `workingDirectory`, else this one); its exit status and output.
    static func run(
        executable: String, _ arguments: [String], environment: [String: String], workingDirectory: String? = nil
    ) throws
        -> Result
    {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.currentDirectoryURL = workingDirectory.map { URL(fileURLWithPath: $0) }
        process.arguments = arguments
        process.environment = environment
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let o = out.fileHandleForReading.readDataToEndOfFile()
        let e = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Result(
            status: process.terminationStatus, stdout: String(decoding: o, as: UTF8.self), stderr: String(decoding: e, as: UTF8.self))
    }
}

@Suite(.serialized) struct CLITests {
    @Test(arguments: [["--help"], ["env", "--help"], ["pairs", "--help"], ["reproduce", "--help"]])
    func helpExitsZero(_ args: [String]) throws {
        let r = try CLI.run(args)
        #expect(r.status == 0)
        #expect(r.stdout.contains("usage: themelab"))
    }

    @Test(arguments: [
        ["pairs", "--bogus"], ["pairs"], ["nosuchcommand"], ["pairs", "--embeddings"], ["pairs", "--embeddings", "x", "--bins", "one"],
    ])
    func badArgumentsGiveOneLineAndExitTwo(_ args: [String]) throws {
        let r = try CLI.run(args)
        #expect(r.status == 2)
        #expect(r.stderr.hasPrefix("themelab: ") && r.stderr.split(separator: "\n").count == 1, "\(r.stderr)")
    }

    @Test(arguments: [
        (["synth", "--out-corpus", "c.jsonl", "--out-embeddings", "x.npy", "stray"], "unexpected argument 'stray'"),
        (["pairs", "--embeddings", "a.npy", "--embeddings", "b.npy"], "--embeddings given twice"),
        (["pairs", "--embeddings=a.npy", "--json", "--json"], "--json given twice"),
        (["pairs", "--json=yes"], "--json is a switch and takes no value"),
        (["ablate"], "expected 1 argument"),
        (["merge"], "expected at least 1 argument"),
    ])
    func theParserRefusesWhatItWouldOtherwiseIgnore(_ args: [String], _ message: String) throws {
        let r = try CLI.run(args)
        #expect(r.status == 2 && r.stderr.contains(message) && r.stderr.split(separator: "\n").count == 1, "\(r.stderr)")
    }

    @Test func optionsMayBeWrittenWithAnEqualsSign() throws {
        let folder = temporaryFolder()
        let r = try CLI.run(["synth", "--out-corpus=\(folder)/c.jsonl", "--out-embeddings=\(folder)/x.npy", "--dims=8", "--topics=2,3"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try NPY.read(path: folder + "/x.npy").cols == 8 && (try CorpusReader.read(path: folder + "/c.jsonl")).count == 5)
    }

    @Test func badInputExitsOneNamingTheFile() throws {
        let r = try CLI.run(["pairs", "--embeddings", fixture("npy-int.npy")])
        #expect(r.status == 1)
        #expect(r.stderr.contains("npy-int.npy: header field 'descr' is '<i4'"))
        let folder = temporaryFolder()
        try NPY.write(Matrix(rows: 3, cols: 2, storage: [1, 0, 0, 1, 1, 1]), to: folder + "/x.npy")
        try AtomicFile.write("{\"id\":\"a\",\"label\":\"p\"}\n{\"id\":\"b\",\"label\":\"p\"}\n", to: folder + "/c.jsonl")
        let mismatch = try CLI.run(["pairs", "--embeddings", folder + "/x.npy", "--labels", folder + "/c.jsonl"])
        #expect(mismatch.status == 1 && mismatch.stderr.contains("has 2 items but"))
    }

    @Test func pairsJSONCarriesStatisticsAndProvenance() throws {
        let folder = temporaryFolder()
        // Rows (1,0), (0,1), (1,1)/√2: cosines 0 (a,b), √½ (a,c), √½ (b,c).
        try NPY.write(Matrix(rows: 3, cols: 2, storage: [1, 0, 0, 1, 1, 1]), to: folder + "/x.npy")
        try AtomicFile.write(
            "{\"id\":\"a\",\"label\":\"p\"}\n{\"id\":\"b\",\"label\":\"p\"}\n{\"id\":\"c\",\"label\":\"q\"}\n", to: folder + "/c.jsonl")
        let r = try CLI.run([
            "pairs", "--embeddings", folder + "/x.npy", "--labels", folder + "/c.jsonl", "--json", "--out", folder + "/r.json",
        ])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try String(contentsOfFile: folder + "/r.json", encoding: .utf8) == r.stdout)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        let stats = try #require(json["statistics"] as? [String: [String: Any]])
        #expect(stats["related"]?["count"] as? Int == 1)
        #expect((stats["related"]?["max"] as? Double ?? 9).isApproximatelyEqual(to: 0, absoluteTolerance: 1e-7))
        #expect((stats["unrelated"]?["median"] as? Double ?? 9).isApproximatelyEqual(to: 0.5.squareRoot(), absoluteTolerance: 1e-6))
        #expect(stats["all"]?["count"] as? Int == 3)
        let provenance = try #require(json["provenance"] as? [String: Any])
        let inputs = try #require(provenance["inputs"] as? [String: String])
        #expect(inputs[folder + "/x.npy"] == (try SHA256.hex(file: folder + "/x.npy")))
        #expect((provenance["blas"] as? [String: Any])?["kernel"] as? String == BLASRuntimeKernelProbe.autoKernel)
    }

    @Test func shardedPairsMergeToTheSameStatistics() throws {
        let folder = temporaryFolder()
        try NPY.write(randomMatrix(rows: 900, cols: 5, seed: 3), to: folder + "/x.npy")
        let cuts = ["--components", "0.99,0.999,0.9999"]
        let whole = try CLI.run(["pairs", "--embeddings", folder + "/x.npy", "--tile", "100", "--json"] + cuts)
        var parts: [String] = []
        for i in 0..<4 {
            let r = try CLI.run([
                "pairs", "--embeddings", folder + "/x.npy", "--tile", "100", "--shard", "\(i)/4", "--out", folder + "/part\(i).json",
            ])
            #expect(r.status == 0, "\(r.stderr)")
            parts.append(folder + "/part\(i).json")
        }
        let merged = try CLI.run(["merge", "--json"] + cuts + parts)
        #expect(merged.status == 0, "\(merged.stderr)")
        func field(_ name: String, _ text: String) throws -> NSObject {
            try #require((try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])?[name] as? NSObject)
        }
        #expect(try field("statistics", merged.stdout) == field("statistics", whole.stdout))
        // Single-linkage groups from the merged shard forests equal the unsharded pass's.
        let components = try #require(try field("components", whole.stdout) as? [[String: Any]])
        #expect(try field("components", merged.stdout) == field("components", whole.stdout))
        #expect(components.map { $0["groups"] as? Int ?? 0 }.allSatisfy { $0 > 1 } && components.count == 3)
        let missing = try CLI.run(["merge"] + parts.dropLast())
        #expect(missing.status == 1 && missing.stderr.contains("incomplete: shard 3 of 0..<4 missing (3 of 4 given)"), "\(missing.stderr)")
        // Parts of a pass cut into other tiles are not parts of this one.
        let otherTile = try CLI.run([
            "pairs", "--embeddings", folder + "/x.npy", "--tile", "300", "--shard", "3/4", "--out", folder + "/tile300.json",
        ])
        #expect(otherTile.status == 0)
        let mixed = try CLI.run(["merge"] + parts.dropLast() + [folder + "/tile300.json"])
        #expect(mixed.status == 1 && mixed.stderr.contains("tile300.json is not from the same pass as"), "\(mixed.stderr)")
    }

    /// The kernel and arithmetic `themelab env --json` reports under the given environment.
    static func envBLAS(_ environment: [String: String], removing: [String]) throws -> (kernel: String, arithmetic: String?, stderr: String)
    {
        let r = try CLI.run(["env", "--json"], environment: environment, removing: removing + ["THEMELAB_CORETYPE_FORCED"])
        let json = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any], "\(r.stderr)")
        let blas = try #require((json["provenance"] as? [String: Any])?["blas"] as? [String: Any])
        return (try #require(blas["kernel"] as? String), blas["arithmetic"] as? String, r.stderr)
    }

    @Test func harnessRunsTheCanonicalKernelByDefaultWhateverTheUserSet() throws {
        try #require(BLASRuntime.runsCanonical(.current()), "this CPU has no AVX2: the canonical kernel cannot run")
        let plain = try Self.envBLAS([:], removing: ["OPENBLAS_CORETYPE", "THEMELAB_KERNEL"])
        #expect(plain.kernel == "Haswell" && plain.arithmetic == "canonical", "\(plain)")
        let user = try Self.envBLAS(["OPENBLAS_CORETYPE": "PRESCOTT"], removing: ["THEMELAB_KERNEL"])
        #expect(user.kernel == "Haswell" && user.arithmetic == "canonical", "\(user)")
        #expect(user.stderr.contains("themelab: note: OPENBLAS_CORETYPE=PRESCOTT set aside for the canonical kernel"), "\(user.stderr)")
        let wrong = try CLI.run(["env"], environment: ["THEMELAB_KERNEL": "fast"])
        #expect(wrong.status == 2 && wrong.stderr == "themelab: THEMELAB_KERNEL=\"fast\" is neither 'canonical' nor 'native'\n")
    }

    @Test func nativeArithmeticNeverRunsTheGenericKernelOnAVX2() throws {
        let native = try Self.envBLAS(["THEMELAB_KERNEL": "native"], removing: ["OPENBLAS_CORETYPE"])
        #expect(BLASRuntime.coreTypeToForce(kernel: native.kernel, cpu: .current(), userCoreType: nil) == nil, "ran \(native.kernel)")
        #expect(native.arithmetic == BLASRuntime.arithmetic(kernel: native.kernel).rawValue)
    }

    @Test func aUserChosenKernelIsRespectedUnderNativeAndWarnedAbout() throws {
        let r = try CLI.run(
            ["env"], environment: ["OPENBLAS_CORETYPE": "PRESCOTT", "THEMELAB_KERNEL": "native"], removing: ["THEMELAB_CORETYPE_FORCED"])
        #expect(r.stdout.contains("Prescott (user (OPENBLAS_CORETYPE=PRESCOTT))") && r.stdout.contains("arithmetic    native"))
        #expect(r.stdout.contains("warning: OpenBLAS runs the Prescott kernel") == CPUFeatures.current().hasAVX2)
    }
}

enum BLASRuntimeKernelProbe {
    /// The kernel a fresh `themelab` process reports.
    static var autoKernel: String {
        let r = try? CLI.run(["--version"])
        return r?.stdout.components(separatedBy: "OpenBLAS kernel ").last?.components(separatedBy: ",").first ?? "?"
    }
}
