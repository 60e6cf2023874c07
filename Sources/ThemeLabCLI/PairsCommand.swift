import Foundation
import ThemeLabCore
import ThemeLabCorpus
import ThemeLabEncoder
import ThemeLabMeasures
import ThemeLabMethods
import ThemeLabPairs
import ThemeLabReport
import ThemeLabStudy

let pairsCommand = Command(
    summary: "distribution of all pairwise cosines (all / related / unrelated)",
    help: """
        usage: themelab pairs --embeddings X.npy [--labels C.jsonl] [--components T,…] [--json] [--out FILE]
               themelab pairs --embeddings X.npy [--labels C.jsonl] --bridge-out BRIDGE.json
               themelab pairs --embeddings X.npy [--labels C.jsonl] --shard i/n [--bridge BRIDGE.json] --out PART.json

        Normalises each row of X to unit length, computes every i<j cosine with tiled BLAS and
        prints count, min, p1, p5, p25, median, p75, p95, p99, max, mean and std for all pairs,
        and, with labels, for related (same label) and unrelated pairs. Quantiles are exact up to
        2 000 000 pairs and read off a 65 536-bin histogram beyond (error < 3.1e-5).
          --embeddings X.npy  2-D '<f4' or '<f8' array, one row per item
          --labels C          corpus (JSONL, CSV or TSV) whose rows match X's rows in order
          --bins N            histogram bins over [-1, 1] (default 65536)
          --tile N            tile edge in rows (default 2048)
          --components T,…    also the number of single-linkage groups (connected components
                              of "cosine ≥ T") at each threshold, from the pass's spanning forest
          --json              print the JSON result instead of a table
          --out FILE          also write the JSON result to FILE (atomically)
          --shard i/n         only the i-th of n equal runs of the tiles; writes the partial state
                              (with the shard's spanning forest) to --out, for `themelab merge`,
                              which gives exactly the unsharded result, components included
          --bridge-out FILE   only the spanning forest of the tiles on the diagonal and next to it,
                              which every shard's forest needs; computed once, before the shards
          --bridge FILE       a shard starts its forest from this bridge forest (same inputs and
                              kernel) instead of computing those tiles, and reads only its rows
        """,
    options: ["embeddings", "labels", "bins", "tile", "out", "shard", "components", "bridge", "bridge-out"],
    switches: ["json"]
) { args, io in
    let started = Date()
    let embeddingsPath = try args.required("embeddings")
    let reads = [embeddingsPath] + [args["labels"], args["bridge"]].compactMap { $0 }
    if let out = args["out"] ?? args["bridge-out"] { try CommandPaths(reads: reads, writes: [(out, .file)]).check() }
    // Every checksum written must name the bytes the pass read: no input may change between this and the last read.
    let snapshot = try FileSnapshot(reads)
    let engine = PairEngine(
        bins: try args.int("bins", default: 65_536, range: 2...(1 << 24)),
        tileSize: try args.int("tile", default: 2048, range: 1...65_536))
    let file = try NPYFile(path: embeddingsPath)
    var labels: [Int32]?
    var inputs = [embeddingsPath]
    var itemName: (Int) -> String = { "\(embeddingsPath): row \($0)" }
    if let corpusPath = args["labels"] {
        let corpus = try CorpusReader.read(path: corpusPath)
        guard corpus.count == file.rows else {
            throw ThemeLabError.input("\(corpusPath) has \(corpus.count) items but \(embeddingsPath) has \(file.rows) rows")
        }
        labels = corpus.labelIndices()
        if labels == nil { io.note("note: \(corpusPath) has no labels; reporting all pairs only") }
        itemName = { "\(embeddingsPath): row \($0) (item '\(corpus.items[$0].id)')" }
        inputs.append(corpusPath)
    }
    guard file.rows >= 2 else { throw ThemeLabError.input("\(embeddingsPath): \(file.rows) row(s), need at least 2 for a pair") }
    guard file.cols >= 1, file.rows <= Int(Int32.max) else {
        throw ThemeLabError.input("\(embeddingsPath): shape (\(file.rows), \(file.cols)); need 1 to 2³¹ − 1 rows of at least one value")
    }
    let shard = try args["shard"].map(PairShard.init(text:))
    func requireMemory(rows: Int?) throws {
        try MemoryBudget.require(
            bytes: MemoryBudget.pass(items: file.rows, dimensions: file.cols, rows: rows),
            for: "the pairwise pass over \(file.rows) × \(file.cols) vectors", source: .commandLine, "embeddings")
    }
    // What every part of the pass holds (a forest over all N items), before working out the rows a seeded shard reads.
    try requireMemory(rows: 0)
    try requireMemory(
        rows: shard.flatMap { s in
            args["bridge"].map { _ in engine.rowsRead(items: file.rows, dimensions: file.cols, shards: s.count)[s.index] }
        })
    let progress = io.progress("pairs")
    if let out = args["bridge-out"] {
        guard args["shard"] == nil, args["bridge"] == nil else {
            throw ThemeLabError.usage("--bridge-out computes the bridge forest before the shards; give it without --shard and --bridge")
        }
        let bridge = try BridgeForest.compute(
            UnitRowsFile(file, itemName: itemName), labels: labels, engine: engine, inputs: inputs, progress: progress.update)
        progress.finish()
        try snapshot.verify()
        try AtomicFile.write(try JSONOutput.encode(bridge), to: out)
        io.note("wrote the bridge forest (\(bridge.edges.count) edges) to \(out) \(io.cost(since: started))")
        return
    }
    if let shard {
        let out = try args.required("out")
        let bridge = try args["bridge"].map { (forest: try BridgeForest.read(path: $0, items: file.rows), name: $0) }
        let partial = try PairPartial.compute(
            UnitRowsFile(file, itemName: itemName), labels: labels, shard: shard, engine: engine, inputs: inputs, bridge: bridge,
            progress: progress.update)
        progress.finish()
        try snapshot.verify()
        try AtomicFile.write(try JSONOutput.encode(partial), to: out)
        io.note(
            "wrote shard \(shard.index)/\(shard.count) (\(partial.tileSums.count) of \(partial.tiles) tiles) to \(out) "
                + io.cost(since: started))
        return
    }
    guard args["bridge"] == nil else { throw ThemeLabError.usage("--bridge seeds a shard's forest; give it with --shard i/n") }
    let unit = try unitRows(try file.rows(0..<file.rows), itemName: itemName)
    let thresholds = try componentThresholds(args)
    let forest = thresholds.isEmpty ? nil : SpanningForest(items: unit.rows)
    let distribution = engine.run(unit, labels: labels, consumers: forest.map { [$0] } ?? [], progress: progress.update)
    progress.finish()
    var summary = PairsSummary(
        provenance: .current(command: io.commandLine, inputs: try Provenance.checksums(inputs)),
        items: file.rows, dimensions: file.cols, bins: engine.bins, distribution: distribution)
    if let forest { summary.addComponents(forest, thresholds: thresholds) }
    try snapshot.verify()
    try show(summary, args, io)
}

