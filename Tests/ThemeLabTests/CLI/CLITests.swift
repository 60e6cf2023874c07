import Foundation
import Synchronization
import Testing

@testable import ThemeLabCLI
@testable import ThemeLabCore
@testable import ThemeLabCorpus
@testable import ThemeLabMethods

/// `themelab` as a user runs it: in this process through `ThemeLabCLI.main` (`run`), or as the built binary (`launch`)
/// where the process itself is under test: exit codes, the BLAS kernel's re-exec, an environment of its own.
struct CLI {
    static let binary = Bundle.module.bundleURL.deletingLastPathComponent().appendingPathComponent("themelab").path

    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// `themelab ARGUMENTS` in this process: its exit status and the text it wrote to stdout and stderr. Batch scripts
    /// it writes run the built binary.
    static func run(_ arguments: [String]) -> Result {
        _ = testCache
        let (out, err) = (Capture(), Capture())
        let status = ThemeLabCLI.main(
            ["themelab"] + arguments, console: Console(output: out.append, errors: err.append), executable: binary)
        return Result(status: status, stdout: out.text, stderr: err.text)
    }

    /// The built binary with these arguments, in this environment (less `removing`) and `workingDirectory`.
    static func launch(
        _ arguments: [String], environment: [String: String] = [:], removing: [String] = [], workingDirectory: String? = nil
    ) throws -> Result {
        _ = testCache
        var env = ProcessInfo.processInfo.environment
        for key in removing { env[key] = nil }
        env.merge(environment) { $1 }
        return try launch(executable: binary, arguments, environment: env, workingDirectory: workingDirectory)
    }

    /// Any program with these arguments and environment (in `workingDirectory`, else this one); its exit status and output.
    static func launch(
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

/// Text written from any thread, kept in the order it came.
final class Capture: Sendable {
    private let written = Mutex("")
    func append(_ text: String) { written.withLock { $0 += text } }
    var text: String { written.withLock { $0 } }
}

/// A command for the parser's tests: an argument of each kind.
struct ProbeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(name: "probe", abstract: "A command for the parser's tests.")
    var file = ""
    var out: String?
    var seed: UInt64 = 0
    var tile = 7
    var groupings: [Grouping] = []
    var json = false

    static var arguments: [Argument<Self>] {
        [
            .argument("<file>", \.file, help: "A file."),
            .option("--out", \.out, .path, value: "<DIR>", oldSpelling: .outputFolder, help: "A folder."),
            .option("--seed", \.seed, .seed, value: "<S>", help: "A seed."),
            .option("--tile", \.tile, .count(1...9), value: "<T>", help: "A count."),
            .option(
                "--groupings", \.groupings, .entries(kind: "grouping", forms: groupingRegistry.forms), value: "<G,…>",
                read: readNames(grouping(named:)), help: "Groupings."),
            .flag("--json", \.json, help: "A switch."),
        ]
    }
}

/// The parser, every command's help and the command reference, in process.
@Suite struct ParserTests {
    @Test func optionsSwitchesAndPositionalWords() throws {
        let parsed = try CommandParser<ProbeCommand>(
            ["x.json", "--out", "o", "--seed=3", "--json", "--groupings", "hdbscan(8,4),leiden(10)"])
        let p = parsed.command
        #expect(p.file == "x.json" && p.out == "o" && p.seed == 3 && p.json && p.tile == 7 && parsed.notes.isEmpty)
        #expect(p.groupings.map(\.name) == ["hdbscan(8,4)", "leiden(10)"])
    }

    @Test(arguments: [
        (["x", "--bogus"], "unknown option --bogus"), (["x", "--out"], "option --out needs a value"),
        (["x", "--json=yes"], "--json is a switch and takes no value"),
        (["x", "--out", "a", "--out=b"], "--out given twice"), (["a", "b"], "unexpected argument 'b'"), ([], "missing <file>"),
        (["x", "--seed", "three"], "--seed must be a whole number from 0 to 18446744073709551615, got 'three'"),
        (["x", "--tile", "0"], "--tile must be a whole number from 1 to 9, got 0"),
        (["x", "--groupings", "nope"], "--groupings unknown grouping 'nope' (expected \(groupingRegistry.forms.joined(separator: ", ")))"),
    ])
    func theParserRefuses(_ words: [String], _ message: String) {
        #expect(errorMessage { _ = try CommandParser<ProbeCommand>(words) } == message)
    }

