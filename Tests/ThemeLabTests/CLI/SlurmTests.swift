import Foundation
import Testing
import ThemeLabCLI
import ThemeLabCore
import ThemeLabPairs
import ThemeLabStudy

/// The local one-node cluster of scripts/slurm/local-cluster, which `make test` starts when it runs as root and
/// points SLURM_CONF at. Without it the cluster tests are skipped with the reason, except under CI, where they must run.
enum LocalSlurm {
    static let conf = ProcessInfo.processInfo.environment["SLURM_CONF"]
    static let mustRun = ProcessInfo.processInfo.environment["CI"] == "true"
    static var isUp: Bool { conf != nil && (try? shell("sinfo -h -o %T").status) == 0 }
    static let skipReason: Comment = "no local Slurm cluster: `make test` starts one as root (scripts/slurm/local-cluster start)"

    @discardableResult
    static func shell(_ command: String) throws -> CLI.Result {
        try CLI.launch(executable: "/bin/bash", ["-c", command], environment: ProcessInfo.processInfo.environment)
    }

    /// The states of a job's tasks (`scontrol show job`, kept for MinJobAge after they end).
    static func states(_ job: String) throws -> [String] {
        try shell("scontrol show job -o \(job)").stdout.split(separator: "\n").compactMap { line in
            line.split(separator: " ").first { $0.hasPrefix("JobState=") }.map { String($0.dropFirst("JobState=".count)) }
        }
    }

    /// Waits until no task of `job` is pending or running; returns their end states.
    static func wait(_ job: String, seconds: Double = 180) throws -> [String] {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            let s = try states(job)
            if !s.isEmpty && s.allSatisfy({ !["PENDING", "RUNNING", "CONFIGURING", "COMPLETING", "REQUEUED"].contains($0) }) { return s }
            Thread.sleep(forTimeInterval: 0.3)
        }
        throw ThemeLabError.input("job \(job) did not end within \(seconds) s: \(try states(job))")
    }

    /// Runs DIR/submit with `tasks`; returns the array and finish job ids.
    static func submit(_ folder: String, tasks: String = "") throws -> (array: String, finish: String) {
        let r = try shell("'\(folder)/submit' \(tasks)")
        guard r.status == 0 else { throw ThemeLabError.input("submit failed: \(r.stderr)") }
        let ids = try ["array", "finish"].map {
            try String(contentsOfFile: "\(folder)/\($0).jobid", encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        }
        return (ids[0], ids[1])
    }
}

/// A JSON file without the fields that name when and how it was made.
func withoutRunFields(_ path: String) throws -> [String: NSObject] {
    var object = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: NSObject])
    if var p = object["provenance"] as? [String: NSObject] {
        p["createdAt"] = nil
        p["command"] = nil
        object["provenance"] = p as NSObject
    }
    return object
}

/// Every file of two results folders, equal byte for byte (JSON: but for createdAt and command).
func expectSameResults(_ a: String, _ b: String) throws {
    let files = try FileManager.default.subpathsOfDirectory(atPath: a).sorted()
    #expect(files == (try FileManager.default.subpathsOfDirectory(atPath: b)).sorted())
    for f in files {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: "\(a)/\(f)", isDirectory: &isFolder), !isFolder.boolValue else { continue }
        if f.hasSuffix(".json") {
            #expect(try withoutRunFields("\(a)/\(f)") == withoutRunFields("\(b)/\(f)"), "\(f) differs")
        } else {
            #expect(FileManager.default.contents(atPath: "\(a)/\(f)") == FileManager.default.contents(atPath: "\(b)/\(f)"), "\(f) differs")
        }
    }
}

