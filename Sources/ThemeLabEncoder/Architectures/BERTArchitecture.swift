import ThemeLabCore

/// BERT (Devlin et al. 2019; transformers' `BertModel`): word + position + token-type (0) embeddings, positions from 0.
package struct BERTArchitecture: EncoderArchitecture {
    package static let modelTypes = ["bert"]
    package static let summary = "word, position and token-type embeddings; positions from 0"
    package let name = "BERT"
    package let shape: EncoderShape

    package init(config c: ConfigurationFile) throws {
        shape = try c.bertShape(epsilon: 1e-12)
    }

    package var embeddingNames: EmbeddingNames { .bert }

    package func layerNames(_ i: Int) -> LayerNames { Self.layer(i) }

    package static func layer(_ i: Int) -> LayerNames {
        let p = "encoder.layer.\(i)"
        return LayerNames(
            query: "\(p).attention.self.query", key: "\(p).attention.self.key", value: "\(p).attention.self.value",
            attentionOutput: "\(p).attention.output.dense", attentionNorm: "\(p).attention.output.LayerNorm",
            intermediate: "\(p).intermediate.dense", output: "\(p).output.dense", outputNorm: "\(p).output.LayerNorm")
    }

    package func positionRow(_ p: Int) -> Int { p }
    package var relativeAttention: RelativeAttentionBias? { nil }
}
