/// BERT (Devlin et al. 2019; transformers' `BertModel`): word + position + token-type (0) embeddings, positions from 0.
struct BERTArchitecture: EncoderArchitecture {
    static let modelTypes = ["bert"]
    let name = "BERT"
    let shape: EncoderShape

    init(config c: ConfigurationFile) throws {
        shape = try c.bertShape(epsilon: 1e-12)
    }

    var embeddingNames: EmbeddingNames { .bert }

    func layerNames(_ i: Int) -> LayerNames { Self.layer(i) }

    static func layer(_ i: Int) -> LayerNames {
        let p = "encoder.layer.\(i)"
        return LayerNames(
            query: "\(p).attention.self.query", key: "\(p).attention.self.key", value: "\(p).attention.self.value",
            attentionOutput: "\(p).attention.output.dense", attentionNorm: "\(p).attention.output.LayerNorm",
            intermediate: "\(p).intermediate.dense", output: "\(p).output.dense", outputNorm: "\(p).output.LayerNorm")
    }

    func positionRow(_ p: Int) -> Int { p }
    var relativeAttention: RelativeAttentionBias? { nil }
}
