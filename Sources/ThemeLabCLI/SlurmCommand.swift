import Foundation
import ThemeLabCore
import ThemeLabCorpus
import ThemeLabEncoder
import ThemeLabMeasures
import ThemeLabMethods
import ThemeLabPairs
import ThemeLabReport
import ThemeLabStudy

let slurmCommand = Command(
    summary: "write (and submit) Slurm batch scripts: the sharded pass, an experiment grid",
    help: """
        usage: themelab slurm pairs --embeddings X.npy [--labels C.jsonl] --shards n --work DIR [--components T,…]
                                    [--bins N] [--tile N] [slurm options]
               themelab slurm ablate Experiments/NAME.json --work DIR [--shards n] [--out DIR] [--data-dir DIR]
                                    [--replicates R] [slurm options]

        Writes DIR/array.sbatch (a job array, one task per shard, each writing DIR/parts/shard-I-of-N.json;
        for pairs in several shards DIR/prepare.sbatch first, the bridge forest DIR/bridge.json they start from),
        DIR/finish.sbatch (`themelab merge` into DIR/pairs.json, or `themelab gather` into the results
        folder) and DIR/submit, which submits the array and the finish job (held until every task succeeds).
        After a failed or cancelled task, `DIR/submit I` re-runs task I and the finish job; the finish job
        refuses an incomplete set of parts, naming the missing shards. Memory and time requests come from
        the cost model and are explained in each script. Jobs start in the current folder.
          pairs:  --shards n (1 to 4096) splits the pass's tiles in n runs; other options as `themelab pairs`
          ablate: one task per corpus by default (--shards n: corpora k mod n), options as `themelab ablate`;
                  the finish job writes OUT/NAME/ of --out OUT (default results) as a local ablate does
                  (--results OUT, the old spelling of --out, is deprecated)
        slurm options:
          --work DIR          folder for the scripts, parts/ and logs/ (required)
          --partition P       --account A    passed to every job
          --cpus C            CPUs per task (default 2; 1 to 256)
          --mem MiB           --time MINUTES  replace the cost model's per-task request
          --cost-model FILE   fit the cost model to these `themelab bench pairs` lines (JSONL; default: the
                              harness's own fit, kernel Zen, 2 cores)
          --submit            run DIR/submit (needs sbatch on PATH and a reachable controller)
        """,
    options: [
        "embeddings", "labels", "shards", "work", "components", "bins", "tile", "out", "data-dir", "replicates", "partition", "account",
        "cpus", "mem", "time", "cost-model",
    ],
    switches: ["submit"],
    renamed: ["results": "out"],
    positionals: 1...2,
    subcommands: ["pairs", "ablate"]
) { args, io in
    let kind = args.positional[0]
    let folder = absolute(try args.required("work"))
    let cpus = try args.int("cpus", default: 2, range: 1...256)
    let mem = try args["mem"].map { _ in try args.int("mem", default: 0, range: 64...16_777_216) }
    let minutes = try args["time"].map { _ in try args.int("time", default: 0, range: 1...525_600) }
    let model = try args["cost-model"].map(fittedCostModel) ?? CostModel.reference
    let exe = io.executable
    let cwd = FileManager.default.currentDirectoryPath
    var batch: SlurmBatch
    switch kind {
    case "pairs":
        guard args.positional.count == 1 else { throw ThemeLabError.usage("slurm pairs takes no other argument") }
        for option in ["out", "data-dir", "replicates"] where args[option] != nil {
            throw ThemeLabError.usage("--\(option) is for slurm ablate")
        }
        let embeddings = absolute(try args.required("embeddings"))
        let shards = try args.int("shards", default: 0, range: 1...4096)
        guard args["shards"] != nil else { throw ThemeLabError.usage("missing --shards") }
        let bins = try args.int("bins", default: 65_536, range: 2...(1 << 24))
        let tile = try args.int("tile", default: 2048, range: 1...65_536)
        let thresholds = try componentThresholds(args)
        let x = try NPYFile(path: embeddings)
        guard x.rows >= 2 else { throw ThemeLabError.input("\(embeddings): \(x.rows) row(s), need at least 2 for a pair") }
        var inputs = [exe, "pairs", "--embeddings", embeddings]
        if let labels = args["labels"] { inputs += ["--labels", absolute(labels)] }
        inputs += ["--bins", "\(bins)", "--tile", "\(tile)"]
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
                SlurmResources.pairsBridge(items: x.rows, dimensions: x.cols, cpus: cpus, model: model)
            )
            : nil
        let out = folder + "/pairs.json"
        try CommandPaths(
            reads: [embeddings] + [args["labels"]].compactMap { $0 }, writes: [(folder, .folder), (out, .file)]
        ).check()
        batch = SlurmBatch(
            name: "themelab-pairs", folder: folder, workingDirectory: cwd, partition: args["partition"],
            account: args["account"], tasks: shards,
            task: try .pairsShard(
                items: x.rows, dimensions: x.cols, shards: shards, cpus: cpus, model: model, memoryMiB: mem, minutes: minutes),
            finish: try .pairsMerge(items: x.rows, shards: shards, bins: bins),
            taskCommand: task,
            finishCommand: ([exe, "merge"], (thresholds.isEmpty ? [] : ["--components", args["components"]!]) + ["--out", out]),
            prepare: prepare)
    case "ablate":
        guard args.positional.count == 2 else { throw ThemeLabError.usage("slurm ablate takes the experiment file") }
        for option in ["embeddings", "labels", "components", "bins", "tile"] where args[option] != nil {
            throw ThemeLabError.usage("--\(option) is for slurm pairs")
        }
        let planPath = args.positional[1]
        let replicates = try args["replicates"].map { _ in try args.int("replicates", default: 0, range: ReplicateCorpus.count) }
        let plan = try ExperimentPlan.read(path: planPath, replicates: replicates)
        let results = absolute(args["out"] ?? "results")
        try CommandPaths(
            reads: try plan.inputFiles(dataDirectory: args["data-dir"]),
            writes: [(folder, .folder), (results + "/" + plan.name, .replacedFolder)]
        ).check()
        let shards = try args.int("shards", default: plan.corpora.count, range: 1...plan.corpora.count)
        var command = [exe, "ablate", planPath, "--shard", "\(SlurmBatch.taskIndex)/\(shards)", "--out", SlurmBatch.partPath]
        for option in ["data-dir", "replicates"] {
            if let v = args[option] { command += ["--\(option)", option == "data-dir" ? absolute(v) : v] }
        }
        batch = SlurmBatch(
            name: "themelab-\(plan.name)", folder: folder, workingDirectory: cwd, partition: args["partition"],
            account: args["account"], tasks: shards,
            task: try .gridArray(
                plan, shards: shards, dataDirectory: args["data-dir"], cpus: cpus, model: model, memoryMiB: mem, minutes: minutes),
            finish: try .gridGather(shards: shards), taskCommand: command, finishCommand: ([exe, "gather", planPath], ["--out", results]))
    default:
        throw ThemeLabError.usage("slurm takes 'pairs' or 'ablate', got '\(kind)'")
    }
    try batch.write()
    func describe(_ r: SlurmResources) -> String { "\(r.cpus) CPU\(r.cpus == 1 ? "" : "s"), \(r.memoryMiB) MiB, \(r.timeLimit)" }
    let scripts = (batch.prepare == nil ? "" : "prepare.sbatch,") + "array.sbatch,finish.sbatch,submit"
    io.note("wrote \(folder)/{\(scripts)}: \(batch.tasks) task(s) of \(describe(batch.task)); finish \(describe(batch.finish))")
    guard args.flag("submit") else {
        io.note("submit with: \(SlurmBatch.shellQuote(folder + "/submit"))")
        return
    }
    let submit = Process()
    submit.executableURL = URL(fileURLWithPath: folder + "/submit")
    try submit.run()
    submit.waitUntilExit()
    guard submit.terminationStatus == 0 else { throw ThemeLabError.input("\(folder)/submit failed (exit \(submit.terminationStatus))") }
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