    /// `--results DIR`, once an output folder: the option it was renamed to, with a note; never both spellings.
    @Test func anOldSpellingCountsAsItsOption() throws {
        let parsed = try CommandParser<ProbeCommand>(["x", "--results", "r"])
        #expect(parsed.command.out == "r" && parsed.notes == ["--results for an output folder is deprecated; use --out"])
        #expect(
            errorMessage { _ = try CommandParser<ProbeCommand>(["x", "--out", "o", "--results", "r"]) }
                == "--out given twice (--results is its old spelling)")
    }

    /// A name holding a line break is refused on one line, the break written escaped.
    @Test func anErrorFromANameWithALineBreakIsOneLine() throws {
        let r = CLI.run(["analyze", "--corpus", "c.jsonl", "--thresholds", "otsu,bad\nname"])
        #expect(r.status == 2)
        #expect(r.stderr.hasSuffix("\n") && r.stderr.dropLast().split(separator: "\n").count == 1, "\(r.stderr)")
        #expect(r.stderr.contains(#"bad\nname"#), "\(r.stderr)")
    }

    /// bench times the groupings that cut themselves; a threshold grouping is a usage error, not a trap.
    @Test func benchRefusesAThresholdGrouping() {
        let r = CLI.run(["bench", "pairs", "--mode", "grouping", "--grouping", "average", "--n", "100"])
        #expect(r.status == 2 && r.stderr.contains("--grouping average: bench times groupings that cut themselves"), "\(r.stderr)")
    }

