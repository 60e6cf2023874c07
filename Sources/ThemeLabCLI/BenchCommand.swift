import Foundation
import ThemeLabCore
import ThemeLabCorpus
import ThemeLabEncoder
import ThemeLabMeasures
import ThemeLabMethods
import ThemeLabPairs
import ThemeLabReport
import ThemeLabStudy

struct BenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        name: "bench", abstract: "Time one pairwise pass, bare cblas_ssyrk or the encoder (for Experiments/bench).",
        subcommands: [BenchPairsCommand.self, BenchEncoderCommand.self])
}

/// What `bench pairs` times.
enum BenchMode: String, CaseIterable {
    /// The pairwise pass: tiled Gram and the related, unrelated and all histograms.
    case pass
    /// The pass with the spanning forest, then every label-free threshold rule and single-linkage components at each.
    case full
    /// Bare cblas_ssyrk into a full N×N matrix (the speed reference).
    case ssyrk
    /// The pass's tiles computed and dropped: its BLAS work alone.
    case gram
    /// The pass with what --grouping needs, then that grouping's groups.
    case grouping
}

struct BenchPairsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        name: "pairs", abstract: "Time one stage on N seeded synthetic unit vectors.",
        discussion: """
            Times one stage on N seeded synthetic unit vectors of dimension D (100 topics, centred) and prints one JSON
            line: the best of R runs in seconds, GFLOP/s (N²·D flops for the Gram), peak RSS, kernel. Progress and ETA go to
            stderr. Modes: pass, the pairwise pass (tiled Gram and the related, unrelated and all histograms); full, the
            pass plus the spanning forest, then every label-free threshold rule and single-linkage components at each
            (groups per rule in the JSON line); ssyrk, bare cblas_ssyrk into a full N×N matrix (the speed reference); gram,
            the pass's tiles computed and dropped (its BLAS work alone); grouping, the pass with what --grouping G needs
            (hdbscan(m), leiden(k,γ), …), then G's groups, noise share and ARI against the generator's topics. Run each mode
            in its own process so peak RSS belongs to that mode alone; Experiments/bench/pairs does this and prints the
            ratios.
            """)

    var n = 2000
    var d = 384
    var mode = BenchMode.pass
    var grouping: Grouping?
    var tile = PairEngine().tileSize
    var repeats = 3
    var seed: UInt64 = 1
    var out: String?

    static var arguments: [Argument<Self>] {
        [
            .option("--n", \.n, .count(2...1_000_000), value: "<N>", help: "Vectors."),
            .option("--d", \.d, .count(Validation.dimensions), value: "<D>", help: "Their dimension."),
            .option(
                "--mode", \.mode, .oneOf(BenchMode.allCases.map(\.rawValue)), value: "<MODE>",
                read: { BenchMode(rawValue: $0 as? String ?? "") ?? .pass }, show: { $0.rawValue }, help: "What to time."),
            .option(
                "--grouping", \.grouping, .entry(kind: "grouping", forms: groupingRegistry.forms), value: "<G>",
                read: readName(ThemeLabMethods.grouping(named:)),
                help: "The grouping --mode grouping times (one that chooses its own cuts)."),
            .option("--tile", \.tile, .count(1...65_536), value: "<T>", help: "Tile edge in rows."),
            .option("--repeat", \.repeats, .count(1...100), value: "<R>", help: "Runs; the best is reported."),
            .option("--seed", \.seed, .seed, value: "<S>", help: "Seed of the generator."),
            .option(
                "--out", \.out, .path, value: "<DIR>",
                help: "With --mode grouping, also write the centred vectors (DIR/vectors.npy) and, one per line, the topics "
                    + "(DIR/topics.txt) and the grouping's labels (DIR/labels.txt, −1 noise), for peers."),
        ]
    }

    func run(_ io: Invocation) throws {
        guard mode != .grouping || grouping != nil else { throw ThemeLabError.usage("missing --grouping") }
        let method = mode == .grouping ? grouping : nil
        if let method, method.kind != .cutsItself {
            throw ThemeLabError.usage("--grouping \(method.name): bench times groupings that cut themselves (hdbscan(m), leiden(k), …)")
        }
        let topics = min(100, n)
        let memory =
            4 * Double(n) * Double(d) * 3 + (mode == .ssyrk ? 4 * Double(n) * Double(n) : MemoryBudget.pass(items: n, dimensions: d))
        try MemoryBudget.require(bytes: memory, for: "bench \(mode) at N = \(n), d = \(d)", source: .commandLine, "n")
        // 100 topics (fewer when N < 100), sizes as even as N allows.
        let (raw, labels) = SyntheticVectors(
            dimensions: d, topicSizes: (0..<topics).map { n / topics + ($0 < n % topics ? 1 : 0) },
            anisotropy: 1, topicStrength: 1, noise: 1, seed: seed
        ).generate()
        let x = try EmbeddingSpace.centred.transform(raw) { "synthetic item \($0)" }
        // Histogram quantiles only: exact quantiles (sorting kept values) are not part of the pass.
        let engine = PairEngine(tileSize: tile, exactPairLimit: 0)
        var seconds = mode == .ssyrk ? BLASReference.ssyrkSeconds(x, repeats: repeats) : Double.infinity
        var extra: [String: String] = [:]
        for _ in 0..<repeats where mode != .ssyrk {
            let start = Date()
            if mode == .gram {
                engine.feed(x, consumers: [])
            } else if let method {
                extra = try timeGrouping(method, x, topics: labels, engine: engine, start: start)
            } else {
                extra = timePass(x, labels: labels, engine: engine, io)
            }
            seconds = min(seconds, Date().timeIntervalSince(start))
        }
        var line: [String: String] = [
            "mode": mode.rawValue, "n": "\(n)", "d": "\(d)", "seconds": String(format: "%.4f", seconds),
            "gflops": String(format: "%.1f", Double(n) * Double(n) * Double(d) / seconds / 1e9),
            "peak_rss_mib": String(format: "%.0f", Double(peakResidentBytes() ?? 0) / 1_048_576),
            "kernel": BLASRuntime.corename,
        ]
        line.merge(extra) { a, _ in a }
        try printBenchLine(line, io)
    }

    /// One run of `--mode grouping`: the pass with what `method` needs, then its groups; the figures for the JSON line.
    func timeGrouping(_ method: Grouping, _ x: Matrix, topics: [Int32], engine: PairEngine, start: Date) throws -> [String: String] {
        let needs = PassNeeds.of(groupings: [method], items: n)
        let products = PassPlan(needs: needs, exactHistogramPairLimit: 0).run(x, labels: nil, engine: engine)
        var extra = ["first_pass_seconds": String(format: "%.2f", Date().timeIntervalSince(start))]
        let cut = try method.cut(GroupingRequest(target: .ownCuts, order: Array(0..<n)), in: products)
        guard let groups = cut.labels else { throw ThemeLabError.input(cut.note ?? "\(method.name) gave no groups") }
        extra["grouping"] = method.name
        extra["groups"] = "\(Set(groups.filter { $0 >= 0 }).count)"
        extra["noise_share"] = String(format: "%.4f", Double(groups.filter { $0 < 0 }.count) / Double(n))
        extra["ari"] = String(format: "%.4f", Recovery(topics: topics, groups: GroupingCut.noiseAsSingletons(groups)).ari)
        if let out {
            try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
            try NPY.write(x, to: out + "/vectors.npy")
            try AtomicFile.write(Data(topics.map { "\($0)\n" }.joined().utf8), to: out + "/topics.txt")
            try AtomicFile.write(Data(groups.map { "\($0)\n" }.joined().utf8), to: out + "/labels.txt")
        }
        return extra
    }

    /// One run of `--mode pass` or `full`: the pass (with the spanning forest and every label-free rule's groups for `full`).
    func timePass(_ x: Matrix, labels: [Int32], engine: PairEngine, _ io: Invocation) -> [String: String] {
        let forest = mode == .full ? SpanningForest(items: n) : nil
        let progress = io.progress("bench \(mode) N=\(n)")
        let dist = engine.run(x, labels: labels, consumers: forest.map { [$0] } ?? [], progress: progress.update)
        progress.finish()
        precondition(dist.all.count == n * (n - 1) / 2)
        guard let forest else { return [:] }
        var extra: [String: String] = [:]
        let context = ThresholdContext(distribution: dist, dimensions: d)
        for rule in standardThresholdRules {
            guard !rule.isLabelInformed, let t = rule.threshold(in: context) else { continue }
            extra["groups \(rule.name)"] = "\(Set(forest.labels(atLeast: t)).count)"
        }
        extra["forest_candidates"] = "\(forest.candidates)"
        extra["forest_rebuilds"] = "\(forest.rebuilds)"
        extra["forest_fold_seconds"] = String(format: "%.2f", forest.foldSeconds)
        return extra
    }
}