@Suite struct SlurmScriptTests {
    @Test func requestsFollowTheCostModelWithStatedRoom() throws {
        let r = try SlurmResources(cpus: 2, predictedMiB: 1000, predictedSeconds: 1200, reason: "x")
        #expect(r.memoryMiB == 1506 && r.minutes == 70 && r.timeLimit == "0-01:10:00")
        let long = try SlurmResources(cpus: 1, predictedMiB: 0, predictedSeconds: 0, reason: "y", memoryMiB: 64, minutes: 1500)
        #expect(long.memoryMiB == 64 && long.timeLimit == "1-01:00:00" && long.reason.hasSuffix("--mem/--time given"))
        // N = 1 000 000, d = 384 in 8 shards on 2 CPUs: the pass's 4.1 × 10³ s over 8; memory of the 832 064 rows the
        // most-reading shard reads (worked out in Python from the group order) and a forest over all N.
        let shard = try SlurmResources.pairsShard(items: 1_000_000, dimensions: 384, shards: 8, cpus: 2, model: .reference)
        #expect(abs(CostModel.reference.seconds(n: 1_000_000, d: 384) - 4131) < 2)
        #expect(shard.minutes == Int((3 * 4131.0 / 8 / 60 + 10).rounded(.up)))
        #expect(abs(CostModel.reference.peakMiB(n: 1_000_000, d: 384) - 4325) < 2)
        let rowsMiB: Double = CostModel.reference.peakMiB(n: 1_000_000, d: 384, rows: 832_064)
        #expect(shard.memoryMiB == Int((1.25 * rowsMiB + 256).rounded(.up)))
        // The bridge forest: 2 · 489 − 1 of 489 · 490 / 2 tiles.
        let bridge = try SlurmResources.pairsBridge(items: 1_000_000, dimensions: 384, cpus: 2, model: .reference)
        let bridgeSeconds: Double = CostModel.reference.seconds(n: 1_000_000, d: 384) * 977 / 119_805
        #expect(bridge.minutes == Int((3 * bridgeSeconds / 60 + 10).rounded(.up)))
    }

    @Test func scriptsHoldTheArrayTheDependencyAndTheRequests() throws {
        let folder = temporaryFolder() + "/work"
        let batch = SlurmBatch(
            name: "themelab-pairs", folder: folder, workingDirectory: "/w", partition: "gpu", account: "lab", tasks: 4,
            task: try SlurmResources(cpus: 2, predictedMiB: 100, predictedSeconds: 60, reason: "t"),
            finish: try SlurmResources(cpus: 1, predictedMiB: 10, predictedSeconds: 60, reason: "f"),
            taskCommand: ["/bin/themelab", "pairs", "--shard", "\(SlurmBatch.taskIndex)/4", "--out", SlurmBatch.partPath, "it's"],
            finishCommand: (["/bin/themelab", "merge"], ["--out", folder + "/pairs.json"]))
        try batch.write()
        let array = try String(contentsOfFile: folder + "/array.sbatch", encoding: .utf8)
        for line in [
            "#SBATCH --array=0-3", "#SBATCH --mem=381M", "#SBATCH --time=0-00:13:00", "#SBATCH --cpus-per-task=2",
            "#SBATCH --partition=gpu",
            "#SBATCH --account=lab", "#SBATCH --chdir=/w",
            "exec /bin/themelab pairs --shard \"$SLURM_ARRAY_TASK_ID\"/4 --out "
                + "\(folder)/parts/shard-\"$SLURM_ARRAY_TASK_ID\"-of-4.json 'it'\\''s'",
        ] {
            #expect(array.contains(line + "\n"), "\(line) not in\n\(array)")
        }
        let finish = try String(contentsOfFile: folder + "/finish.sbatch", encoding: .utf8)
        #expect(finish.contains("parts=(\(folder)/parts/shard-*-of-4.json)\n"))
        #expect(finish.contains("exec /bin/themelab merge \"${parts[@]}\" --out \(folder)/pairs.json\n"))
        let submit = try String(contentsOfFile: folder + "/submit", encoding: .utf8)
        #expect(submit.contains("finish=$(sbatch --parsable --dependency=afterok:\"$array\" finish.sbatch)"))
        #expect(submit.contains("tasks=${1:-0-3}"))
        #expect(FileManager.default.isExecutableFile(atPath: folder + "/submit"))
        // bash accepts all three.
        for f in ["array.sbatch", "finish.sbatch", "submit"] { #expect(try LocalSlurm.shell("bash -n '\(folder)/\(f)'").status == 0) }
    }

    /// Every value quoted for a script comes back from bash as it was, on one line, with nothing expanded.
    @Test func quotedWordsComeBackAsTheyWere() throws {
        for word in [
            "plain", "a b", "it's", "$(touch x)", "`id`", "a\nb", "a\r\nb", "a\u{2028}b", "back\\slash", "tab\there", "é ü", "\u{1b}[2J",
            "",
        ] {
            let quoted = SlurmBatch.shellQuote(word)
            #expect(!quoted.contains("\n") && !quoted.contains("\r") && !quoted.unicodeScalars.contains("\u{2028}"), "\(quoted)")
            let r = try LocalSlurm.shell("printf %s " + quoted)
            #expect(r.status == 0 && r.stdout == word, "\(String(reflecting: word)) → \(quoted) → \(String(reflecting: r.stdout))")
        }
    }

    /// Predictions no request can carry (a cost model fitted to figures that are off) are refused, never trapped on.
    @Test func predictionsBeyondAnyRequestAreRefused() throws {
        for (mib, seconds) in [(1e300, 1.0), (.infinity, 1), (1, .infinity), (.nan, 1), (-5, 1), (1, -1e9), (1, 1e30)] {
            #expect(throws: ThemeLabError.self, "\(mib) MiB, \(seconds) s") {
                _ = try SlurmResources(cpus: 1, predictedMiB: mib, predictedSeconds: seconds, reason: "x")
            }
        }
        #expect(try SlurmResources(cpus: 1, predictedMiB: 1e300, predictedSeconds: 1, reason: "x", memoryMiB: 64).memoryMiB == 64)
    }