    @Test(arguments: CommandCatalogue.paths) func everyCommandHasHelp(_ path: [String]) throws {
        let command = try #require(CommandCatalogue.command(path))
        let help = command.help(path: path)
        #expect(help.hasPrefix("OVERVIEW: ") && help.contains("\nUSAGE: themelab \(path.joined(separator: " "))"))
        for flag in ["--help", "-h"] {
            let r = CLI.run(path + ["--bogus", flag])
            #expect(r.status == 0 && r.stderr.isEmpty && r.stdout == help, "\(path) \(flag)")
        }
        let asked = CLI.run(["help"] + path)
        #expect(asked.status == 0 && asked.stderr.isEmpty && asked.stdout == help, "help \(path)")
        guard path.count == 1 else { return }
        let stray = CLI.run(["help", path[0], "extra"])
        let forms = (["'help \(path[0])'"] + command.configuration.subcommands.map { "'help \(path[0]) \($0.configuration.name)'" })
        #expect(
            stray.status == 2 && stray.stdout.isEmpty
                && stray.stderr
                    == "themelab: help: one command only, got '\(path[0]) extra'; expected \(forms.joined(separator: " or "))\n",
            "\(stray.stderr)")
        let unknown = CLI.run(["help", "\(path[0])\nx"])
        #expect(
            unknown.status == 2 && unknown.stderr.hasPrefix("themelab: help: no command '\(path[0])\\nx'; expected"), "\(unknown.stderr)")
    }

    /// Every declared argument of every command is in its help (each of its names, and the forms of a registry's entries
    /// it takes) and parses a value within its constraint.
    @Test(arguments: CommandCatalogue.paths) func everyDeclaredArgumentParsesAndIsInTheHelp(_ path: [String]) throws {
        let command = try #require(CommandCatalogue.command(path))
        let help = command.help(path: path)
        for argument in CommandCatalogue.arguments(of: command) {
            for name in argument.names { #expect(help.contains(name), "\(path) --help omits \(name)") }
            if case .entries(_, let forms) = argument.constraint {
                for form in forms { #expect(help.contains(form), "\(path) --help omits \(argument.name)'s \(form)") }
            }
            let words = CommandCatalogue.words(command, giving: argument.name, argument.exampleWords)
            #expect(CommandCatalogue.parseProblem(command, words) == nil, "\(path) \(words)")
        }
    }

    @Test func docsCommandsIsTheCommandsHelp() throws {
        let page = (try? String(contentsOfFile: DocExample.root + "/docs/commands.md", encoding: .utf8)) ?? ""
        let expected = CommandHelp.reference(commands: ThemeLabCLI.commands)
        if page != expected { try expected.write(toFile: "/tmp/commands.md", atomically: true, encoding: .utf8) }
        #expect(page == expected, "docs/commands.md is not the commands' help (the generated page is in /tmp/commands.md)")
    }

    /// A long unknown word is cut in the message, its length said: `help` and the command line alike.
    @Test func aLongUnknownWordIsCut() {
        let word = String(repeating: "a", count: 300)
        let expected = "'\(String(repeating: "a", count: 60))…' (300 characters)"
        #expect(CLI.run([word]).stderr == "themelab: unknown command \(expected) (see themelab --help)\n")
        #expect(CLI.run(["help", word]).stderr.hasPrefix("themelab: help: no command \(expected); expected"))
        let marks = "e" + String(repeating: "\u{301}", count: 5_000)  // one character of 5 001 scalars
        #expect(CLI.run([marks]).stderr.utf8.count < 200)
    }

    @Test func theUsageNamesEveryCommandAndTheVersionTheKernel() {
        let usage = CLI.run([])
        #expect(usage.status == 0 && usage.stdout == CLI.run(["--help"]).stdout)
        #expect(usage.stdout.hasPrefix("OVERVIEW: themelab \(Tool.version)"))
        #expect(ThemeLabCLI.commands.allSatisfy { usage.stdout.contains("\n  \($0.configuration.name) ") })
        let version = CLI.run(["--version"])
        #expect(version.status == 0 && version.stdout.contains("OpenBLAS kernel \(BLASRuntime.corename),"), "\(version.stdout)")
    }
}

/// Commands in process: usage errors, bad input, the pass and its shards.
@Suite struct CLITests {
    @Test(arguments: [
        ["pairs", "--bogus"], ["pairs"], ["nosuchcommand"], ["pairs", "--embeddings"], ["pairs", "--embeddings", "x", "--bins", "one"],
    ])
    func badArgumentsGiveOneLineAndExitTwo(_ args: [String]) throws {
        let r = CLI.run(args)
        #expect(r.status == 2)
        #expect(r.stderr.hasPrefix("themelab: ") && r.stderr.split(separator: "\n").count == 1, "\(r.stderr)")
    }

    @Test(arguments: [
        (["synth", "--out-corpus", "c.jsonl", "--out-embeddings", "x.npy", "stray"], "unexpected argument 'stray'"),
        (["pairs", "--embeddings", "a.npy", "--embeddings", "b.npy"], "--embeddings given twice"),
        (["pairs", "--embeddings=a.npy", "--json", "--json"], "--json given twice"),
        (["pairs", "--json=yes"], "--json is a switch and takes no value"),
        (["ablate"], "missing <experiment>"),
        (["merge"], "missing <part>"),
    ])
    func theParserRefusesWhatItWouldOtherwiseIgnore(_ args: [String], _ message: String) throws {
        let r = CLI.run(args)
        #expect(r.status == 2 && r.stderr.contains(message) && r.stderr.split(separator: "\n").count == 1, "\(r.stderr)")
    }

    @Test func optionsMayBeWrittenWithAnEqualsSign() throws {
        let folder = temporaryFolder()
        let r = CLI.run(["synth", "--out-corpus=\(folder)/c.jsonl", "--out-embeddings=\(folder)/x.npy", "--dims=8", "--topics=2,3"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try NPY.read(path: folder + "/x.npy").cols == 8 && (try CorpusReader.read(path: folder + "/c.jsonl")).count == 5)
    }

    @Test func badInputExitsOneNamingTheFile() throws {
        let r = CLI.run(["pairs", "--embeddings", fixture("npy-int.npy")])
        #expect(r.status == 1)
        #expect(r.stderr.contains("npy-int.npy: header field 'descr' is '<i4'"))
        let folder = temporaryFolder()
        try NPY.write(Matrix(rows: 3, cols: 2, storage: [1, 0, 0, 1, 1, 1]), to: folder + "/x.npy")
        try AtomicFile.write("{\"id\":\"a\",\"label\":\"p\"}\n{\"id\":\"b\",\"label\":\"p\"}\n", to: folder + "/c.jsonl")
        let mismatch = CLI.run(["pairs", "--embeddings", folder + "/x.npy", "--labels", folder + "/c.jsonl"])
        #expect(mismatch.status == 1 && mismatch.stderr.contains("has 2 items but"))
    }

    @Test func pairsJSONCarriesStatisticsAndProvenance() throws {
        let folder = temporaryFolder()
        // Rows (1,0), (0,1), (1,1)/√2: cosines 0 (a,b), √½ (a,c), √½ (b,c).
        try NPY.write(Matrix(rows: 3, cols: 2, storage: [1, 0, 0, 1, 1, 1]), to: folder + "/x.npy")
        try AtomicFile.write(
            "{\"id\":\"a\",\"label\":\"p\"}\n{\"id\":\"b\",\"label\":\"p\"}\n{\"id\":\"c\",\"label\":\"q\"}\n", to: folder + "/c.jsonl")
        let r = CLI.run([
            "pairs", "--embeddings", folder + "/x.npy", "--labels", folder + "/c.jsonl", "--json", "--out", folder + "/r.json",
        ])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try String(contentsOfFile: folder + "/r.json", encoding: .utf8) == r.stdout)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        let stats = try #require(json["statistics"] as? [String: [String: Any]])
        #expect(stats["related"]?["count"] as? Int == 1)
        let relatedMax = (stats["related"]?["max"] as? Double) ?? 9
        #expect(relatedMax.isApproximatelyEqual(to: 0, absoluteTolerance: 1e-7))
        let unrelatedMedian = (stats["unrelated"]?["median"] as? Double) ?? 9
        #expect(unrelatedMedian.isApproximatelyEqual(to: 0.5.squareRoot(), absoluteTolerance: 1e-6))
        #expect(stats["all"]?["count"] as? Int == 3)
        let provenance = try #require(json["provenance"] as? [String: Any])
        let inputs = try #require(provenance["inputs"] as? [String: String])
        #expect(inputs[folder + "/x.npy"] == (try SHA256.hex(file: folder + "/x.npy")))
        #expect((provenance["blas"] as? [String: Any])?["kernel"] as? String == BLASRuntime.corename)
    }

    @Test func shardedPairsMergeToTheSameStatistics() throws {
        let folder = temporaryFolder()
        try NPY.write(randomMatrix(rows: 900, cols: 5, seed: 3), to: folder + "/x.npy")
        let cuts = ["--components", "0.99,0.999,0.9999"]
        let whole = CLI.run(["pairs", "--embeddings", folder + "/x.npy", "--tile", "100", "--json"] + cuts)
        var parts: [String] = []
        for i in 0..<4 {
            let r = CLI.run([
                "pairs", "--embeddings", folder + "/x.npy", "--tile", "100", "--shard", "\(i)/4", "--out", folder + "/part\(i).json",
            ])
            #expect(r.status == 0, "\(r.stderr)")
            parts.append(folder + "/part\(i).json")
        }
        let merged = CLI.run(["merge", "--json"] + cuts + parts)
        #expect(merged.status == 0, "\(merged.stderr)")
        func field(_ name: String, _ text: String) throws -> NSObject {
            try #require((try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])?[name] as? NSObject)
        }
        #expect(try field("statistics", merged.stdout) == field("statistics", whole.stdout))
        // Single-linkage groups from the merged shard forests equal the unsharded pass's.
        let components = try #require(try field("components", whole.stdout) as? [[String: Any]])
        #expect(try field("components", merged.stdout) == field("components", whole.stdout))
        #expect(components.map { $0["groups"] as? Int ?? 0 }.allSatisfy { $0 > 1 } && components.count == 3)
        let missing = CLI.run(["merge"] + parts.dropLast())
        #expect(missing.status == 1 && missing.stderr.contains("incomplete: shard 3 of 0..<4 missing (3 of 4 given)"), "\(missing.stderr)")
        // Parts of a pass cut into other tiles are not parts of this one.
        let otherTile = CLI.run([
            "pairs", "--embeddings", folder + "/x.npy", "--tile", "300", "--shard", "3/4", "--out", folder + "/tile300.json",
        ])
        #expect(otherTile.status == 0)
        let mixed = CLI.run(["merge"] + parts.dropLast() + [folder + "/tile300.json"])
        #expect(mixed.status == 1 && mixed.stderr.contains("tile300.json is not from the same pass as"), "\(mixed.stderr)")
    }

    /// `env --model` names a folder given on the command line on one line, a line break in its name escaped.
    @Test func envNamesAGivenModelFolderOnOneLine() {
        let env = CLI.run(["env", "--model", "/tmp/no\nsuch"])
        #expect(env.status == 0)
        #expect(env.stdout.contains("model folder  /tmp/no\\nsuch\nmodel         not usable: /tmp/no\\nsuch: model folder not found\n"))
    }

    @Test func envReportsThisProcesssKernelAndDatasetsListsTheCorpora() throws {
        let env = CLI.run(["env", "--json"])
        let json = try #require(try JSONSerialization.jsonObject(with: Data(env.stdout.utf8)) as? [String: Any], "\(env.stderr)")
        #expect(((json["provenance"] as? [String: Any])?["blas"] as? [String: Any])?["kernel"] as? String == BLASRuntime.corename)
        #expect((json["provenance"] as? [String: Any])?["command"] as? [String] == ["themelab", "env", "--json"])
        #expect(
            json["model"] as? String
                == "BERT, 6 layers, hidden 384; WordPiece (tokenizer.json), up to 256 tokens; pooling mean, Normalize; "
                + "sentence vectors of 384 dimensions")
        let datasets = CLI.run(["datasets", "list", "--json"])
        let rows = try #require(
            try JSONSerialization.jsonObject(with: Data(datasets.stdout.utf8)) as? [[String: Any]], "\(datasets.stderr)")
        #expect(rows.contains { $0["name"] as? String == "seed-12" })
        let other = CLI.run(["datasets", "fetch"])
        #expect(
            other.status == 2
                && other.stderr == "themelab: datasets: expected 'datasets list', got 'fetch' (see themelab datasets --help)\n")
    }

    /// `reproduce` checks --only before any work; its old output spelling still works, with a note.
    @Test func reproduceRefusesAnUnknownExperimentBeforeAnyWork() throws {
        let folder = temporaryFolder() + "/results"
        let r = CLI.run(["reproduce", "--only", "nosuch", "--results", folder])
        let lines = r.stderr.split(separator: "\n")
        #expect(r.status == 2 && lines.count == 2, "\(r.stderr)")
        #expect(lines.first == "themelab: --results for an output folder is deprecated; use --out")
        #expect(lines.last?.hasPrefix("themelab: reproduce: --only: no experiment 'nosuch' in ") == true, "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder), "refused before the output folder is made")
        for only in ["", ",", "ci-gate,"] {
            let empty = CLI.run(["reproduce", "--only", only, "--out", folder])
            let expected = "(it names an experiment); got \"\" (see themelab reproduce --help)\n"
            #expect(empty.status == 2 && empty.stderr.hasSuffix(expected), "\(empty.stderr)")
        }
        #expect(!FileManager.default.fileExists(atPath: folder), "an empty name runs nothing and makes no folder")
    }

    /// A corpus that fails its checksum stops `reproduce` with one line naming the file: no progress line for the stage
    /// that failed, and no output folder left (the run made it, and takes it away with its lock).
    @Test func reproduceStopsAtACorruptCorpusWithOneLine() throws {
        let data = temporaryFolder()
        try FileManager.default.createDirectory(atPath: data + "/clinc150", withIntermediateDirectories: true)
        let original = try #require(ProjectFiles.locate("Datasets/clinc150"))
        try FileManager.default.copyItem(atPath: original + "/domains.json", toPath: data + "/clinc150/domains.json")
        try Data("{\"test\": []}".utf8).write(to: URL(fileURLWithPath: data + "/clinc150/data_full.json"))
        let out = temporaryFolder() + "/results"
        let r = CLI.run(["reproduce", "--only", "clinc150", "--data-dir", data, "--out", out])
        #expect(r.status != 0 && r.stderr.split(separator: "\n").count == 1, "\(r.stderr)")
        #expect(r.stderr.hasPrefix("themelab: \(data)/clinc150/data_full.json: SHA-256 "), "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out), "the failed run's folder is gone")
    }

    /// `reproduce --out` onto a folder it reads (the corpora, the experiments, the model) is refused before
    /// any work; it used to start, and would have built its results in (and swapped them with) Datasets/.
    @Test func reproduceRefusesAnOutputFolderThatHoldsItsInputs() throws {
        for folder in ["Datasets", "Experiments", "Datasets/clinc150", "."] {
            let out = ReproducibilityTests.root + "/" + folder
            let r = CLI.run(["reproduce", "--out", out])
            #expect(r.status == 2 && r.stderr.contains("is inside the output folder \(out); keep inputs outside it"), "\(r.stderr)")
        }
        #expect(!FileManager.default.fileExists(atPath: ReproducibilityTests.root + "/Datasets/.lock"))
    }
}

