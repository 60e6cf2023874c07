import Foundation
import ThemeLabCore
import ThemeLabCorpus
import ThemeLabEncoder
import ThemeLabMeasures
import ThemeLabMethods
import ThemeLabPairs
import ThemeLabReport
import ThemeLabStudy

struct SlurmCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        name: "slurm", abstract: "Write (and submit) Slurm batch scripts: the sharded pass, an experiment grid.",
        discussion: """
            Writes WORK/array.sbatch (a job array, one task per shard, each writing WORK/parts/shard-I-of-N.json; for
            pairs in several shards WORK/prepare.sbatch first, the bridge forest WORK/bridge.json they start from),
            WORK/finish.sbatch (`themelab merge` into WORK/pairs.json, or `themelab gather` into the results folder) and
            WORK/submit, which submits the array and the finish job (held until every task succeeds). After a failed or
            cancelled task, `WORK/submit I` runs task I again and the finish job; the finish job refuses an incomplete set
            of parts, naming the missing shards. Memory and time requests come from the cost model and are explained in
            each script. Jobs start in the current folder.
            """,
        subcommands: [SlurmPairsCommand.self, SlurmAblateCommand.self])
}

/// Where the scripts go and what every job asks of the cluster, for both Slurm commands.
struct SlurmOptions {
    var work = ""
    var partition: String?
    var account: String?
    var cpus = 2
    var memoryMiB: Int?
    var minutes: Int?
    var costModel: String?
    var submit = false

    static func arguments<C>(_ at: WritableKeyPath<C, SlurmOptions>) -> [Argument<C>] {
        [
            .option(
                "--work", at.appending(path: \.work), .path, value: "<WORK>", required: true,
                help: "Folder for the scripts, parts/ and logs/."),
            .option("--partition", at.appending(path: \.partition), .text, value: "<P>", help: "Passed to every job."),
            .option("--account", at.appending(path: \.account), .text, value: "<A>", help: "Passed to every job."),
            .option("--cpus", at.appending(path: \.cpus), .count(1...256), value: "<C>", help: "CPUs per task."),
            .option(
                "--mem", at.appending(path: \.memoryMiB), .count(64...16_777_216), value: "<MiB>", unset: "the cost model's",
                help: "Memory per task."),
            .option(
                "--time", at.appending(path: \.minutes), .count(1...525_600), value: "<MINUTES>", unset: "the cost model's",
                help: "Time per task."),
            .option(
                "--cost-model", at.appending(path: \.costModel), .path, value: "<FILE>",
                unset: "the harness's own fit, kernel Zen, 2 cores",
                help: "Fit the cost model to these `themelab bench pairs` lines (JSONL)."),
            .flag("--submit", at.appending(path: \.submit), help: "Run WORK/submit (needs sbatch on PATH and a reachable controller)."),
        ]
    }

    /// The cost model the requests come from.
    func model() throws -> CostModel { try costModel.map(fittedCostModel) ?? CostModel.reference }

    /// Writes the scripts, then submits them with --submit, else says how to.
    func write(_ batch: SlurmBatch, _ io: Invocation) throws {
        try batch.write()
        func describe(_ r: SlurmResources) -> String { "\(r.cpus) CPU\(r.cpus == 1 ? "" : "s"), \(r.memoryMiB) MiB, \(r.timeLimit)" }
        let scripts = (batch.prepare == nil ? "" : "prepare.sbatch,") + "array.sbatch,finish.sbatch,submit"
        io.note("wrote \(batch.folder)/{\(scripts)}: \(batch.tasks) task(s) of \(describe(batch.task)); finish \(describe(batch.finish))")
        guard submit else {
            io.note("submit with: \(SlurmBatch.shellQuote(batch.folder + "/submit"))")
            return
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: batch.folder + "/submit")
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw ThemeLabError.input("\(batch.folder)/submit failed (exit \(process.terminationStatus))")
        }
    }
}

