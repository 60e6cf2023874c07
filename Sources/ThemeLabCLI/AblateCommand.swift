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

struct AblateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        name: "ablate", abstract: "Run an experiment file's grid and write results/NAME/.",
        discussion: """
            Runs every corpus × encoder and layer × space × threshold × grouping the experiment file names and writes
            OUT/NAME/NAME.json (full provenance), NAME.csv (tidy, one row per corpus × source × space × rule × grouping),
            NAME.md and plots/*.svg. Progress goes to stderr. With --shard i/n it runs only the corpora k with
            k mod n = i and writes them to --out PART.json, for `themelab gather`, which writes OUT/NAME/ as above
            (`themelab slurm ablate` runs the shards as a Slurm job array).

            Experiment file: {"name": …, "corpora": [{"name": "seed-12"}, {"name": "clinc150", "intents": 20,
            "perIntent": 30, "seed": 1}, {"name": "file", "path": "x.jsonl"}], "encoders": [{"model": "default",
            "layers": [6]}], "spaces": […], "thresholds": […], "groupings": […], "shuffles": 10, "seed": 0,
            "replicates": 10, "resample": {"scheme": "stratified-subsample", "fraction": 0.8}}
            A sampled corpus (a CLINC150 or WordNet subsample, the generator) is drawn again for each replicate with
            seed + r; a fixed one (the seeds, a whole split, a file) needs "resample" (here or on the corpus): each
            replicate keeps that fraction of every topic. docs/commands.md lists every field's values.
            A size experiment ("kind": "size", as Experiments/size.json) writes OUT/NAME/ too; its pages name the suggested
            default when OUT holds its study's and tuning's results.
            """)

    var experiment = ""
    var out: String?
    var dataDirectory: String?
    var replicates: Int?
    var shard: PairShard?
    var vectors: String?
    var html: Bool?
    var cache = CacheOption()

    static var arguments: [Argument<Self>] {
        [
            .argument("<experiment>", \.experiment, help: "The experiment file (Experiments/NAME.json)."),
            .resultsRoot(\.out, help: "The output root; with --shard, the part file."),
            .dataDirectory(\.dataDirectory),
            .option(
                ExperimentPlan.Keys.replicates, \.replicates, value: "<R>",
                help: "Replicates of every corpus, in place of the file's 'replicates': every figure gets a 95% interval and "
                    + "rules are compared pairwise."),
            .option(
                "--vectors", \.vectors, .path, value: "<DIR>",
                help: "Also write the vectors each space's figures are computed on (unit rows, corpus order) and the labels: "
                    + "DIR/CORPUS--SOURCE--SPACE.{npy,json}, for tools of your own."),
            .flag(
                ExperimentPlan.Keys.html, \.html,
                help: "Also write DIR/NAME/NAME.html, the threshold explorer (as \"html\": true in the file; docs/explorer.md)."),
            .option(
                "--shard", \.shard, .form("i/n"), value: "<i/n>", read: { try PairShard(text: $0 as? String ?? "") },
                help: "Only the corpora k with k mod n = i (n at most the number of corpora), written to --out PART.json."),
        ] + CacheOption.arguments(\.cache)
    }

    func run(_ io: Invocation) throws {
        if SizePlan.isSize(path: experiment) { return try runSize(io) }
        var plan = try ExperimentPlan.read(path: experiment, replicates: replicates)
        if html == true { plan.settings.html = true }
        let progress = io.progress("embed")
        var environment = RunEnvironment(
            dataDirectory: dataDirectory, cacheFolder: cache.resolved, command: io.commandLine, log: io.note,
            progress: progress.update)
        if let shard { return try runShard(plan, shard, environment, progress, io) }
        let root = try ResultsRoot(path: out ?? OldSpelling.defaultResults)
        let inputs = try plan.inputFiles(dataDirectory: dataDirectory)
        try root.prepare(plan.name, reading: inputs)
        if let folder = vectors {
            try CommandPaths(reads: inputs, writes: [(folder, .folder), ("\(root.path)/\(plan.name)", .replacedFolder)]).check()
            var isFolder: ObjCBool = false
            if FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder), !isFolder.boolValue {
                throw ThemeLabError.usage("--vectors \(folder) is a file; give a folder (it is created when missing)")
            }
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            environment.vectorsFolder = folder
        }
        let (named, vectors) = (root.files(of: plan.name, settings: plan.settings), vectors)
        environment.outputFiles = { corpus, source, spaces in
            named(corpus, source, spaces)
                + (vectors.map { folder in spaces.flatMap { SpaceVectors.files(in: folder, corpus: corpus, source: source, space: $0) } }
                    ?? [])
        }
        let results = try plan.run(in: environment)
        progress.finish()
        try root.write(results, as: plan.name)
        io.note("wrote \(root.path)/\(plan.name)/\(plan.name).{json,csv,md} (\(results.analyses.count) analyses)")
    }

    /// `--shard i/n`: the shard's corpora, written to the part file --out names.
    func runShard(
        _ plan: ExperimentPlan, _ shard: PairShard, _ environment: RunEnvironment, _ progress: ProgressLine, _ io: Invocation
    )
        throws
    {
        let started = Date()
        guard !io.gave(OldSpelling.outputFolder.name) else {
            throw ThemeLabError.usage("--shard writes a part file to --out, not a results folder")
        }
        guard vectors == nil else { throw ThemeLabError.usage("--vectors writes a whole run's vectors; give it without --shard") }
        guard let out else { throw ThemeLabError.usage("missing --out") }
        try CommandPaths(reads: try plan.inputFiles(dataDirectory: dataDirectory), writes: [(out, .file)]).check()
        let part = try GridPart.run(plan, planPath: experiment, shard: shard, in: environment)
        progress.finish()
        try AtomicFile.write(try JSONOutput.encode(part), to: out)
        io.note(
            "wrote shard \(shard.index)/\(shard.count) of \(plan.name) (corpora "
                + "\(part.corpora.map(String.init).joined(separator: ", "))) to \(out) \(io.cost(since: started))")
    }
}

