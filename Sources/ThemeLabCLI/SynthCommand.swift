import Foundation
import ThemeLabCore
import ThemeLabCorpus
import ThemeLabEncoder
import ThemeLabMeasures
import ThemeLabMethods
import ThemeLabPairs
import ThemeLabReport
import ThemeLabStudy

struct SynthCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        name: "synth", abstract: "Write a labeled corpus and its .npy from the vector-level generator.",
        discussion: """
            Vectors x = a_t·m + b·c_t + s·ε/√d with a_t = A + S·z_t per topic (docs/corpora.md: the generator). The preset
            app-raw (d = 512, 8 uneven topics, A 2.4, S 0.3, B 0.7, N 0.5) puts unrelated raw cosines in a band about 0.08
            wide above 0.85, as the journal method's author reported. Options override the preset.
            """)

    var outCorpus = ""
    var outEmbeddings = ""
    var preset = "app-raw"
    var generator = SyntheticVectors.journalMethodRaw()

    static var arguments: [Argument<Self>] {
        typealias Field = SyntheticVectors.CodingKeys
        return [
            .option("--out-corpus", \.outCorpus, .path, value: "<C.jsonl>", required: true, help: "The corpus file to write."),
            .option("--out-embeddings", \.outEmbeddings, .path, value: "<X.npy>", required: true, help: "The vectors file to write."),
            .option("--preset", \.preset, .oneOf(["app-raw"]), value: "<NAME>", help: "The generator's settings to start from."),
            .option(Field.dimensions, \.generator.dimensions, value: "<D>", help: "The vectors' dimension."),
            .option(Field.topicSizes, \.generator.topicSizes, value: "<N,…>", help: "Each topic's items."),
            .option(Field.anisotropy, \.generator.anisotropy, value: "<A>", help: "The mean direction's weight a."),
            .option(Field.anisotropySpread, \.generator.anisotropySpread, value: "<S>", help: "Its spread σₐ over topics."),
            .option(Field.topicStrength, \.generator.topicStrength, value: "<B>", help: "The topic direction's weight b."),
            .option(Field.noise, \.generator.noise, value: "<N>", help: "The noise's weight s."),
            .option(Field.seed, \.generator.seed, value: "<K>", help: "The generator's seed."),
        ]
    }

    func run(_ io: Invocation) throws {
        try Validation.check(generator, at: "corpora[0].generator", source: .commandLine)
        let (corpus, vectors) = generator.corpus(name: "synthetic")
        try CommandPaths(reads: [], writes: [(outCorpus, .file), (outEmbeddings, .file)]).check()
        let lines = try corpus.items.map { item -> String in
            String(
                decoding: try JSONSerialization.data(withJSONObject: ["id": item.id, "label": item.label!], options: [.sortedKeys]),
                as: UTF8.self)
        }
        // Both or neither: a killed run never leaves a corpus without its vectors.
        try AtomicFile.write([(Data((lines.joined(separator: "\n") + "\n").utf8), outCorpus), (NPY.encode(vectors), outEmbeddings)])
        let g = generator
        io.note("wrote \(outCorpus) and \(outEmbeddings): \(vectors.rows) items, \(g.topicSizes.count) topics, d = \(g.dimensions)")
    }
}
