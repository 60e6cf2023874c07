import Foundation
import ThemeLabCore
import ThemeLabCorpus
import ThemeLabEncoder
import ThemeLabMeasures
import ThemeLabMethods
import ThemeLabPairs
import ThemeLabReport
import ThemeLabStudy

struct EmbedCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        name: "embed", abstract: "Embed a corpus's texts with a sentence-transformers model.",
        discussion: """
            Tokenizes each item's text as the model folder says (tokenizer.json or vocab.txt), runs the encoder (BERT,
            DistilBERT, RoBERTa, XLM-RoBERTa or MPNet) and writes layer K's hidden states pooled as 1_Pooling/config.json
            says (then the Dense layers, at the last layer), one row per item in corpus order, as a '<f4' .npy, plus
            X.npy.json with provenance (model hash, layer, prompt, corpus checksum). `themelab env --model DIR` says what
            a folder is.
            """)

    var embedding = EmbeddingOptions()
    var out = ""
    var normalize = false
    var noCache = false
    var cache = CacheOption()

    static var arguments: [Argument<Self>] {
        EmbeddingOptions.arguments(\.embedding) + [
            .option("--out", \.out, .path, value: "<X.npy>", required: true, help: "The output file (written atomically)."),
            .flag(
                "--normalize", \.normalize,
                help: "L2-normalise each vector (default: as the model's modules.json says at the last layer, else no)."),
            .flag(
                "--no-cache", \.noCache,
                help: "Do not read or write the embedding cache, keyed by model hash, layer and text."),
        ] + CacheOption.arguments(\.cache)
    }

    func run(_ io: Invocation) throws {
        guard !noCache || cache.folder == nil else { throw ThemeLabError.usage("give --no-cache or --cache, not both") }
        let model = try ModelFolder.locate(explicit: embedding.model)
        try CommandPaths(reads: [embedding.corpus] + (try model.files()), writes: [(out, .file), (out + ".json", .file)]).check()
        let request = try EmbeddingRequest(embedding)
        let (corpus, texts, encoder, layer) = (request.corpus, request.texts, request.encoder, request.layer)
        let progress = io.progress("embed")
        let start = Date()
        var vectors: Matrix
        var embedded = texts.count
        if noCache {
            vectors = try encoder.embed(texts, layer: layer, progress: progress.update)
        } else {
            var cache = try EmbeddingCache(folder: self.cache.resolved, encoder: encoder, layer: layer)
            if let warning = cache.warning { io.note(warning) }
            embedded = cache.uncached(texts).count
            vectors = try encoder.embed(texts, layer: layer, cache: &cache, progress: progress.update)
        }
        progress.finish()
        let seconds = Date().timeIntervalSince(start)
        let normalized = normalize || (layer == encoder.configuration.layers && encoder.configuration.normalize)
        if normalized { vectors = try unitRows(vectors) { "\(embedding.corpus): item '\(corpus.items[$0].id)'" } }
        let record = EmbeddingRecord(
            provenance: .current(
                command: io.commandLine,
                inputs: try Provenance.checksums([embedding.corpus] + (try encoder.folder.configurationPaths())), model: encoder.modelHash),
            modelFolder: encoder.folder.path, layer: layer, prompt: encoder.prompt.isEmpty ? nil : encoder.prompt, normalized: normalized,
            items: vectors.rows, dimensions: vectors.cols)
        // Both or neither: vectors never lie on disk without the record of where they came from.
        try AtomicFile.write([(NPY.encode(vectors), out), (try JSONOutput.encode(record), out + ".json")])
        // A rate only over texts the model ran: a cache read is no encoding speed.
        let rate =
            embedded == 0
            ? "every text read from the embedding cache"
            : "encoded \(embedded) text\(embedded == 1 ? "" : "s") in "
                + String(format: "%.1f s, %.0f sentences/s", seconds, Double(embedded) / seconds)
                + (embedded < texts.count ? "; \(texts.count - embedded) from the cache" : "")
        io.note("wrote \(out): \(vectors.rows) × \(vectors.cols), layer \(layer)\(normalized ? ", normalised" : "") (\(rate))")
    }
}

/// The provenance sidecar of an embeddings file.
struct EmbeddingRecord: Codable {
    var schemaVersion = 1
    var provenance: Provenance
    var modelFolder: String
    var layer: Int
    /// The text put before every sentence, when there was one.
    var prompt: String?
    var normalized: Bool
    var items: Int
    var dimensions: Int
}

/// What `embed` and `bench encoder` embed: a corpus file's texts, with a model's layer and prompt.
struct EmbeddingOptions {
    var corpus = ""
    var idColumn: String?
    var textColumn: String?
    var model: String?
    var layer: Int?
    var prompt: String?

    static func arguments<C>(_ at: WritableKeyPath<C, EmbeddingOptions>) -> [Argument<C>] {
        [
            .option(
                "--corpus", at.appending(path: \.corpus), .path, value: "<C>", required: true,
                help: "JSONL, CSV or TSV corpus; every item needs a text."),
            .option(
                CorpusSpec.CodingKeys.idColumn, at.appending(path: \.idColumn), value: "<F>", unset: CorpusColumns().id, checked: true,
                help: "The field or column of ids."),
            .option(
                CorpusSpec.CodingKeys.textColumn, at.appending(path: \.textColumn), value: "<F>", unset: CorpusColumns().text,
                checked: true,
                help: "The field or column of texts."),
            .option(
                ExperimentPlan.Encoder.CodingKeys.model, at.appending(path: \.model), value: "<DIR>",
                unset: "$THEMELAB_MODEL, else the one scripts/bootstrap installed", help: "sentence-transformers folder."),
            .option(
                ExperimentPlan.Encoder.CodingKeys.layers, at.appending(path: \.layer), value: "<K>", one: true, unset: "the last",
                help: "0 is the embedding output, the model's layer count the last."),
            .option(
                "--prompt", at.appending(path: \.prompt), .text, value: "<NAME>",
                unset: "the model's default_prompt_name, as sentence-transformers",
                help:
                    "A prompt of config_sentence_transformers.json put before every text; none: no prompt."),
        ]
    }
}

/// What `embed` and `bench encoder` read: the corpus with every item's text, the model's encoder with the prompt, and
/// the layer (default: the last), which the model must have.
struct EmbeddingRequest {
    let corpus: Corpus
    let texts: [String]
    let encoder: SentenceEncoder
    let layer: Int

    init(_ options: EmbeddingOptions) throws {
        let path = options.corpus
        corpus = try CorpusReader.read(path: path, columns: CorpusColumns(id: options.idColumn, text: options.textColumn))
        texts = try corpus.items.map { item in
            guard let t = item.text else { throw ThemeLabError.input("\(path): item '\(item.id)' has no text to embed") }
            return t
        }
        encoder = try SentenceEncoder(folder: ModelFolder.locate(explicit: options.model), prompt: options.prompt)
        let layers = encoder.configuration.layers
        layer = options.layer ?? layers
        guard layer <= layers else { throw ThemeLabError.usage("--layer is \(layer); this model has layers 0...\(layers)") }
    }
}