struct BenchEncoderCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        name: "encoder", abstract: "Time the encoder against bare sgemm on the products its forward pass makes.",
        discussion: """
            Times embedding C's texts (tokenising, forward pass, pooling; no cache), then every matrix product that forward
            pass makes, with the same shapes, batches and two workers, as bare single-threaded cblas_sgemm calls on scratch
            buffers. Prints one JSON line: both times (best of R), their GFLOP/s and sgemm_share = sgemm time / encoder
            time (1 would mean the encoder runs at sgemm's speed on its own shapes); then, for each kernel path this CPU
            runs, fma_ceiling_gflops_PATH: the two workers' FLOP/s on chains of fused multiply-adds in registers alone, the
            most any product on that path can reach here, and ceiling_share = the encoder's GFLOP/s over its own path's
            ceiling.
            """)

    var embedding = EmbeddingOptions()
    var repeats = 3

    static var arguments: [Argument<Self>] {
        EmbeddingOptions.arguments(\.embedding) + [
            .option("--repeat", \.repeats, .count(1...100), value: "<R>", help: "Runs; the best is reported.")
        ]
    }

    func run(_ io: Invocation) throws {
        let request = try EmbeddingRequest(embedding)
        let (texts, encoder, layer) = (request.texts, request.encoder, request.layer)
        let ids = encoder.tokenize(texts)
        let products = encoder.batches(ids).map { batch in encoder.model.matrixProducts(lengths: batch.map { ids[$0].count }, layer: layer)
        }
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
}

/// One benchmark measurement as a JSON line on stdout, keys sorted (what `CostModel.Point` and the bench scripts read).
func printBenchLine(_ line: [String: String], _ io: Invocation) throws {
    io.print(String(decoding: try JSONSerialization.data(withJSONObject: line, options: [.sortedKeys]), as: UTF8.self))
}