struct SlurmPairsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        name: "pairs", abstract: "The pairwise pass as a job array of shards, merged by a finish job into WORK/pairs.json.")

    var pass = PassOptions()
    var shards = 1
    var slurm = SlurmOptions()

    static var arguments: [Argument<Self>] {
        PassOptions.arguments(\.pass) + [
            .option("--shards", \.shards, .count(1...4096), value: "<n>", required: true, help: "Runs the pass's tiles are split in.")
        ] + SlurmOptions.arguments(\.slurm)
    }

    func run(_ io: Invocation) throws {
        let (exe, folder, model) = (io.executable, absolute(slurm.work), try slurm.model())
        let embeddings = absolute(pass.embeddings)
        let x = try NPYFile(path: embeddings)
        guard x.rows >= 2 else { throw ThemeLabError.input("\(embeddings): \(x.rows) row(s), need at least 2 for a pair") }
        var inputs = [exe, "pairs", "--embeddings", embeddings]
        if let labels = pass.labels { inputs += ["--labels", absolute(labels)] }
        inputs += ["--bins", "\(pass.bins)", "--tile", "\(pass.tile)"]
        // More than one shard: the bridge forest first, once (`BridgeForest`), that every task starts from.
        let bridge = folder + "/bridge.json"
        let task =
            inputs + (shards > 1 ? ["--bridge", bridge] : []) + [
                "--shard", "\(SlurmBatch.taskIndex)/\(shards)", "--out", SlurmBatch.partPath,
            ]
        let prepare =
            try shards > 1
            ? (
                inputs + ["--bridge-out", bridge], bridge,
                SlurmResources.pairsBridge(items: x.rows, dimensions: x.cols, cpus: slurm.cpus, model: model)
            )
            : nil
        let out = folder + "/pairs.json"
        try CommandPaths(reads: [embeddings] + [pass.labels].compactMap { $0 }, writes: [(folder, .folder), (out, .file)]).check()
        let components = pass.components.map { ["--components", $0.map(formatArgument).joined(separator: ",")] } ?? []
        let batch = SlurmBatch(
            name: "themelab-pairs", folder: folder, workingDirectory: FileManager.default.currentDirectoryPath,
            partition: slurm.partition, account: slurm.account, tasks: shards,
            task: try .pairsShard(
                items: x.rows, dimensions: x.cols, shards: shards, cpus: slurm.cpus, model: model, memoryMiB: slurm.memoryMiB,
                minutes: slurm.minutes),
            finish: try .pairsMerge(items: x.rows, shards: shards, bins: pass.bins),
            taskCommand: task, finishCommand: ([exe, "merge"], components + ["--out", out]), prepare: prepare)
        try slurm.write(batch, io)
    }
}

struct SlurmAblateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        name: "ablate", abstract: "An experiment grid as a job array, one task per corpus, gathered into OUT/NAME/.",
        discussion: """
            One task per corpus by default (--shards n: the corpora k with k mod n = i); the finish job writes OUT/NAME/ as
            a local `themelab ablate` does.
            """)

    var experiment = ""
    var shards: Int?
    var out: String?
    var dataDirectory: String?
    var replicates: Int?
    var slurm = SlurmOptions()

    static var arguments: [Argument<Self>] {
        [
            .argument("<experiment>", \.experiment, help: "The experiment file (Experiments/NAME.json)."),
            .option(
                "--shards", \.shards, .count(1...4096), value: "<n>", unset: "one per corpus",
                help: "Tasks, at most the number of corpora."),
            .resultsRoot(\.out, help: "The output root the finish job writes OUT/NAME/ in."),
            .dataDirectory(\.dataDirectory),
            .option(
                ExperimentPlan.Keys.replicates, \.replicates, value: "<R>", help: "Replicates of every corpus, in place of the file's."),
        ] + SlurmOptions.arguments(\.slurm)
    }

    func run(_ io: Invocation) throws {
        let (exe, folder, model) = (io.executable, absolute(slurm.work), try slurm.model())
        let plan = try ExperimentPlan.read(path: experiment, replicates: replicates)
        let results = absolute(out ?? OldSpelling.defaultResults)
        try CommandPaths(
            reads: try plan.inputFiles(dataDirectory: dataDirectory),
            writes: [(folder, .folder), (results + "/" + plan.name, .replacedFolder)]
        ).check()
        let shards = self.shards ?? plan.corpora.count
        guard shards <= plan.corpora.count else {
            throw ThemeLabError.usage("--shards must be a whole number from 1 to \(plan.corpora.count), got \(shards)")
        }
        var command = [exe, "ablate", experiment, "--shard", "\(SlurmBatch.taskIndex)/\(shards)", "--out", SlurmBatch.partPath]
        if let dataDirectory { command += ["--data-dir", absolute(dataDirectory)] }
        if let replicates { command += ["--replicates", "\(replicates)"] }
        let batch = SlurmBatch(
            name: "themelab-\(plan.name)", folder: folder, workingDirectory: FileManager.default.currentDirectoryPath,
            partition: slurm.partition, account: slurm.account, tasks: shards,
            task: try .gridArray(
                plan, shards: shards, dataDirectory: dataDirectory, cpus: slurm.cpus, model: model, memoryMiB: slurm.memoryMiB,
                minutes: slurm.minutes),
            finish: try .gridGather(shards: shards), taskCommand: command,
            finishCommand: ([exe, "gather", experiment], ["--out", results]))
        try slurm.write(batch, io)
    }
}

/// `path` made absolute against the current folder (batch jobs may start elsewhere).
func absolute(_ path: String) -> String {
    URL(fileURLWithPath: path, relativeTo: URL(fileURLWithPath: FileManager.default.currentDirectoryPath + "/")).standardizedFileURL.path
}

/// A cost model fitted to the `themelab bench pairs` lines of `path`.
func fittedCostModel(_ path: String) throws -> CostModel {
    do { return try CostModel(fitting: try CostModel.Point.read(path: path)) } catch ThemeLabError.input(let m) where !m.hasPrefix(path) {
        throw ThemeLabError.input("\(path): \(m)")
    }
}
