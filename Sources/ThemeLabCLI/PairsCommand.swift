import Foundation
import ThemeLabCore
import ThemeLabCorpus
import ThemeLabEncoder
import ThemeLabMeasures
import ThemeLabMethods
import ThemeLabPairs
import ThemeLabReport
import ThemeLabStudy

/// What the pairwise pass reads and how it runs, for `pairs` and `slurm pairs` (declared once, as swift-argument-parser's
/// `@OptionGroup` is).
struct PassOptions {
    var embeddings = ""
    var labels: String?
    var bins = PairEngine().bins
    var tile = PairEngine().tileSize
    var components: [Double]?

    static func arguments<C>(_ at: WritableKeyPath<C, PassOptions>) -> [Argument<C>] {
        [
            .option(
                "--embeddings", at.appending(path: \.embeddings), .path, value: "<X.npy>", required: true,
                help: "2-D '<f4' or '<f8' array, one row per item."),
            .option(
                "--labels", at.appending(path: \.labels), .path, value: "<C>",
                help: "Corpus (JSONL, CSV or TSV) whose rows match X's rows in order."),
            .option("--bins", at.appending(path: \.bins), .count(2...(1 << 24)), value: "<N>", help: "Histogram bins over [-1, 1]."),
            .option("--tile", at.appending(path: \.tile), .count(1...65_536), value: "<N>", help: "Tile edge in rows."),
            components(at.appending(path: \.components)),
        ]
    }

    /// `--components T,…`: single-linkage groups at each threshold (`pairs`, `merge`, `slurm pairs`).
    static func components<C>(_ keyPath: WritableKeyPath<C, [Double]?>) -> Argument<C> {
        .option(
            "--components", keyPath, .list(.interval(-1...1), distinct: false), value: "<T,…>",
            help: "Also the number of single-linkage groups (connected components of \"cosine ≥ T\") at each threshold, "
                + "from the pass's spanning forest.")
    }

    var engine: PairEngine { PairEngine(bins: bins, tileSize: tile) }
}