struct GatherCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        name: "gather", abstract: "Write results/NAME/ from the parts of `ablate --shard`.",
        discussion: """
            Gathers the parts written by `themelab ablate NAME.json --shard i/n` (one per shard) and writes OUT/NAME/
            exactly as a local `themelab ablate` writes it: the same files, byte for byte, but for provenance's createdAt
            and command. Refused, naming the part: a missing shard, parts of an edited experiment file or of other
            settings, parts computed on another BLAS kernel or themelab version, an input that changed between tasks,
            and a shard given twice with different figures (twice with the same figures counts once).
            """)

    var experiment = ""
    var parts: [String] = []
    var out: String?

    static var arguments: [Argument<Self>] {
        [
            .argument("<experiment>", \.experiment, help: "The experiment file the parts were run from."),
            .arguments("<part>", \.parts, count: 1...Int.max, help: "The part files, one per shard."),
            .resultsRoot(\.out, help: "The output root; OUT/NAME/ is replaced whole."),
        ]
    }

    func run(_ io: Invocation) throws {
        let plan = try ExperimentPlan.read(path: experiment)
        let root = try ResultsRoot(path: out ?? OldSpelling.defaultResults)
        try root.prepare(plan.name, reading: parts + [experiment])
        let read = try parts.map(GridPart.read(path:))
        let results = try GridPart.gather(
            read, names: parts, plan: plan, planChecksum: try SHA256.hex(file: experiment), command: io.commandLine, createdAt: Date())
        try root.write(results, as: plan.name)
        io.note("wrote \(root.path)/\(plan.name)/\(plan.name).{json,csv,md} (\(results.analyses.count) analyses from \(read.count) parts)")
    }
}

extension Invocation {
    /// Whether the command line gave option `name` (`--results DIR` or `--results=DIR`).
    func gave(_ name: String) -> Bool { commandLine.contains { $0 == name || $0.hasPrefix(name + "=") } }
}

extension ExperimentPlan {
    /// The experiment file at `path`, with `replicates` (--replicates R, checked as it was parsed) in place of its own.
    static func read(path: String, replicates: Int?) throws -> ExperimentPlan {
        var plan = try ExperimentPlan.read(path: path)
        if let replicates { plan.settings.replicates = replicates }
        return plan
    }
}
