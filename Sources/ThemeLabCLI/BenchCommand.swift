import Foundation
import ThemeLabCore
import ThemeLabCorpus
import ThemeLabEncoder
import ThemeLabMeasures
import ThemeLabMethods
import ThemeLabPairs
import ThemeLabReport
import ThemeLabStudy

let benchCommand = Command(
    summary: "time one pairwise pass or bare cblas_ssyrk (for Experiments/bench)",
    help: """
        usage: themelab bench pairs --n N [--d D] [--mode pass|full|ssyrk|gram|grouping] [--grouping G] [--tile T]
                                    [--repeat R] [--seed S]
               themelab bench encoder --corpus C [--model DIR] [--layer K] [--prompt NAME] [--repeat R]

        Times one stage on N seeded synthetic unit vectors of dimension D (default 384; 100
        topics, centred) and prints one JSON line: the best of R runs (default 3) in seconds,
        GFLOP/s (N²·D flops for the Gram), peak RSS, kernel. Progress and ETA go to stderr.
          pass    the pairwise pass: tiled Gram + related/unrelated/all histograms
          full    the pass plus the spanning forest, then every label-free threshold rule and
                  single-linkage components at each (groups per rule in the JSON line)
          ssyrk   bare cblas_ssyrk into a full N×N matrix (the speed reference)
          gram    the pass's tiles computed and dropped: its BLAS work alone, without the histograms
          grouping  the pass with what --grouping G needs (hdbscan(m), leiden(k,γ), …), then G's
                  groups: groups, noise share and ARI against the generator's topics in the JSON line;
                  --out DIR also writes the centred vectors (DIR/vectors.npy) and, one per line,
                  the topics (DIR/topics.txt) and G's labels (DIR/labels.txt, −1 noise), for peers
        Run each mode in its own process so peak RSS belongs to that mode alone;
        Experiments/bench/pairs does this and prints the ratios.

        bench encoder times embedding C's texts (tokenising, forward pass, pooling; no cache),
        then every matrix product that forward pass makes, with the same shapes, batches and two
        workers, as bare single-threaded cblas_sgemm calls on scratch buffers. Prints one JSON
        line: both times (best of R), their GFLOP/s and sgemm_share = sgemm time / encoder time
        (1 would mean the encoder runs at sgemm's speed on its own shapes); then, for each kernel
        path this CPU runs, fma_ceiling_gflops_PATH: the two workers' FLOP/s on chains of fused
        multiply-adds in registers alone, the most any product on that path can reach here, and
        ceiling_share = the encoder's GFLOP/s over its own path's ceiling.
        """,
    options: ["n", "d", "mode", "grouping", "tile", "repeat", "seed", "out", "corpus", "model", "layer", "prompt"],
    positionals: 1...1,
    subcommands: ["pairs", "encoder"]
) { args, io in
    if args.positional == ["encoder"] { return try benchEncoder(args, io) }
    guard args.positional == ["pairs"] else { throw ThemeLabError.usage("expected 'bench pairs' or 'bench encoder'") }
    let n = try args.int("n", default: 2000, range: 2...1_000_000)
    let d = try args.int("d", default: 384, range: 1...65_536)
    let mode = args["mode"] ?? "pass"
    guard ["pass", "full", "ssyrk", "gram", "grouping"].contains(mode) else {
        throw ThemeLabError.usage("--mode is pass, full, ssyrk, gram or grouping, got '\(mode)'")
    }
    let method = mode == "grouping" ? try grouping(named: try args.required("grouping")) : nil
    if let method, method.kind != .cutsItself {
        throw ThemeLabError.usage("--grouping \(method.name): bench times groupings that cut themselves (hdbscan(m), leiden(k), …)")
    }
    let topics = min(100, n)
    let memory = 4 * Double(n) * Double(d) * 3 + (mode == "ssyrk" ? 4 * Double(n) * Double(n) : MemoryBudget.pass(items: n, dimensions: d))
    try MemoryBudget.require(bytes: memory, for: "bench \(mode) at N = \(n), d = \(d)", source: .commandLine, "n")
    // 100 topics (fewer when N < 100), sizes as even as N allows.
    let (raw, labels) = SyntheticVectors(
        dimensions: d, topicSizes: (0..<topics).map { n / topics + ($0 < n % topics ? 1 : 0) },
        anisotropy: 1, topicStrength: 1, noise: 1, seed: UInt64(try args.int("seed", default: 1, range: 0...Int.max))
    ).generate()
    let x = try EmbeddingSpace.centred.transform(raw) { "synthetic item \($0)" }
    // Histogram quantiles only: exact quantiles (sorting kept values) are not part of the pass.
    let engine = PairEngine(tileSize: try args.int("tile", default: PairEngine().tileSize, range: 1...65_536), exactPairLimit: 0)
    let repeats = try args.int("repeat", default: 3, range: 1...100)
    var seconds = mode == "ssyrk" ? BLASReference.ssyrkSeconds(x, repeats: repeats) : Double.infinity
    var extra: [String: String] = [:]
    for _ in 0..<repeats where mode != "ssyrk" {
        let start = Date()
        if mode == "gram" {
            engine.feed(x, consumers: [])
        } else if let method {
            let needs = PassNeeds.of(groupings: [method], items: n)
            let products = PassPlan(needs: needs, exactHistogramPairLimit: 0).run(x, labels: nil, engine: engine)
            extra["first_pass_seconds"] = String(format: "%.2f", Date().timeIntervalSince(start))
            let request = GroupingRequest(target: .ownCuts, order: Array(0..<n))
            let cut = try method.cut(request, in: products)
            guard let groups = cut.labels else { throw ThemeLabError.input(cut.note ?? "\(method.name) gave no groups") }
            extra["grouping"] = method.name
            extra["groups"] = "\(Set(groups.filter { $0 >= 0 }).count)"
            extra["noise_share"] = String(format: "%.4f", Double(groups.filter { $0 < 0 }.count) / Double(n))
            extra["ari"] = String(format: "%.4f", Recovery(topics: labels, groups: GroupingCut.noiseAsSingletons(groups)).ari)
            if let out = args["out"] {
                try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
                try NPY.write(x, to: out + "/vectors.npy")
                try AtomicFile.write(Data(labels.map { "\($0)\n" }.joined().utf8), to: out + "/topics.txt")
                try AtomicFile.write(Data(groups.map { "\($0)\n" }.joined().utf8), to: out + "/labels.txt")
            }
        } else {
            let forest = mode == "full" ? SpanningForest(items: n) : nil
            let progress = io.progress("bench \(mode) N=\(n)")
            let dist = engine.run(x, labels: labels, consumers: forest.map { [$0] } ?? [], progress: progress.update)
            progress.finish()
            precondition(dist.all.count == n * (n - 1) / 2)
            if let forest {
                let context = ThresholdContext(distribution: dist, dimensions: d)
                for rule in standardThresholdRules {
                    guard !rule.isLabelInformed, let t = rule.threshold(in: context) else { continue }
                    extra["groups \(rule.name)"] = "\(Set(forest.labels(atLeast: t)).count)"
                }
                extra["forest_candidates"] = "\(forest.candidates)"
                extra["forest_rebuilds"] = "\(forest.rebuilds)"
                extra["forest_fold_seconds"] = String(format: "%.2f", forest.foldSeconds)
            }
        }
        seconds = min(seconds, Date().timeIntervalSince(start))
    }
    var line: [String: String] = [
        "mode": mode, "n": "\(n)", "d": "\(d)", "seconds": String(format: "%.4f", seconds),
        "gflops": String(format: "%.1f", Double(n) * Double(n) * Double(d) / seconds / 1e9),
        "peak_rss_mib": String(format: "%.0f", Double(peakResidentBytes() ?? 0) / 1_048_576),
        "kernel": BLASRuntime.corename,
    ]
    line.merge(extra) { a, _ in a }
    try printBenchLine(line, io)
}