    /// Hostile strings in every path, option and name: bash parses every generated script, and running them (against stub
    /// sbatch, squeue and scancel) runs nothing those strings hold. A comment carries a line break as an escape.
    @Test func hostileNamesRunNothingFromTheGeneratedScripts() throws {
        let base = temporaryFolder()
        try NPY.write(randomMatrix(rows: 10, cols: 3, seed: 1), to: base + "/x.npy")
        let corpus = base + "/c\nrm -rf x\n#SBATCH --mem=1.jsonl"
        try AtomicFile.write("{\"id\":\"a\",\"text\":\"x\",\"label\":\"p\"}\n{\"id\":\"b\",\"text\":\"y\",\"label\":\"q\"}\n", to: corpus)
        let plan = try JSONSerialization.data(withJSONObject: [
            "name": "grid", "corpora": [["name": "file", "path": corpus]], "encoders": [["embeddings": base + "/x.npy"]],
        ])
        try plan.write(to: URL(fileURLWithPath: base + "/grid.json"))
        try AtomicFile.write("{\"id\":\"a\",\"text\":\"x\",\"label\":\"p\"}\n", to: base + "/unused.jsonl")
        let stubs = base + "/stubs"
        try FileManager.default.createDirectory(atPath: stubs, withIntermediateDirectories: true)
        for (name, body) in [("sbatch", "echo 7"), ("squeue", "true"), ("scancel", "true")] {
            try AtomicFile.write("#!/bin/sh\n\(body)\n", to: "\(stubs)/\(name)")
            chmod("\(stubs)/\(name)", 0o755)
        }
        let hostile = ["w$(touch${IFS}pwned)", "w`touch${IFS}pwned`", "w\"q", "w'q", "w;touch${IFS}pwned"]
        for (k, work) in hostile.enumerated() {
            let folder = "\(base)/\(k)/\(work)"
            for args in [
                ["slurm", "pairs", "--embeddings", base + "/x.npy", "--shards", "2", "--work", folder, "--partition", "p$(x)"],
                ["slurm", "ablate", base + "/grid.json", "--work", folder + "g", "--out", folder + "r"],
            ] {
                let r = try CLI.launch(args, environment: ["PATH": stubs + ":/usr/bin:/bin"], workingDirectory: base)
                try #require(r.status == 0, "\(args): \(r.stderr)")
                let written = args.contains("pairs") ? folder : folder + "g"
                for file in ["array.sbatch", "finish.sbatch", "submit"] {
                    #expect(try LocalSlurm.shell("bash -n \(SlurmBatch.shellQuote(written + "/" + file))").status == 0, "\(work): \(file)")
                }
                let comment = try String(contentsOfFile: written + "/array.sbatch", encoding: .utf8).split(separator: "\n")
                #expect(comment.filter { $0.hasPrefix("#SBATCH --mem=") }.count == 1, "one --mem line only")
                let runs =
                    "cd \(SlurmBatch.shellQuote(base)); PATH=\(stubs):$PATH; "
                    + "\(SlurmBatch.shellQuote(written + "/submit")); bash \(SlurmBatch.shellQuote(written + "/finish.sbatch")); "
                    + "SLURM_ARRAY_TASK_ID=0 bash \(SlurmBatch.shellQuote(written + "/array.sbatch")); true"
                _ = try LocalSlurm.shell(runs)
                #expect(!FileManager.default.fileExists(atPath: base + "/pwned"), "\(work) ran a command")
                #expect(FileManager.default.fileExists(atPath: corpus), "\(work) removed a file")
            }
        }
    }

