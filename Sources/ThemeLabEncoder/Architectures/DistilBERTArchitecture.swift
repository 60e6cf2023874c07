import ThemeLabCore

/// DistilBERT (Sanh et al. 2019; transformers' `DistilBertModel`): word + position embeddings (no token types), its own
/// tensor names (`q_lin`, `sa_layer_norm`, `ffn.lin1`, …) and sizes (`dim`, `n_layers`, `hidden_dim`), LayerNorm ε 1e-12.
package struct DistilBERTArchitecture: EncoderArchitecture {
    package static let modelTypes = ["distilbert"]
    package static let summary = "BERT without token types, its own tensor names"
    package let name = "DistilBERT"
    package let shape: EncoderShape

    package init(config c: ConfigurationFile) throws {
        try c.requireGELU("activation")
        shape = try c.shape(layers: "n_layers", hidden: "dim", heads: "n_heads", intermediate: "hidden_dim", epsilon: 1e-12)
    }

    package var embeddingNames: EmbeddingNames { .withoutTokenTypes }

    package func layerNames(_ i: Int) -> LayerNames {
        let p = "transformer.layer.\(i)"
        return LayerNames(
            query: "\(p).attention.q_lin", key: "\(p).attention.k_lin", value: "\(p).attention.v_lin",
            attentionOutput: "\(p).attention.out_lin", attentionNorm: "\(p).sa_layer_norm", intermediate: "\(p).ffn.lin1",
            output: "\(p).ffn.lin2", outputNorm: "\(p).output_layer_norm")
    }

    package func positionRow(_ p: Int) -> Int { p }
    package var relativeAttention: RelativeAttentionBias? { nil }
}
