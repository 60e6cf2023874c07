import ThemeLabCore

/// RoBERTa and XLM-RoBERTa (Liu et al. 2019; Conneau et al. 2020; transformers' `RobertaModel`, `XLMRobertaModel`): BERT's
/// tensors, but positions numbered from the padding id + 1 (transformers' `create_position_ids_from_input_ids` on an
/// unpadded sentence) and a token-type table of one row.
package struct RoBERTaArchitecture: EncoderArchitecture {
    package static let modelTypes = ["roberta", "xlm-roberta"]
    package static let summary = "BERT's layers; positions numbered after the padding id; XLM-RoBERTa too"
    package let name: String
    package let shape: EncoderShape
    package let paddingId: Int

    package init(config c: ConfigurationFile) throws {
        name = (c.values["model_type"] as? String) == "xlm-roberta" ? "XLM-RoBERTa" : "RoBERTa"
        paddingId = (c.values["pad_token_id"] as? Int) ?? 1
        shape = try c.bertShape(epsilon: 1e-5)
        guard paddingId >= 0, paddingId < shape.maxPositions - 1 else {
            throw ThemeLabError.input("\(c.path): pad_token_id \(paddingId) leaves no position below max_position_embeddings")
        }
    }

    package var embeddingNames: EmbeddingNames { .bert }
    package func layerNames(_ i: Int) -> LayerNames { BERTArchitecture.layer(i) }
    package func positionRow(_ p: Int) -> Int { p + paddingId + 1 }
    package var relativeAttention: RelativeAttentionBias? { nil }
}