struct PairsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        name: "pairs", abstract: "Distribution of all pairwise cosines (all, related, unrelated).",
        discussion: """
            Normalises each row of X to unit length, computes every i<j cosine with tiled BLAS and prints count, min, p1,
            p5, p25, median, p75, p95, p99, max, mean and std for all pairs, and, with labels, for related (same label)
            and unrelated pairs. Quantiles are exact up to 2 000 000 pairs and read off a 65 536-bin histogram beyond
            (error < 3.1e-5). With --shard i/n it computes only the i-th of n equal runs of the tiles and writes the
            partial state (with the shard's spanning forest) to --out PART.json, for `themelab merge`, which gives exactly
            the unsharded result, components included. --bridge-out computes once, before the shards, the spanning forest
            of the tiles on the diagonal and next to it, which every shard's forest needs; --bridge hands it to a shard.
            """)

    var pass = PassOptions()
    var json = false
    var out: String?
    var shard: PairShard?
    var bridge: String?
    var bridgeOut: String?

    static var arguments: [Argument<Self>] {
        PassOptions.arguments(\.pass) + [
            .flag("--json", \.json, help: "Print the JSON result instead of a table."),
            .option(
                "--out", \.out, .path, value: "<FILE>", help: "Also write the JSON result to FILE (atomically); with --shard, the part."),
            .option(
                "--shard", \.shard, .form("i/n"), value: "<i/n>", read: { try PairShard(text: $0 as? String ?? "") },
                help: "Only the i-th of n equal runs of the tiles, written to --out for `themelab merge`."),
            .option(
                "--bridge-out", \.bridgeOut, .path, value: "<FILE>",
                help: "Only the spanning forest of the tiles on the diagonal and next to it, which every shard's forest needs."),
            .option(
                "--bridge", \.bridge, .path, value: "<FILE>",
                help: "A shard starts its forest from this bridge forest (same inputs and kernel) and reads only its rows."),
        ]
    }

    func run(_ io: Invocation) throws {
        let started = Date()
        let reads = [pass.embeddings] + [pass.labels, bridge].compactMap { $0 }
        if let out = out ?? bridgeOut { try CommandPaths(reads: reads, writes: [(out, .file)]).check() }
        // Every checksum written must name the bytes the pass read: no input may change between this and the last read.
        let snapshot = try FileSnapshot(reads)
        let input = try PassInput(pass, io)
        try requireMemory(input)
        let progress = io.progress("pairs")
        if let bridgeOut {
            guard shard == nil, bridge == nil else {
                throw ThemeLabError.usage("--bridge-out computes the bridge forest before the shards; give it without --shard and --bridge")
            }
            let forest = try BridgeForest.compute(
                input.rows, labels: input.labels, engine: pass.engine, inputs: input.files, progress: progress.update)
            progress.finish()
            try snapshot.verify()
            try AtomicFile.write(try JSONOutput.encode(forest), to: bridgeOut)
            io.note("wrote the bridge forest (\(forest.edges.count) edges) to \(bridgeOut) \(io.cost(since: started))")
            return
        }
        if let shard { return try runShard(shard, input, snapshot, progress, io, started: started) }
        guard bridge == nil else { throw ThemeLabError.usage("--bridge seeds a shard's forest; give it with --shard i/n") }
        let unit = try unitRows(try input.file.rows(0..<input.file.rows), itemName: input.itemName)
        let forest = pass.components == nil ? nil : SpanningForest(items: unit.rows)
        let distribution = pass.engine.run(unit, labels: input.labels, consumers: forest.map { [$0] } ?? [], progress: progress.update)
        progress.finish()
        var summary = PairsSummary(
            provenance: .current(command: io.commandLine, inputs: try Provenance.checksums(input.files)),
            items: input.file.rows, dimensions: input.file.cols, bins: pass.bins, distribution: distribution)
        if let forest, let thresholds = pass.components { summary.addComponents(forest, thresholds: thresholds) }
        try snapshot.verify()
        try show(summary, json: json, out: out, io)
    }

    /// The memory every part of the pass holds (a forest over all N items), then what a seeded shard's rows take.
    func requireMemory(_ input: PassInput) throws {
        let (n, d) = (input.file.rows, input.file.cols)
        for rows in [0, shard.flatMap { s in bridge.map { _ in pass.engine.rowsRead(items: n, dimensions: d, shards: s.count)[s.index] } }]
        {
            try MemoryBudget.require(
                bytes: MemoryBudget.pass(items: n, dimensions: d, rows: rows), for: "the pairwise pass over \(n) × \(d) vectors",
                source: .commandLine, "embeddings")
        }
    }

    /// `--shard i/n`: the shard's partial state, written to --out.
    func runShard(
        _ shard: PairShard, _ input: PassInput, _ snapshot: FileSnapshot, _ progress: ProgressLine, _ io: Invocation, started: Date
    ) throws {
        guard let out else { throw ThemeLabError.usage("missing --out") }
        let seed = try bridge.map { (forest: try BridgeForest.read(path: $0, items: input.file.rows), name: $0) }
        let partial = try PairPartial.compute(
            input.rows, labels: input.labels, shard: shard, engine: pass.engine, inputs: input.files, bridge: seed,
            progress: progress.update)
        progress.finish()
        try snapshot.verify()
        try AtomicFile.write(try JSONOutput.encode(partial), to: out)
        io.note(
            "wrote shard \(shard.index)/\(shard.count) (\(partial.tileSums.count) of \(partial.tiles) tiles) to \(out) "
                + io.cost(since: started))
    }
}

/// The vectors of --embeddings with the labels of --labels, checked: at least a pair of rows, the labels' corpus as long.
struct PassInput {
    let file: NPYFile
    var labels: [Int32]?
    var files: [String]
    var itemName: (Int) -> String
    var rows: UnitRowsFile { UnitRowsFile(file, itemName: itemName) }

