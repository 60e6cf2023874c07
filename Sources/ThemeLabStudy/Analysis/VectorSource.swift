import Foundation
import ThemeLabCore
import ThemeLabCorpus
import ThemeLabEncoder
import ThemeLabMeasures
import ThemeLabMethods
import ThemeLabPairs

/// Where a corpus's vectors come from: a `.npy` file (rows in corpus order) or an encoder.
package enum VectorSource: Sendable, Equatable {
    case embeddings(path: String)
    /// A sentence-transformers folder (nil: the default one) and a layer (nil: the last).
    case model(folder: String?, layer: Int?)

    package struct Vectors {
        package var matrix: Matrix
        /// For reports: "all-MiniLM-L6-v2 (53aa5117) layer 6" or "embeddings x.npy".
        package var description: String
        package var modelHash: String?
        /// Files read, for input checksums.
        package var files: [String]

        package init(matrix: Matrix, description: String, modelHash: String?, files: [String]) {
            self.matrix = matrix
            self.description = description
            self.modelHash = modelHash
            self.files = files
        }
    }

    package func vectors(
        for corpus: Corpus, cacheFolder: String = ProcessEnvironment.cacheFolder, log: (String) -> Void = { _ in },
        progress: ((Int, Int) -> Void)? = nil
    ) throws -> Vectors {
        switch self {
        case .embeddings(let path):
            return Vectors(matrix: try NPY.read(path: path), description: try description(), modelHash: nil, files: [path])
        case .model(let folder, let layer):
            guard corpus.items.contains(where: { $0.text != nil }) else {
                throw ThemeLabError.input(
                    "corpus '\(corpus.name)': no item has a text to embed (a corpus file's texts are its 'text' field unless "
                        + "--text-column, or textColumn in an experiment file, names another; or give vectors with --embeddings)")
            }
            let encoder = try SentenceEncoder.shared(folder: ModelFolder.locate(explicit: folder))
            let k = layer ?? encoder.configuration.layers
            let texts = try corpus.items.map { item -> String in
                guard let t = item.text else {
                    throw ThemeLabError.input("corpus '\(corpus.name)': item '\(item.id)' has no text to embed")
                }
                return t
            }
            var cache = try EmbeddingCache.shared(folder: cacheFolder, encoder: encoder, layer: k)
            if let warning = cache.warning { log(warning) }
            let fresh = cache.uncached(texts).count
            log(
                fresh == 0
                    ? "\(corpus.name): all \(texts.count) texts read from the embedding cache (layer \(k))"
                    : "embedding \(fresh) of \(texts.count) texts of \(corpus.name) (layer \(k))"
                        + (fresh < texts.count ? "; the rest from the cache" : ""))
            let m = try encoder.embed(texts, layer: k, cache: &cache, progress: progress)
            EmbeddingCache.keep(cache)
            return Vectors(
                matrix: m, description: Self.description(encoder, layer: k), modelHash: encoder.modelHash, files: try encoder.folder.files()
            )
        }
    }

    /// What `vectors` says the vectors are, known before any text is embedded (a model's encoder is loaded for its hash):
    /// "all-MiniLM-L6-v2 (53aa5117) layer 6", "embeddings x.npy".
    package func description() throws -> String {
        switch self {
        case .embeddings(let path): return "embeddings \(URL(fileURLWithPath: path).lastPathComponent)"
        case .model(let folder, let layer):
            let encoder = try SentenceEncoder.shared(folder: ModelFolder.locate(explicit: folder))
            return Self.description(encoder, layer: layer ?? encoder.configuration.layers)
        }
    }

    /// The folder's name (its parent's when it is called `model`, the bootstrap package's layout), the model's hash and
    /// the layer.
    private static func description(_ encoder: SentenceEncoder, layer: Int) -> String {
        let parts = URL(fileURLWithPath: encoder.folder.path).standardizedFileURL.pathComponents
        let name = (parts.last == "model" ? parts.dropLast().last : parts.last) ?? "model"
        return "\(name) (\(encoder.modelHash.prefix(8)))\(layerMark)\(layer)"
    }
}

extension SentenceEncoder {
    nonisolated(unsafe) private static var loaded: [String: SentenceEncoder] = [:]
    private static let lock = NSLock()

    /// One encoder per folder per process (loading hashes and copies ~90 MB of weights).
    package static func shared(folder: ModelFolder) throws -> SentenceEncoder {
        try lock.withLock {
            if let e = loaded[folder.path] { return e }
            let e = try SentenceEncoder(folder: folder)
            loaded[folder.path] = e
            return e
        }
    }
}

extension VectorSource {
    /// What precedes the layer in an encoder's description.
    package static let layerMark = " layer "

    /// The layer an encoder's description (`Vectors.description`) names, nil for embeddings files.
    package static func layer(inDescription description: String) -> Int? {
        guard let range = description.range(of: layerMark, options: .backwards) else { return nil }
        return Int(description[range.upperBound...])
    }

    /// The encoder an encoder's description names, without its layer ("all-MiniLM-L6-v2 (53aa5117)"); the whole
    /// description for other sources.
    package static func encoder(inDescription description: String) -> String {
        guard let range = description.range(of: layerMark, options: .backwards) else { return description }
        return String(description[..<range.lowerBound])
    }
}
