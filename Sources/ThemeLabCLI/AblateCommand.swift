import Foundation
import ThemeLabCore
import ThemeLabCorpus
import ThemeLabEncoder
import ThemeLabMeasures
import ThemeLabMethods
import ThemeLabPairs
import ThemeLabReport
import ThemeLabRun
import ThemeLabStudy

let ablateCommand = Command(
    summary: "run an experiment file's grid and write results/NAME/",
    help: """
        usage: themelab ablate Experiments/NAME.json [--out DIR] [--data-dir DIR] [--replicates R] [--vectors DIR] [--html]
                                                    [--cache DIR]
               themelab ablate Experiments/NAME.json --shard i/n --out PART.json [--data-dir DIR] [--replicates R]

        Runs every corpus × encoder/layer × space × threshold × grouping the experiment file
        names and writes DIR/NAME/NAME.json (full provenance), NAME.csv (tidy, one row per
        corpus × source × space × rule × grouping), NAME.md and plots/*.svg. Progress on stderr.
          --out DIR        output root (default results; --results DIR, its old spelling, is deprecated);
                           with --shard, the part file
          --data-dir DIR   folder holding real corpora such as clinc150/ (default $THEMELAB_DATA)
          --replicates R   R replicates of every corpus (2 to 1000), overriding the file's "replicates":
                           every figure gets a 95% interval and rules are compared pairwise
          --vectors DIR    also write the vectors each space's figures are computed on (unit rows,
                           corpus order) and the labels: DIR/CORPUS--SOURCE--SPACE.{npy,json}, for
                           tools of your own (Experiments/bench/peer-clustering reads them)
          \(Arguments.cacheHelp(indent: 19))
          --html           also write DIR/NAME/NAME.html, the threshold explorer (as "html": true in
                           the file; docs/explorer.md)
          --shard i/n      only the corpora k with k mod n = i (n ≤ the number of corpora), written
                           to --out PART.json for `themelab gather`, which writes DIR/NAME/ as above
                           (`themelab slurm ablate` runs the shards as a Slurm job array)

        Experiment file: {"name": …, "corpora": [{"name": "seed-12"}, {"name": "clinc150",
        "intents": 20, "perIntent": 30, "seed": 1}, {"name": "file", "path": "x.jsonl"}],
        "encoders": [{"model": "default", "layers": [6]}], "spaces": […], "thresholds": […],
        "groupings": […], "shuffles": 10, "seed": 0, "replicates": 10,
        "resample": {"scheme": "stratified-subsample", "fraction": 0.8}}
        A sampled corpus (a CLINC150 or WordNet subsample, the generator) is re-drawn per
        replicate with seed + r; a fixed one (the seeds, a whole split, a file) needs "resample"
        (here or on the corpus): each replicate keeps that fraction of every topic.
        """,
    options: ["out", "data-dir", "replicates", "shard", "vectors", "cache"],
    switches: ["html"],
    renamed: ["results": "out"],
    positionals: 1...1
) { args, io in
    var plan = try args.experimentPlan(path: args.positional[0])
    if args.flag("html") { plan.settings.html = true }
    let started = Date()
    let progress = io.progress("embed")
    var environment = RunEnvironment(
        dataDirectory: args["data-dir"], cacheFolder: try args.cacheFolder(), command: io.commandLine, log: io.note,
        progress: progress.update)
    if let shardText = args["shard"] {
        guard args.oldSpellings.isEmpty else { throw ThemeLabError.usage("--shard writes a part file to --out, not a results folder") }
        guard args["vectors"] == nil else { throw ThemeLabError.usage("--vectors writes a whole run's vectors; give it without --shard") }
        let shard = try PairShard(text: shardText)
        let out = try args.required("out")
        try CommandPaths(reads: try plan.inputFiles(dataDirectory: args["data-dir"]), writes: [(out, .file)]).check()
        let part = try GridPart.run(plan, planPath: args.positional[0], shard: shard, in: environment)
        progress.finish()
        try AtomicFile.write(try JSONOutput.encode(part), to: out)
        io.note(
            "wrote shard \(shard.index)/\(shard.count) of \(plan.name) (corpora "
                + "\(part.corpora.map(String.init).joined(separator: ", "))) to \(out) \(io.cost(since: started))"
        )
        return
    }
    let root = try ResultsRoot(path: args["out"] ?? "results")
    let inputs = try plan.inputFiles(dataDirectory: args["data-dir"])
    try root.prepare(plan.name, reading: inputs)
    if let folder = args["vectors"] {
        try CommandPaths(reads: inputs, writes: [(folder, .folder), ("\(root.path)/\(plan.name)", .replacedFolder)]).check()
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder), !isFolder.boolValue {
            throw ThemeLabError.usage("--vectors \(folder) is a file; give a folder (it is created when missing)")
        }
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        environment.vectorsFolder = folder
    }
    let (named, vectors) = (root.files(of: plan.name, settings: plan.settings), args["vectors"])
    environment.outputFiles = { corpus, source, spaces in
        named(corpus, source, spaces)
            + (vectors.map { folder in spaces.flatMap { SpaceVectors.files(in: folder, corpus: corpus, source: source, space: $0) } } ?? [])
    }
    let results = try plan.run(in: environment)
    progress.finish()
    try root.write(results, as: plan.name)
    io.note("wrote \(root.path)/\(plan.name)/\(plan.name).{json,csv,md} (\(results.analyses.count) analyses)")
}

let gatherCommand = Command(
    summary: "write results/NAME/ from the parts of `ablate --shard`",
    help: """
        usage: themelab gather Experiments/NAME.json PART.json … [--out DIR]

        Gathers the parts written by `themelab ablate NAME.json --shard i/n` (one per shard) and
        writes DIR/NAME/ exactly as a local `themelab ablate` writes it: the same files, byte for
        byte, but for provenance's createdAt and command. Refused, naming the part: a missing shard,
        parts of an edited experiment file or of other settings, parts computed on another BLAS
        kernel or themelab version, an input that changed between tasks, and a shard given twice
        with different figures (twice with the same figures counts once).
          --out DIR        output root (default results; --results DIR, its old spelling, is deprecated);
                           DIR/NAME/ is replaced whole
        """,
    options: ["out"],
    renamed: ["results": "out"],
    positionals: 2...Int.max
) { args, io in
    let planPath = args.positional[0]
    let plan = try ExperimentPlan.read(path: planPath)
    let names = Array(args.positional.dropFirst())
    let root = try ResultsRoot(path: args["out"] ?? "results")
    try root.prepare(plan.name, reading: names + [planPath])
    let parts = try names.map(GridPart.read(path:))
    let results = try GridPart.gather(
        parts, names: names, plan: plan, planChecksum: try SHA256.hex(file: planPath), command: io.commandLine, createdAt: Date())
    try root.write(results, as: plan.name)
    io.note("wrote \(root.path)/\(plan.name)/\(plan.name).{json,csv,md} (\(results.analyses.count) analyses from \(parts.count) parts)")
}

extension Arguments {
    /// The experiment file at `path`, with --replicates R overriding its "replicates".
    func experimentPlan(path: String) throws -> ExperimentPlan {
        var plan = try ExperimentPlan.read(path: path)
        if values["replicates"] != nil { plan.settings.replicates = try int("replicates", default: 0, range: ReplicateCorpus.count) }
        return plan
    }
}