/// `--results`, once the output folder of ablate, gather, replay, reproduce and slurm ablate, is `--out` now: the old
/// spelling is taken with a note, never alongside --out, and never for a part.
@Suite struct OldOutputSpellingTests {
    @Test func theOldSpellingIsNotedAndNeverTakenTwiceOrForAPart() throws {
        let plan = ReproducibilityTests.root + "/Experiments/ci-gate.json"
        let note = "themelab: --results for an output folder is deprecated; use --out"
        let part = CLI.run(["ablate", plan, "--shard", "0/3", "--results", "p.json"])
        #expect(part.status == 2, "\(part.stderr)")
        #expect(
            part.stderr.split(separator: "\n") == [
                Substring(note),
                "themelab: ablate: --shard writes a part file to --out, not a results folder (see themelab ablate --help)",
            ])
        for command in [["ablate", plan], ["gather", plan, "p.json"], ["replay", plan], ["reproduce"], ["slurm", "ablate", plan]] {
            let twice = CLI.run(command + ["--out", "a", "--results", "b"])
            #expect(twice.status == 2 && twice.stderr.contains("--out given twice (--results is its old spelling)"), "\(twice.stderr)")
        }
        let check = CLI.run(["check", "--results", "r.json", "--out", "b.json"])
        #expect(check.status == 2 && check.stderr.contains("unknown option --out"), "check reads --results: \(check.stderr)")
    }
}

