import ThemeLabCore

/// MPNet (Song et al. 2020; transformers' `MPNetModel`, the encoder of all-mpnet-base-v2): word + position embeddings,
/// positions numbered from 2 (its padding id 1, + 1), no token types, and a relative-position bias on every layer's
/// attention scores (`RelativeAttentionBias`).
package struct MPNetArchitecture: EncoderArchitecture {
    package static let modelTypes = ["mpnet"]
    package static let summary = "no token types, positions from 2, a relative-position bias on attention scores"
    package let name = "MPNet"
    package let shape: EncoderShape
    package let relativeAttention: RelativeAttentionBias?

    package init(config c: ConfigurationFile) throws {
        shape = try c.bertShape(epsilon: 1e-12)
        let buckets = try c.int("relative_attention_num_buckets", default: 32)
        // Fewer than 4 leave no exact bucket, 512 or more none for log distances up to 128 (`RelativeAttentionBias.bucket`).
        guard (4..<512).contains(buckets) else {
            throw ThemeLabError.input("\(c.path): relative_attention_num_buckets \(buckets) is outside 4…511")
        }
        relativeAttention = RelativeAttentionBias(weight: "encoder.relative_attention_bias.weight", buckets: buckets)
    }

    package var embeddingNames: EmbeddingNames { .withoutTokenTypes }

    package func layerNames(_ i: Int) -> LayerNames {
        let p = "encoder.layer.\(i)"
        return LayerNames(
            query: "\(p).attention.attn.q", key: "\(p).attention.attn.k", value: "\(p).attention.attn.v",
            attentionOutput: "\(p).attention.attn.o", attentionNorm: "\(p).attention.LayerNorm", intermediate: "\(p).intermediate.dense",
            output: "\(p).output.dense", outputNorm: "\(p).output.LayerNorm")
    }

    /// MPNet's padding id is fixed at 1 in transformers (`MPNetEmbeddings.padding_idx`).
    package func positionRow(_ p: Int) -> Int { p + 2 }
}