/// `bench encoder`: the encoder against bare sgemm on the products its forward pass makes.
func benchEncoder(_ args: Arguments, _ io: Invocation) throws {
    let request = try EmbeddingRequest(args)
    let (texts, encoder, layer) = (request.texts, request.encoder, request.layer)
    let repeats = try args.int("repeat", default: 3, range: 1...100)
    let ids = encoder.tokenize(texts)
    let products = encoder.batches(ids).map { batch in encoder.model.matrixProducts(lengths: batch.map { ids[$0].count }, layer: layer) }
    let flops = products.joined().reduce(0.0) { $0 + 2 * Double($1.m) * Double($1.n) * Double($1.k) }
    var encoderSeconds = Double.infinity
    var sgemmSeconds = Double.infinity
    for _ in 0..<repeats {
        let start = Date()
        _ = try encoder.embed(texts, layer: layer)
        encoderSeconds = min(encoderSeconds, Date().timeIntervalSince(start))
        sgemmSeconds = min(sgemmSeconds, BLASReference.sgemmSeconds(products, workers: encoder.workers))
    }
    var line: [String: String] = [
        "sentences": "\(texts.count)", "tokens": "\(ids.joined().count)", "layer": "\(layer)",
        "encoder_seconds": String(format: "%.4f", encoderSeconds), "sgemm_seconds": String(format: "%.4f", sgemmSeconds),
        "encoder_gflops": String(format: "%.1f", flops / encoderSeconds / 1e9),
        "sgemm_gflops": String(format: "%.1f", flops / sgemmSeconds / 1e9),
        "sgemm_share": String(format: "%.3f", sgemmSeconds / encoderSeconds), "kernel": BLASRuntime.corename,
        "path": encoder.path.rawValue,
    ]
    for path in KernelPath.available {
        let ceiling = EncoderKernel.ceiling(path, workers: encoder.workers)
        line["fma_ceiling_gflops_\(path.rawValue)"] = String(format: "%.1f", ceiling / 1e9)
        if path == encoder.path { line["ceiling_share"] = String(format: "%.3f", flops / encoderSeconds / ceiling) }
    }
    try printBenchLine(line, io)
}

/// One benchmark measurement as a JSON line on stdout, keys sorted (what `CostModel.Point` and the bench scripts read).
func printBenchLine(_ line: [String: String], _ io: Invocation) throws {
    io.print(String(decoding: try JSONSerialization.data(withJSONObject: line, options: [.sortedKeys]), as: UTF8.self))
}