/// The built binary, where the process boundary is what is under test: exit codes, and the BLAS kernel it re-executes
/// itself onto (OpenBLAS reads OPENBLAS_CORETYPE only when it loads).
@Suite(.serialized) struct LaunchTests {
    @Test func exitCodesAreWhatTheShellSees() throws {
        let help = try CLI.launch(["--help"])
        #expect(help.status == 0 && help.stdout.hasPrefix("OVERVIEW: themelab ") && help.stderr.isEmpty)
        let usage = try CLI.launch(["pairs", "--bins", "one", "--embeddings", "x.npy"])
        #expect(
            usage.status == 2
                && usage.stderr
                    == "themelab: pairs: --bins must be a whole number from 2 to 16777216, got 'one' (see themelab pairs --help)\n"
        )
        let input = try CLI.launch(["pairs", "--embeddings", fixture("npy-int.npy")])
        #expect(input.status == 1 && input.stderr.hasPrefix("themelab: ") && input.stderr.contains("npy-int.npy"), "\(input.stderr)")
        let check = try CLI.launch(["check", "--results", GateTests.committed, "--baseline", ProjectFiles.locate("results/baseline.json")!])
        #expect(check.status == 0 && check.stdout.hasPrefix("check passed"), "\(check.stdout)\(check.stderr)")
    }

    /// Ctrl-C (SIGINT) or SIGTERM during a run: the process still ends by the signal, and a results folder it made and
    /// had not written to is gone; a folder that was there before keeps its files and gets no staging folder left in it.
    @Test(arguments: [SIGINT, SIGTERM])
    func anInterruptedRunLeavesNoFolderItMade(_ signal: Int32) throws {
        let folder = temporaryFolder()
        let sizes = Array(repeating: 100, count: 40)
        try AtomicFile.write(
            """
            {"name": "slow", "corpora": [{"name": "synthetic", "generator": {"dimensions": 256, "topicSizes": \(sizes),
              "anisotropy": 2, "anisotropySpread": 0.2, "topicStrength": 1, "noise": 0.5, "seed": 4}}], "replicates": 10}
            """, to: folder + "/slow.json")
        try FileManager.default.createDirectory(atPath: folder + "/kept", withIntermediateDirectories: false)
        try AtomicFile.write("mine\n", to: folder + "/kept/notes.txt")
        for out in ["made/out", "kept"] {
            let pid = try Self.spawnAsAShellDoes([CLI.binary, "ablate", folder + "/slow.json", "--out", "\(folder)/\(out)"])
            _ = Self.waitUntil { FileManager.default.fileExists(atPath: "\(folder)/\(out)/.lock") }
            usleep(500_000)
            let status = Self.signal(pid, signal)
            #expect(status & 0x7f == signal, "\(out): ended by signal \(status & 0x7f), else exit status \(status >> 8)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder + "/made").isEmpty, "the interrupted run's new folder")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder + "/kept").sorted() == [".lock", "notes.txt"])
    }

    /// Ctrl-C while a large file is being written beside where it goes: its hidden temporary is removed too.
    @Test func anInterruptedWriteLeavesNoTemporaryFile() throws {
        let folder = temporaryFolder()
        let pid = try Self.spawnAsAShellDoes([
            CLI.binary, "synth", "--out-corpus", folder + "/c.jsonl", "--out-embeddings", folder + "/x.npy", "--dims", "1024",
            "--topics", "20000,20000",
        ])
        func staging() -> Bool {
            ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).contains { $0.hasPrefix(".x.npy.") }
        }
        #expect(Self.waitUntil(staging), "the vectors were never seen being staged")
        let status = Self.signal(pid, SIGINT)
        #expect(status & 0x7f == SIGINT, "ended by signal \(status & 0x7f), else exit status \(status >> 8)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasPrefix(".") }.isEmpty)
    }

    /// Polls `condition` every 2 ms for up to a minute; whether it came true.
    static func waitUntil(_ condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(60)
        while !condition() && Date() < deadline { usleep(2_000) }
        return condition()
    }

    /// Sends `signal` to the child `pid` and waits for it to end: its wait status (the low 7 bits the signal that ended it).
    static func signal(_ pid: pid_t, _ signal: Int32) -> Int32 {
        kill(pid, signal)
        var status: Int32 = 0
        waitpid(pid, &status, 0)
        return status
    }

    /// Starts a program (its path first) with SIGINT and SIGTERM unblocked and at their defaults, as a shell starts a command
    /// (Foundation's Process hands the child the blocked signals of the thread that starts it), its stderr discarded.
    static func spawnAsAShellDoes(_ arguments: [String]) throws -> pid_t {
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var (none, defaults) = (sigset_t(), sigset_t())
        sigemptyset(&none)
        sigemptyset(&defaults)
        sigaddset(&defaults, SIGINT)
        sigaddset(&defaults, SIGTERM)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let argv = arguments.map { strdup($0) } + [nil]
        defer { for word in argv { free(word) } }
        var pid = pid_t()
        let failed = posix_spawn(&pid, arguments[0], &actions, &attributes, argv, environ)
        guard failed == 0 else { throw ThemeLabError.input("\(arguments[0]): cannot start (\(String(cString: strerror(failed))))") }
        return pid
    }

    /// The kernel and arithmetic `themelab env --json` reports under the given environment.
    static func envBLAS(_ environment: [String: String], removing: [String]) throws -> (kernel: String, arithmetic: String?, stderr: String)
    {
        let r = try CLI.launch(["env", "--json"], environment: environment, removing: removing + ["THEMELAB_CORETYPE_FORCED"])
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
        let wrong = try CLI.launch(["env"], environment: ["THEMELAB_KERNEL": "fast"])
        #expect(wrong.status == 2 && wrong.stderr == "themelab: THEMELAB_KERNEL=\"fast\" is neither 'canonical' nor 'native'\n")
    }

    @Test func nativeArithmeticNeverRunsTheGenericKernelOnAVX2() throws {
        let native = try Self.envBLAS(["THEMELAB_KERNEL": "native"], removing: ["OPENBLAS_CORETYPE"])
        #expect(BLASRuntime.coreTypeToForce(kernel: native.kernel, cpu: .current(), userCoreType: nil) == nil, "ran \(native.kernel)")
        #expect(native.arithmetic == BLASRuntime.arithmetic(kernel: native.kernel).rawValue)
    }

    @Test func aUserChosenKernelIsRespectedUnderNativeAndWarnedAbout() throws {
        let r = try CLI.launch(
            ["env"], environment: ["OPENBLAS_CORETYPE": "PRESCOTT", "THEMELAB_KERNEL": "native"], removing: ["THEMELAB_CORETYPE_FORCED"])
        #expect(r.stdout.contains("Prescott (user (OPENBLAS_CORETYPE=PRESCOTT))") && r.stdout.contains("arithmetic    native"))
        #expect(r.stdout.contains("warning: OpenBLAS runs the Prescott kernel") == CPUFeatures.current().hasAVX2)
    }
}