    @Test(arguments: [
        (["slurm", "pairs", "--embeddings", "x.npy", "--work", "a b", "--shards", "2"], "holds a space, newline or control character"),
        (
            ["slurm", "pairs", "--embeddings", "x.npy", "--work", "a\u{1b}b", "--shards", "2"],
            "holds a space, newline or control character"
        ),
        (["slurm", "pairs", "--embeddings", "x.npy", "--work", "w"], "missing --shards"),
        (["slurm", "pairs", "--embeddings", "x.npy", "--work", "w", "--shards", "0"], "--shards must be a whole number from 1 to 4096"),
        (["slurm", "ablate", "Experiments/ci-gate.json", "--work", "w", "--shards", "4"], "--shards must be a whole number from 1 to 3"),
        (["slurm", "ablate", "Experiments/ci-gate.json", "--work", "w", "--bins", "4"], "slurm ablate: unknown option --bins"),
        (["slurm", "grid", "--work", "w"], "slurm: expected 'slurm pairs' or 'slurm ablate', got 'grid'"),
        (["ablate", "Experiments/ci-gate.json", "--shard", "3/4", "--out", "p.json"], "'ci-gate' has 3 corpora"),
        (["ablate", "Experiments/ci-gate.json", "--shard", "0/3"], "missing --out"),
        (["slurm", "pairs", "--embeddings", "x.npy", "--work", "w", "--shards", "2", "--out", "r"], "slurm pairs: unknown option --out"),
    ])
    func badSlurmArgumentsGiveOneLine(_ args: [String], _ expected: String) throws {
        let folder = temporaryFolder()
        try NPY.write(randomMatrix(rows: 10, cols: 3, seed: 1), to: folder + "/x.npy")
        let root = ReproducibilityTests.root
        let r = CLI.run(args.map { $0 == "x.npy" ? folder + "/x.npy" : $0.hasPrefix("Experiments/") ? root + "/" + $0 : $0 })
        #expect(r.status == 2 && r.stderr.contains(expected) && r.stderr.split(separator: "\n").count == 1, "\(r.stderr)")
    }
}

/// `slurm ablate` in process: one request for every task (the largest shard's memory, the longest time), and a finish
/// job that gathers into --out.
@Suite struct SlurmGridScriptTests {
    @Test func theArrayCarriesTheLargestRequestAndTheFinishJobGathersIntoOut() throws {
        let folder = temporaryFolder()
        let planPath = ReproducibilityTests.root + "/Experiments/ci-gate.json"
        let r = CLI.run(["slurm", "ablate", planPath, "--work", folder + "/w", "--out", folder + "/r", "--shards", "2", "--cpus", "1"])
        #expect(r.status == 0 && r.stderr.contains("2 task(s) of 1 CPU"), "\(r.stderr)")
        let plan = try ExperimentPlan.read(path: planPath)
        let task = try SlurmResources.gridArray(plan, shards: 2, dataDirectory: nil, cpus: 1, model: .reference)
        let shards = try (0..<2).map { i in
            let sizes = try plan.corpusSizes(dataDirectory: nil)
            let grid = GridEstimate(plan, sizes: try plan.corpusIndices(in: PairShard(index: i, count: 2)).map { sizes[$0] })
            return try SlurmResources.gridShard(grid, cpus: 1, model: .reference)
        }
        #expect(task.memoryMiB == shards.map(\.memoryMiB).max() && task.minutes == shards.map(\.minutes).max())
        #expect(task.reason.hasPrefix("largest of 2 tasks: corpora "))
        let array = try String(contentsOfFile: folder + "/w/array.sbatch", encoding: .utf8)
        #expect(array.contains("#SBATCH --mem=\(task.memoryMiB)M\n") && array.contains("#SBATCH --time=\(task.timeLimit)\n"), "\(array)")
        #expect(array.contains("exec \(CLI.binary) ablate \(planPath) --shard \"$SLURM_ARRAY_TASK_ID\"/2 --out "), "\(array)")
        let finish = try String(contentsOfFile: folder + "/w/finish.sbatch", encoding: .utf8)
        #expect(finish.contains("exec \(CLI.binary) gather \(planPath) \"${parts[@]}\" --out \(folder)/r\n"), "\(finish)")
    }
}