    init(_ pass: PassOptions, _ io: Invocation) throws {
        let path = pass.embeddings
        file = try NPYFile(path: path)
        files = [path]
        itemName = { "\(path): row \($0)" }
        if let corpusPath = pass.labels {
            let corpus = try CorpusReader.read(path: corpusPath)
            guard corpus.count == file.rows else {
                throw ThemeLabError.input("\(corpusPath) has \(corpus.count) items but \(path) has \(file.rows) rows")
            }
            labels = corpus.labelIndices()
            if labels == nil { io.note("note: \(corpusPath) has no labels; reporting all pairs only") }
            itemName = { "\(path): row \($0) (item '\(corpus.items[$0].id)')" }
            files.append(corpusPath)
        }
        guard file.rows >= 2 else { throw ThemeLabError.input("\(path): \(file.rows) row(s), need at least 2 for a pair") }
        guard file.cols >= 1, file.rows <= Int(Int32.max) else {
            throw ThemeLabError.input("\(path): shape (\(file.rows), \(file.cols)); need 1 to 2³¹ − 1 rows of at least one value")
        }
    }
}

/// Prints a pairs summary as a table or JSON, and writes it to `out` when given.
func show(_ summary: PairsSummary, json: Bool, out: String?, _ io: Invocation) throws {
    if let out { try AtomicFile.write(try JSONOutput.encode(summary), to: out) }
    if json {
        io.print(try JSONOutput.string(summary), terminator: "")
    } else {
        io.print(
            "\(summary.items) items × \(summary.dimensions) dims, quantiles: \(summary.quantileMethod), kernel "
                + "\(summary.provenance.blas.kernel)"
        )
        io.print(summary.markdown(), terminator: "")
    }
}

struct MergeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        name: "merge", abstract: "Fold the parts of `pairs --shard` into the unsharded result.",
        discussion: """
            Merges the partial states written by `themelab pairs --shard i/n` (one per shard, all of the same pass) and
            prints the same statistics `themelab pairs` prints for the whole matrix, bit for bit: histograms and counts
            add, extremes take max and min, and each tile's sums are added in tile order as the unsharded pass does.
            Refused: a missing shard (named), parts of other inputs, bins, tile edge or shard count, and a shard given
            twice with different figures; a shard given twice with the same figures counts once. --components reads the
            Kruskal merge of the parts' spanning forests, which equals the unsharded forest.
            """)

    var parts: [String] = []
    var components: [Double]?
    var json = false
    var out: String?

    static var arguments: [Argument<Self>] {
        [
            .arguments("<part>", \.parts, count: 1...Int.max, help: "The part files, one per shard."),
            PassOptions.components(\.components),
            .flag("--json", \.json, help: "Print the JSON result instead of a table."),
            .option("--out", \.out, .path, value: "<FILE>", help: "Also write the JSON result to FILE (atomically)."),
        ]
    }

    func run(_ io: Invocation) throws {
        let started = Date()
        if let out { try CommandPaths(reads: parts, writes: [(out, .file)]).check() }
        let snapshot = try FileSnapshot(parts)
        let given = try parts.map(PairPartial.read(path:))
        let distinct = try PairPartial.distinctShards(given, names: parts)
        if distinct.count < given.count {
            io.note(
                "\(given.count - distinct.count) part(s) repeat a shard with the same figures (a requeued task); each shard counted once")
        }
        let distribution = try PairPartial.merge(distinct)
        var summary = PairsSummary(
            provenance: .current(command: io.commandLine, inputs: try Provenance.checksums(parts)),
            items: distinct[0].items, dimensions: distinct[0].dimensions, bins: distinct[0].related.histogram.count,
            distribution: distribution)
        if let thresholds = components {
            guard let forest = PairPartial.mergedForest(distinct) else {
                throw ThemeLabError.input("--components needs every part's spanning forest; these parts were written without one")
            }
            summary.addComponents(forest, thresholds: thresholds)
        }
        try snapshot.verify()
        io.note("merged \(distinct.count) part(s) \(io.cost(since: started))")
        try show(summary, json: json, out: out, io)
    }
}
