import Foundation
import ThemeLabCore

/// What one encoder architecture's `config.json` and weights look like: how its sizes are named, what its tensors are
/// called, how token positions index the position table and whether attention adds a relative-position bias. The one
/// place per architecture (a file each, chosen by `model_type`); the layers themselves (attention, feed-forward,
/// layer norms after each) are the same for all and written once (`TransformerEncoder`).
package protocol EncoderArchitecture: Sendable {
    /// config.json's `model_type` values it reads.
    static var modelTypes: [String] { get }
    /// One line for docs: what it is and what sets it apart.
    static var summary: String { get }
    /// Reads the sizes from config.json (`file` names it in errors).
    init(config: ConfigurationFile) throws
    /// "BERT", for `themelab env`.
    var name: String { get }
    var shape: EncoderShape { get }
    var embeddingNames: EmbeddingNames { get }
    func layerNames(_ layer: Int) -> LayerNames
    /// The row of the position table for the token at place p of a sentence (from 0).
    func positionRow(_ p: Int) -> Int
    /// MPNet's bias on attention scores by relative position; nil elsewhere.
    var relativeAttention: RelativeAttentionBias? { get }
}

/// The sizes every architecture has.
package struct EncoderShape: Sendable, Equatable {
    package var layers: Int, hidden: Int, heads: Int, intermediate: Int
    package var maxPositions: Int, vocabSize: Int
    package var layerNormEpsilon: Float

    /// The largest sizes a config.json may declare, each checked as it is read: far above every released encoder
    /// (BERT-large: 24 layers, hidden 1 024, 16 heads, intermediate 4 096; XLM-RoBERTa: a vocabulary of 250 002;
    /// long-context encoders: 8 192 positions), at the bounds the harness holds layers and dimensions to
    /// (`Validation.layer`, `Validation.dimensions`), and small enough that no product of them the encoder forms
    /// (vocabulary × hidden, positions × hidden, hidden × pooling modes) can overflow.
    package static let largest = EncoderShape(
        layers: 1_000, hidden: 65_536, heads: 65_536, intermediate: 262_144, maxPositions: 1_048_576, vocabSize: 16_777_216,
        layerNormEpsilon: 1)
}

/// Tensor names of the embedding layer; no token-type table in DistilBERT and MPNet.
package struct EmbeddingNames: Sendable {
    package var words: String, positions: String, tokenTypes: String?, norm: String

    /// BERT's names, which RoBERTa keeps and DistilBERT and MPNet keep without the token-type table.
    package static let bert = EmbeddingNames(
        words: "embeddings.word_embeddings.weight", positions: "embeddings.position_embeddings.weight",
        tokenTypes: "embeddings.token_type_embeddings.weight", norm: "embeddings.LayerNorm")

    package static let withoutTokenTypes = EmbeddingNames(words: bert.words, positions: bert.positions, tokenTypes: nil, norm: bert.norm)
}

/// Tensor names of one layer (each a Linear with `.weight` and `.bias`, or a LayerNorm).
package struct LayerNames: Sendable {
    package var query: String, key: String, value: String
    package var attentionOutput: String, attentionNorm: String
    package var intermediate: String, output: String, outputNorm: String
}

/// MPNet's relative-position bias: a [buckets, heads] table added to every layer's attention scores, the bucket of
/// key place j against query place i from `bucket(j − i)` (T5's bidirectional buckets, as transformers'
/// `MPNetEncoder.relative_position_bucket`).
package struct RelativeAttentionBias: Sendable {
    package var weight: String
    package var buckets: Int
    package var maxDistance = 128

    /// Exact buckets for |distance| < buckets/4, logarithmic up to `maxDistance`; the second half of the buckets for
    /// keys before the query. Float32 arithmetic and truncation, as torch computes it.
    package func bucket(_ relative: Int) -> Int {
        let half = buckets / 2
        var n = -relative
        let offset = n < 0 ? half : 0
        n = abs(n)
        let exact = half / 2
        if n < exact { return offset + n }
        let scaled = logf(Float(n) / Float(exact)) / Float(log(Double(maxDistance) / Double(exact))) * Float(half - exact)
        return offset + Swift.min(exact + Int(scaled), half - 1)
    }
}