@Suite struct ShardedGridTests {
    /// The CI-gate grid in three shards, gathered in any order, writes the files a local ablate writes; an
    /// incomplete set, an edited plan and a shard given twice with other figures are refused.
    @Test func gatheredShardsWriteTheLocalResults() throws {
        let folder = temporaryFolder()
        let plan = ReproducibilityTests.root + "/Experiments/ci-gate.json"
        let local = CLI.run(["ablate", plan, "--out", folder + "/local"])
        #expect(local.status == 0, "\(local.stderr)")
        var parts: [String] = []
        for i in 0..<3 {
            let part = "\(folder)/parts/shard-\(i)-of-3.json"
            let r = CLI.run(["ablate", plan, "--shard", "\(i)/3", "--out", part])
            #expect(r.status == 0, "\(r.stderr)")
            parts.append(part)
        }
        let gathered = CLI.run(["gather", plan, parts[2], parts[0], parts[1], parts[0], "--out", folder + "/gathered"])
        #expect(gathered.status == 0, "\(gathered.stderr)")
        try expectSameResults(folder + "/local/ci-gate", folder + "/gathered/ci-gate")

        let missing = CLI.run(["gather", plan, parts[0], parts[2], "--out", folder + "/missing"])
        #expect(missing.status == 1 && missing.stderr.contains("incomplete: shard 1 of 0..<3 missing (2 of 3 given)"), "\(missing.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder + "/missing/ci-gate"))

        var edited = try String(contentsOfFile: plan, encoding: .utf8)
        edited = edited.replacingOccurrences(of: "\"shuffles\": 3", with: "\"shuffles\": 4")
        try AtomicFile.write(edited, to: folder + "/ci-gate.json")
        let other = CLI.run(["gather", folder + "/ci-gate.json"] + parts + ["--out", folder + "/other"])
        #expect(other.status == 1 && other.stderr.contains("\(parts[0]) was computed from another version of"), "\(other.stderr)")

        var part = try JSONOutput.decode(GridPart.self, from: Data(contentsOf: URL(fileURLWithPath: parts[1])))
        part.results.analyses[0].corpus.items += 1
        try AtomicFile.write(try JSONOutput.encode(part), to: folder + "/copy.json")
        let twice = CLI.run(["gather", plan, folder + "/copy.json"] + parts + ["--out", folder + "/twice"])
        #expect(
            twice.status == 1 && twice.stderr.contains("\(parts[1]) and \(folder)/copy.json are both shard 1/3 but hold different results"),
            "\(twice.stderr)")

        // Parts that lie about what they hold are refused, naming the part; nothing is written.
        let original = try JSONOutput.decode(GridPart.self, from: Data(contentsOf: URL(fileURLWithPath: parts[1])))
        let forgeries: [(String, (inout GridPart) -> Void, String)] = [
            (
                "none",
                {
                    $0.analysesPerCorpus = [0]
                    $0.results.analyses = []
                }, "says corpus 1 gave 0 analyses; the experiment gives 1"
            ),
            (
                "wrong",
                { p in
                    p.results.analyses =
                        (try? JSONOutput.decode(GridPart.self, from: Data(contentsOf: URL(fileURLWithPath: parts[0]))))!.results.analyses
                },
                "the analyses it gives for corpus"
            ),
            (
                "forged", { $0.results.provenance.inputs["Datasets/seed-26.jsonl"] = String(repeating: "0", count: 64) },
                "its input Datasets/seed-26.jsonl has another checksum now"
            ),
            ("count", { $0.shard = PairShard(index: 1, count: 7) }, "shard count 7; the experiment has 3 corpora"),
        ]
        for (label, forge, expected) in forgeries {
            var p = original
            forge(&p)
            try AtomicFile.write(try JSONOutput.encode(p), to: "\(folder)/\(label).json")
            let r = CLI.run(["gather", plan, "\(folder)/\(label).json", parts[0], parts[2], "--out", folder + "/" + label])
            #expect(r.status == 1 && r.stderr.contains("\(folder)/\(label).json") && r.stderr.contains(expected), "\(label): \(r.stderr)")
            #expect(!r.stderr.contains("--shard"), "\(label): names an option gather was not given")
            #expect(!FileManager.default.fileExists(atPath: folder + "/" + label + "/ci-gate"))
        }
    }
}

