import Foundation
import ThemeLabCore
import ThemeLabCorpus
import ThemeLabEncoder
import ThemeLabMeasures
import ThemeLabMethods
import ThemeLabPairs
import ThemeLabReport
import ThemeLabStudy

let embedCommand = Command(
    summary: "embed a corpus's texts with a sentence-transformers model",
    help: """
        usage: themelab embed --corpus C.jsonl --out X.npy [--model DIR] [--layer K] [--prompt NAME]
                              [--normalize] [--no-cache | --cache DIR]

        Tokenizes each item's text as the model folder says (tokenizer.json or vocab.txt), runs
        the encoder (BERT, DistilBERT, RoBERTa, XLM-RoBERTa or MPNet) and writes layer K's hidden
        states pooled as 1_Pooling/config.json says (then the Dense layers, at the last layer), one
        row per item in corpus order, as a '<f4' .npy, plus X.npy.json with provenance (model
        hash, layer, prompt, corpus checksum). `themelab env --model DIR` says what a folder is.
          --corpus C     JSONL, CSV or TSV corpus; every item needs a text
          --id-column F, --text-column F
                         the fields or columns holding ids and texts (default id, text)
          --out X.npy    output file (written atomically)
          --model DIR    sentence-transformers folder (default: $THEMELAB_MODEL, else the one
                         scripts/bootstrap installed)
          --layer K      0 = embedding output, the model's layer count = last (default: last)
          --prompt NAME  a prompt of config_sentence_transformers.json put before every text
                         (default: its default_prompt_name, as sentence-transformers; none: no prompt)
          --normalize    L2-normalise each vector (default: as the model's modules.json says
                         when K is the last layer, otherwise no)
          --no-cache     do not read or write the embedding cache, keyed by model hash, layer
                         and text
          \(Arguments.cacheHelp(indent: 17))
        """,
    options: ["corpus", "out", "model", "layer", "prompt", "id-column", "text-column", "cache"],
    switches: ["normalize", "no-cache"]
) { args, io in
    let corpusPath = try args.required("corpus")
    let out = try args.required("out")
    guard !args.flag("no-cache") || args["cache"] == nil else { throw ThemeLabError.usage("give --no-cache or --cache, not both") }
    let model = try ModelFolder.locate(explicit: args["model"])
    try CommandPaths(reads: [corpusPath] + (try model.files()), writes: [(out, .file), (out + ".json", .file)]).check()
    let request = try EmbeddingRequest(args)
    let (corpus, texts, encoder, layer) = (request.corpus, request.texts, request.encoder, request.layer)
    let layers = encoder.configuration.layers
    let progress = io.progress("embed")
    let start = Date()
    var vectors: Matrix
    var embedded = texts.count
    if args.flag("no-cache") {
        vectors = try encoder.embed(texts, layer: layer, progress: progress.update)
    } else {
        var cache = try EmbeddingCache(folder: try args.cacheFolder(), encoder: encoder, layer: layer)
        if let warning = cache.warning { io.note(warning) }
        embedded = cache.uncached(texts).count
        vectors = try encoder.embed(texts, layer: layer, cache: &cache, progress: progress.update)
    }
    progress.finish()
    let seconds = Date().timeIntervalSince(start)
    let normalize = args.flag("normalize") || (layer == layers && encoder.configuration.normalize)
    if normalize { vectors = try unitRows(vectors) { "\(corpusPath): item '\(corpus.items[$0].id)'" } }
    let record = EmbeddingRecord(
        provenance: .current(
            command: io.commandLine, inputs: try Provenance.checksums([corpusPath] + (try encoder.folder.configurationPaths())),
            model: encoder.modelHash),
        modelFolder: encoder.folder.path, layer: layer, prompt: encoder.prompt.isEmpty ? nil : encoder.prompt, normalized: normalize,
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
    io.note("wrote \(out): \(vectors.rows) × \(vectors.cols), layer \(layer)\(normalize ? ", normalised" : "") (\(rate))")
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

/// What `embed` and `bench encoder` read from their arguments: the --corpus file with every item's text, the
/// encoder of --model with the prompt of --prompt, and the layer of --layer (default: the last).
struct EmbeddingRequest {
    let corpus: Corpus
    let texts: [String]
    let encoder: SentenceEncoder
    let layer: Int

    init(_ args: Arguments) throws {
        let corpusPath = try args.required("corpus")
        corpus = try CorpusReader.read(
            path: corpusPath, columns: CorpusColumns(id: args.values["id-column"], text: args.values["text-column"]))
        texts = try corpus.items.map { item in
            guard let t = item.text else { throw ThemeLabError.input("\(corpusPath): item '\(item.id)' has no text to embed") }
            return t
        }
        encoder = try SentenceEncoder(folder: ModelFolder.locate(explicit: args["model"]), prompt: args["prompt"])
        layer = try args.int("layer", default: encoder.configuration.layers, range: 0...encoder.configuration.layers)
    }
}