/// config.json as read by an architecture: positive integers and numbers by key, errors naming the file and key.
package struct ConfigurationFile {
    package let path: String
    package let values: [String: Any]

    package func int(_ key: String) throws -> Int {
        guard let v = values[key] as? Int, v > 0 else { throw ThemeLabError.input("\(path): '\(key)' must be a positive integer") }
        return v
    }

    /// A positive integer of at most `limit` (a size from `EncoderShape.largest`).
    package func int(_ key: String, atMost limit: Int) throws -> Int {
        let v = try int(key)
        guard v <= limit else { throw ThemeLabError.input("\(path): '\(key)' is \(v); the encoder runs sizes up to \(limit)") }
        return v
    }

    package func int(_ key: String, default value: Int) throws -> Int { values[key] == nil ? value : try int(key) }

    /// Each of an architecture's sizes from its key in config.json, within `EncoderShape.largest`.
    package func shape(
        layers: String, hidden: String, heads: String, intermediate: String, positions: String = "max_position_embeddings",
        vocabulary: String = "vocab_size", epsilon: Float
    ) throws -> EncoderShape {
        let most = EncoderShape.largest
        return try validated(
            EncoderShape(
                layers: try int(layers, atMost: most.layers), hidden: try int(hidden, atMost: most.hidden),
                heads: try int(heads, atMost: most.heads), intermediate: try int(intermediate, atMost: most.intermediate),
                maxPositions: try int(positions, atMost: most.maxPositions), vocabSize: try int(vocabulary, atMost: most.vocabSize),
                layerNormEpsilon: epsilon))
    }

    /// A small positive epsilon (`layer_norm_eps`), `value` when absent.
    package func epsilon(_ key: String, default value: Double) throws -> Float {
        let e = (values[key] as? Double) ?? value
        guard e > 0, e.isFinite, e < 1 else {
            throw ThemeLabError.input("\(path): '\(key)' must be a small positive number, got \(values[key].map { "\($0)" } ?? "")")
        }
        return Float(e)
    }

    /// Refuses an activation other than GELU's erf form, naming the key.
    package func requireGELU(_ key: String) throws {
        let activation = (values[key] as? String) ?? "gelu"
        guard activation == "gelu" else {
            throw ThemeLabError.input("\(path): \(key) '\(activation)' is not supported (expected 'gelu', the erf form)")
        }
    }

    /// The sizes as BERT's config.json names them (BERT, RoBERTa, MPNet), checked; `epsilon` when layer_norm_eps is absent.
    package func bertShape(epsilon: Double) throws -> EncoderShape {
        try requireGELU("hidden_act")
        return try shape(
            layers: "num_hidden_layers", hidden: "hidden_size", heads: "num_attention_heads", intermediate: "intermediate_size",
            epsilon: try self.epsilon("layer_norm_eps", default: epsilon))
    }

    /// The checks every architecture's sizes get.
    package func validated(_ shape: EncoderShape) throws -> EncoderShape {
        guard shape.hidden % shape.heads == 0 else {
            throw ThemeLabError.input("\(path): hidden size \(shape.hidden) is not a multiple of the \(shape.heads) attention heads")
        }
        return shape
    }
}

/// The architectures the harness runs, by `model_type`.
package enum Architectures {
    package static let all: [any EncoderArchitecture.Type] = [
        BERTArchitecture.self, DistilBERTArchitecture.self, RoBERTaArchitecture.self, MPNetArchitecture.self,
    ]

    package static func make(_ config: ConfigurationFile) throws -> any EncoderArchitecture {
        let type = (config.values["model_type"] as? String) ?? "bert"
        guard let kind = all.first(where: { $0.modelTypes.contains(type) }) else {
            let known = all.flatMap { $0.modelTypes }.joined(separator: ", ")
            throw ThemeLabError.input("\(config.path): model_type '\(type)' is not supported (expected one of \(known))")
        }
        return try kind.init(config: config)
    }
}