/// The thresholds of --components T,… (none when absent).
func componentThresholds(_ args: Arguments) throws -> [Double] {
    guard let text = args["components"] else { return [] }
    return try text.split(separator: ",").map { t in
        guard let v = Double(t.trimmingCharacters(in: .whitespaces)), (-1...1).contains(v) else {
            throw ThemeLabError.usage("--components takes cosines in [-1, 1] separated by commas, got '\(t)'")
        }
        return v
    }
}

/// Prints a pairs summary as a table or JSON, and writes it to --out when given.
func show(_ summary: PairsSummary, _ args: Arguments, _ io: Invocation) throws {
    if let out = args["out"] { try AtomicFile.write(try JSONOutput.encode(summary), to: out) }
    if args.flag("json") {
        io.print(try JSONOutput.string(summary), terminator: "")
    } else {
        io.print(
            "\(summary.items) items × \(summary.dimensions) dims, quantiles: \(summary.quantileMethod), kernel "
                + "\(summary.provenance.blas.kernel)"
        )
        io.print(summary.markdown(), terminator: "")
    }
}

let mergeCommand = Command(
    summary: "fold `pairs --shard` parts into the unsharded result",
    help: """
        usage: themelab merge PART.json … [--components T,…] [--json] [--out FILE]

        Merges the partial states written by `themelab pairs --shard i/n` (one per shard, all
        of the same pass) and prints the same statistics `themelab pairs` prints for the whole
        matrix — bit for bit: histograms and counts add, extremes take max/min, and each
        tile's sums are added in tile order as the unsharded pass does. Refused: a missing
        shard (named), parts of other inputs, bins, tile edge or shard count, and a shard given
        twice with different figures; a shard given twice with the same figures counts once.
          --components T,…  single-linkage groups at each threshold, from the Kruskal merge of
                            the parts' spanning forests (equal to the unsharded forest)
          --json            print the JSON result instead of a table
          --out FILE        also write the JSON result to FILE (atomically)
        """,
    options: ["out", "components"],
    switches: ["json"],
    positionals: 1...Int.max
) { args, io in
    let started = Date()
    if let out = args["out"] { try CommandPaths(reads: args.positional, writes: [(out, .file)]).check() }
    let snapshot = try FileSnapshot(args.positional)
    let given = try args.positional.map(PairPartial.read(path:))
    let parts = try PairPartial.distinctShards(given, names: args.positional)
    if parts.count < given.count {
        io.note("\(given.count - parts.count) part(s) repeat a shard with the same figures (a requeued task); each shard counted once")
    }
    let distribution = try PairPartial.merge(parts)
    let thresholds = try componentThresholds(args)
    var summary = PairsSummary(
        provenance: .current(command: io.commandLine, inputs: try Provenance.checksums(args.positional)),
        items: parts[0].items, dimensions: parts[0].dimensions, bins: parts[0].related.histogram.count,
        distribution: distribution)
    if !thresholds.isEmpty {
        guard let forest = PairPartial.mergedForest(parts) else {
            throw ThemeLabError.input("--components needs every part's spanning forest; these parts were written without one")
        }
        summary.addComponents(forest, thresholds: thresholds)
    }
    try snapshot.verify()
    io.note("merged \(parts.count) part(s) \(io.cost(since: started))")
    try show(summary, args, io)
}
