import Foundation
import ThemeLabCore
import ThemeLabCorpus
import ThemeLabEncoder
import ThemeLabMeasures
import ThemeLabMethods
import ThemeLabPairs
import ThemeLabReport
import ThemeLabStudy

let synthCommand = Command(
    summary: "write a labeled corpus + .npy from the vector-level generator",
    help: """
        usage: themelab synth --out-corpus C.jsonl --out-embeddings X.npy [--preset app-raw]
                              [--dims D] [--topics 12,10,8] [--anisotropy A] [--spread S]
                              [--topic-strength B] [--noise N] [--seed K]

        Vectors x = a_t·m + b·c_t + s·ε/√d with a_t = A + S·z_t per topic (docs/corpora.md:
        the generator). The preset app-raw (d = 512, 8 uneven topics, A 2.4, S 0.3, B 0.7, N 0.5)
        puts unrelated raw cosines in a band about 0.08 wide above 0.85, as the journal method's author reported.
        Options override the preset.
        """,
    options: ["out-corpus", "out-embeddings", "preset", "dims", "topics", "anisotropy", "spread", "topic-strength", "noise", "seed"]
) { args, io in
    guard (args["preset"] ?? "app-raw") == "app-raw" else { throw ThemeLabError.usage("--preset: only app-raw exists") }
    var g = SyntheticVectors.journalMethodRaw()
    func number(_ name: String) throws -> Double? {
        guard let t = args[name] else { return nil }
        guard let v = Double(t) else { throw ThemeLabError.usage("--\(name) must be a number, got \(t)") }
        return v
    }
    g.dimensions = try args.int("dims", default: g.dimensions, range: Validation.dimensions)
    if let t = args["topics"] {
        let sizes = t.split(separator: ",", omittingEmptySubsequences: false).map { Int($0) }
        guard !sizes.isEmpty, sizes.allSatisfy({ $0 != nil }) else {
            throw ThemeLabError.usage("--topics takes sizes like 12,10,8, got \(t)")
        }
        g.topicSizes = sizes.map { $0! }
    }
    g.anisotropy = try number("anisotropy") ?? g.anisotropy
    g.anisotropySpread = try number("spread") ?? g.anisotropySpread
    g.topicStrength = try number("topic-strength") ?? g.topicStrength
    g.noise = try number("noise") ?? g.noise
    g.seed = UInt64(try args.int("seed", default: Int(g.seed), range: 0...Int.max))
    try Validation.check(g, at: "corpora[0].generator", source: .commandLine)
    let (corpus, vectors) = g.corpus(name: "synthetic")
    let corpusPath = try args.required("out-corpus")
    let npyPath = try args.required("out-embeddings")
    try CommandPaths(reads: [], writes: [(corpusPath, .file), (npyPath, .file)]).check()
    let lines = try corpus.items.map { item -> String in
        String(
            decoding: try JSONSerialization.data(withJSONObject: ["id": item.id, "label": item.label!], options: [.sortedKeys]),
            as: UTF8.self)
    }
    // Both or neither: a killed run never leaves a corpus without its vectors.
    try AtomicFile.write([(Data((lines.joined(separator: "\n") + "\n").utf8), corpusPath), (NPY.encode(vectors), npyPath)])
    io.note("wrote \(corpusPath) and \(npyPath): \(vectors.rows) items, \(g.topicSizes.count) topics, d = \(g.dimensions)")
}