/// On the local Slurm cluster: the sharded pass and an experiment grid as job arrays, and what a cluster's faults leave.
@Suite(.serialized, .enabled(if: LocalSlurm.isUp || LocalSlurm.mustRun, LocalSlurm.skipReason))
struct SlurmClusterTests {
    /// A 4-way sharded pass of N = 20 000, d = 384 as an array and a dependent merge gives the unsharded statistics
    /// and components. Then the faults: task 2 cancelled mid-run leaves no part and the merge refuses the set naming
    /// shard 2; `submit 2` completes it; a requeued task rewrites its part with the same bytes, and a copy of a part
    /// with other figures is refused.
    @Test func shardedPassOnTheClusterEqualsTheUnshardedPassAndSurvivesFaults() throws {
        let folder = temporaryFolder()
        let synth = CLI.run([
            "synth", "--out-corpus", folder + "/c.jsonl", "--out-embeddings", folder + "/x.npy", "--dims", "384", "--anisotropy", "0",
            "--spread", "0", "--topics", Array(repeating: "500", count: 40).joined(separator: ","), "--seed", "3",
        ])
        #expect(synth.status == 0, "\(synth.stderr)")
        let input = ["--embeddings", folder + "/x.npy", "--labels", folder + "/c.jsonl", "--components", "0.3,0.5,0.7"]
        let whole = CLI.run(["pairs"] + input + ["--out", folder + "/whole.json"])
        #expect(whole.status == 0, "\(whole.stderr)")
        let work = folder + "/work"
        let made = CLI.run(["slurm", "pairs"] + input + ["--shards", "4", "--cpus", "1", "--work", work])
        #expect(made.status == 0, "\(made.stderr)")

        // Cancel task 2 once it runs.
        let first = try LocalSlurm.submit(work)
        let deadline = Date().addingTimeInterval(120)
        while try LocalSlurm.states("\(first.array)_2") != ["RUNNING"] && Date() < deadline { Thread.sleep(forTimeInterval: 0.1) }
        try LocalSlurm.shell("scancel \(first.array)_2")
        let ended = try LocalSlurm.wait(first.array)
        #expect(ended.filter { $0 == "CANCELLED" }.count == 1 && ended.filter { $0 == "COMPLETED" }.count == 3, "\(ended)")
        let partsFolder = work + "/parts"
        let left = try FileManager.default.contentsOfDirectory(atPath: partsFolder).filter { !$0.hasPrefix(".") }.sorted()
        #expect(left == ["shard-0-of-4.json", "shard-1-of-4.json", "shard-3-of-4.json"])
        let refused = CLI.run(["merge"] + left.map { "\(partsFolder)/\($0)" } + ["--out", work + "/pairs.json"])
        #expect(refused.status == 1 && refused.stderr.contains("incomplete: shard 2 of 0..<4 missing (3 of 4 given)"), "\(refused.stderr)")
        #expect(!FileManager.default.fileExists(atPath: work + "/pairs.json"))
        #expect(try LocalSlurm.states(first.finish) == ["PENDING"])

        // Re-running task 2 alone completes the set; the stale finish job is replaced.
        let second = try LocalSlurm.submit(work, tasks: "2")
        #expect(try LocalSlurm.wait(second.array) == ["COMPLETED"])
        #expect(try LocalSlurm.wait(second.finish) == ["COMPLETED"])
        #expect(try LocalSlurm.states(first.finish) == ["CANCELLED"])
        let merged = try withoutRunFields(work + "/pairs.json")
        let unsharded = try withoutRunFields(folder + "/whole.json")
        #expect(merged["statistics"] == unsharded["statistics"] && merged["components"] == unsharded["components"])
        #expect((unsharded["components"] as? [[String: Any]])?.map { $0["groups"] as? Int } == [40, 40, 801])

        // A requeued task writes its part again: the same bytes, counted once.
        let part1 = partsFolder + "/shard-1-of-4.json"
        let before = FileManager.default.contents(atPath: part1)
        let written = try FileManager.default.attributesOfItem(atPath: part1)[.modificationDate] as? Date
        // Slurm holds a requeued job for two minutes (BeginTime); release it at once.
        try LocalSlurm.shell("scontrol requeue \(first.array)_1 && scontrol update jobid=\(first.array)_1 StartTime=now")
        _ = try LocalSlurm.wait("\(first.array)_1")
        #expect(try FileManager.default.attributesOfItem(atPath: part1)[.modificationDate] as? Date != written)
        #expect(FileManager.default.contents(atPath: part1) == before)
        try FileManager.default.copyItem(atPath: part1, toPath: folder + "/again.json")
        let parts = (0..<4).map { "\(partsFolder)/shard-\($0)-of-4.json" }
        let again = CLI.run(["merge", "--json", "--components", "0.3,0.5,0.7", folder + "/again.json"] + parts)
        #expect(again.status == 0 && again.stderr.contains("1 part(s) repeat a shard with the same figures"), "\(again.stderr)")
        let againJSON = try #require(try JSONSerialization.jsonObject(with: Data(again.stdout.utf8)) as? [String: NSObject])
        #expect(againJSON["statistics"] == unsharded["statistics"])
        var changed = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: part1))) as? [String: Any])
        var related = try #require(changed["related"] as? [String: Any])
        related["max"] = (related["max"] as? Double ?? 0) - 0.001
        changed["related"] = related
        try AtomicFile.write(try JSONSerialization.data(withJSONObject: changed), to: folder + "/changed.json")
        let differ = CLI.run(["merge", folder + "/changed.json"] + parts)
        #expect(
            differ.status == 1 && differ.stderr.contains("are both shard 1/4 but hold different results"), "\(differ.stderr)")
    }

    /// A 16-way split at a small N (tiles of 64: 528 tiles, 33 per task) runs the bridge-forest job, then the array
    /// seeded with it, then the merge, which gives the unsharded bytes of the statistics and components.
    @Test func sixteenWaySplitOnTheClusterMergesToTheUnshardedResult() throws {
        let folder = temporaryFolder()
        let synth = CLI.run([
            "synth", "--out-corpus", folder + "/c.jsonl", "--out-embeddings", folder + "/x.npy", "--dims", "16",
            "--topics", Array(repeating: "100", count: 20).joined(separator: ","), "--seed", "5",
        ])
        #expect(synth.status == 0, "\(synth.stderr)")
        let input = ["--embeddings", folder + "/x.npy", "--labels", folder + "/c.jsonl", "--components", "0.3,0.6", "--tile", "64"]
        #expect(CLI.run(["pairs"] + input + ["--out", folder + "/whole.json"]).status == 0)
        let work = folder + "/work"
        let made = CLI.run(["slurm", "pairs"] + input + ["--shards", "16", "--cpus", "1", "--work", work])
        #expect(
            made.status == 0 && made.stderr.contains("wrote \(work)/{prepare.sbatch,array.sbatch,finish.sbatch,submit}"), "\(made.stderr)")
        let jobs = try LocalSlurm.submit(work)
        #expect(try LocalSlurm.wait(jobs.array).allSatisfy { $0 == "COMPLETED" })
        #expect(try LocalSlurm.wait(jobs.finish) == ["COMPLETED"])
        #expect(FileManager.default.fileExists(atPath: work + "/bridge.json"))
        let merged = try withoutRunFields(work + "/pairs.json")
        let unsharded = try withoutRunFields(folder + "/whole.json")
        #expect(merged["statistics"] == unsharded["statistics"] && merged["components"] == unsharded["components"])
    }

    /// The CI-gate grid as an array (one task per corpus) and a gather gives the files a local ablate writes.
    @Test func experimentGridOnTheClusterWritesTheLocalResults() throws {
        let folder = temporaryFolder()
        let plan = ReproducibilityTests.root + "/Experiments/ci-gate.json"
        #expect(CLI.run(["ablate", plan, "--out", folder + "/local"]).status == 0)
        let work = folder + "/work"
        let made = CLI.run(["slurm", "ablate", plan, "--work", work, "--out", folder + "/cluster", "--cpus", "1"])
        #expect(made.status == 0 && made.stderr.contains("3 task(s)"), "\(made.stderr)")
        let jobs = try LocalSlurm.submit(work)
        #expect(try LocalSlurm.wait(jobs.array) == ["COMPLETED", "COMPLETED", "COMPLETED"])
        #expect(try LocalSlurm.wait(jobs.finish) == ["COMPLETED"])
        try expectSameResults(folder + "/local/ci-gate", folder + "/cluster/ci-gate")
    }
}
