import Foundation
import ThemeLabCore

/// The forward pass of a post-layer-norm transformer encoder on the project's kernel (Vaswani et al. 2017), as
/// transformers computes BERT, DistilBERT, RoBERTa, XLM-RoBERTa and MPNet in inference mode; what differs between them
/// (tensor names, position numbering, token types, MPNet's relative-position bias) comes from the `EncoderArchitecture`:
///   h₀ = LayerNorm(word[id] + position[row(p)] + tokenType[0])
///   per layer: a = LayerNorm(h + Attention(h)·Wₒ + bₒ); h' = LayerNorm(a + GELU(a·W₁ + b₁)·W₂ + b₂)
/// Sentences in a batch are packed row after row (`TokenRows`), no padding: each projection is a product over the
/// batch's rows (Q|K|V over a group of sentences at a time) on the project's fixed-order kernel (`EncoderKernel`, where
/// a row's bits are its own), the residual additions and GELU done as it stores; attention runs per sentence on its own
/// rows, over its real tokens only. Weights are stored [out, in], hence `x·Wᵀ`, packed once at load.
package final class TransformerEncoder: @unchecked Sendable {
    package struct Linear {
        package var bias: [Float]
        package var input: Int, output: Int
        /// The weight [out, in], packed for the kernel as Wᵀ.
        package var packed: PackedMatrix

        package init(weight: FloatTensor, bias: [Float], input: Int, output: Int) {
            (self.bias, self.input, self.output) = (bias, input, output)
            packed = PackedMatrix(transposing: weight.start, stride: input, columns: output, depth: input)
        }
    }

    package struct LayerNorm {
        package var gamma: [Float], beta: [Float]
    }

    package struct Layer {
        /// Query, key and value projections stacked into one [3·hidden, hidden] weight.
        package var queryKeyValue: Linear
        package var attentionOutput: Linear
        package var attentionNorm: LayerNorm
        package var intermediate: Linear, output: Linear
        package var outputNorm: LayerNorm
    }

    package let configuration: EncoderConfiguration
    package var architecture: any EncoderArchitecture { configuration.architecture }
    package var shape: EncoderShape { configuration.architecture.shape }
    package let wordEmbeddings: FloatTensor, positionEmbeddings: FloatTensor
    /// Row 0 of the token-type table, or zeros.
    package let tokenType: [Float]
    package let embeddingNorm: LayerNorm
    package let layers: [Layer]
    /// MPNet's relative-position bias by head and distance, [heads, 2L − 1] for sentences of up to L tokens
    /// (`maxSequenceLength`): row h at L − 1 + (j − i) is bias[bucket(j − i), h], looked up once here, not per score.
    package let relativeBias: [Float]?

    package init(weights: SafeTensors, configuration c: EncoderConfiguration) throws {
        configuration = c
        let architecture = c.architecture
        let s = architecture.shape
        let h = s.hidden
        func tensors(_ name: String, _ input: Int, _ output: Int) throws -> (weight: FloatTensor, bias: [Float]) {
            (try weights.tensor("\(name).weight", shape: [output, input]), try weights.floats("\(name).bias", shape: [output]))
        }
        func linear(_ name: String, _ input: Int, _ output: Int) throws -> Linear {
            let (weight, bias) = try tensors(name, input, output)
            return Linear(weight: weight, bias: bias, input: input, output: output)
        }
        func norm(_ name: String) throws -> LayerNorm {
            LayerNorm(gamma: try weights.floats("\(name).weight", shape: [h]), beta: try weights.floats("\(name).bias", shape: [h]))
        }
        let names = architecture.embeddingNames
        wordEmbeddings = try weights.tensor(names.words, shape: [s.vocabSize, h])
        positionEmbeddings = try weights.tensor(names.positions, shape: [s.maxPositions, h])
        tokenType =
            try names.tokenTypes.map { name in
                // BERT has two token types, RoBERTa one; a sentence is all type 0.
                let rows = Swift.max(1, weights.entry(name)?.entry.shape.first ?? 1)
                return Array(try weights.floats(name, shape: [rows, h]).prefix(h))
            } ?? [Float](repeating: 0, count: h)
        embeddingNorm = try norm(names.norm)
        relativeBias = try architecture.relativeAttention.map { r in
            let table = try weights.floats(r.weight, shape: [r.buckets, s.heads])
            let distances = -(c.maxSequenceLength - 1)...(c.maxSequenceLength - 1)
            return (0..<s.heads).flatMap { head in distances.map { table[r.bucket($0) * s.heads + head] } }
        }
        layers = try (0..<s.layers).map { i in
            let n = architecture.layerNames(i)
            let qkv = try [n.query, n.key, n.value].map { try tensors($0, h, h) }
            return Layer(
                queryKeyValue: Linear(
                    weight: FloatTensor(copying: qkv.flatMap(\.weight.values)), bias: qkv.flatMap(\.bias), input: h, output: 3 * h),
                attentionOutput: try linear(n.attentionOutput, h, h), attentionNorm: try norm(n.attentionNorm),
                intermediate: try linear(n.intermediate, h, s.intermediate), output: try linear(n.output, s.intermediate, h),
                outputNorm: try norm(n.outputNorm))
        }
    }

    /// The hidden states of `layer` (0 = embedding output) for each sentence of a batch of token-id sequences, pooled by
    /// each of `modes` and concatenated: an n × (hidden · modes) matrix. `buffers` (grown as needed) hold the activations:
    /// a worker passes its own from batch to batch.
    package func pooled(_ batch: [[Int32]], layer: Int, modes: [PoolingMode], path: KernelPath, buffers: ForwardBuffers? = nil) -> Matrix {
        precondition((0...shape.layers).contains(layer), "layer out of range")
        let h = shape.hidden
        let packing = TokenRows(lengths: batch.map(\.count))
        let b = buffers ?? ForwardBuffers(shape)
        b.reserve(rows: packing.rows)
        tokenType.withUnsafeBufferPointer { type in
            for (s, ids) in batch.enumerated() {
                for (p, id) in ids.enumerated() {
                    let row = b.x + (packing.starts[s] + p) * h
                    let w = wordEmbeddings.start + Int(id) * h
                    let q = positionEmbeddings.start + architecture.positionRow(p) * h
                    for k in 0..<h { row[k] = w[k] + q[k] + type[k] }
                }
            }
        }
        layerNorm(b.x, embeddingNorm, rows: packing.rows, path: path)
        for l in layers.prefix(layer) { forward(l, b, packing, path: path) }

        var pooled = Matrix(rows: batch.count, cols: h * modes.count)
        pooled.storage.withUnsafeMutableBufferPointer { out in
            for (s, start) in packing.starts.enumerated() {
                for (m, mode) in modes.enumerated() {
                    mode.pool(b.x + start * h, count: packing.lengths[s], hidden: h, into: out.baseAddress! + (s * modes.count + m) * h)
                }
            }
        }
        return pooled
    }

    /// One matrix product C[m×n] = A[m×k]·Bᵀ of the forward pass.
    package struct MatrixProduct: Sendable, Equatable {
        package var m: Int, n: Int, k: Int
    }

    /// Sentences a layer takes through Q|K|V and attention at a time: at most this many rows (`TokenRows.groups`).
    static let attentionGroupRows = 96

    /// The products `pooled(_:layer:modes:)` makes for sentences of these token counts, in its order: per layer and
    /// group of sentences Q|K|V over the group's rows, then per sentence and head QKᵀ and P·V; then the attention
    /// output, the intermediate and the output projection over the batch (for timing sgemm alone on the encoder's shapes).
    package func matrixProducts(lengths: [Int], layer: Int) -> [MatrixProduct] {
        let c = shape
        let dh = c.hidden / c.heads
        let packing = TokenRows(lengths: lengths)
        let rows = packing.rows
        let perLayer =
            packing.groups(rows: Self.attentionGroupRows).flatMap { group in
                [MatrixProduct(m: packing.rows(group), n: 3 * c.hidden, k: c.hidden)]
                    + lengths[group].flatMap { n in
                        (0..<c.heads).flatMap { _ in [MatrixProduct(m: n, n: n, k: dh), MatrixProduct(m: n, n: dh, k: n)] }
                    }
            }
            + [
                MatrixProduct(m: rows, n: c.hidden, k: c.hidden), MatrixProduct(m: rows, n: c.intermediate, k: c.hidden),
                MatrixProduct(m: rows, n: c.hidden, k: c.intermediate),
            ]
        return Array(repeating: perLayer, count: layer).flatMap { $0 }
    }

    package func forward(_ l: Layer, _ b: ForwardBuffers, _ packing: TokenRows, path: KernelPath) {
        let h = shape.hidden
        // Q|K|V a few sentences at a time, each group's attention right after, while its keys and values are in cache.
        for group in packing.groups(rows: Self.attentionGroupRows) {
            let (start, rows) = (packing.starts[group.lowerBound], packing.rows(group))
            project(b.x + start * h, l.queryKeyValue, rows: rows, into: b.qkv + start * 3 * h, path: path)
            attention(b.qkv, packing, group, into: b.context, path: path)
        }
        project(b.context, l.attentionOutput, rows: packing.rows, into: b.a, residual: (UnsafePointer(b.x), h), path: path)
        layerNorm(b.a, l.attentionNorm, rows: packing.rows, path: path)
        project(b.a, l.intermediate, rows: packing.rows, into: b.inner, gelu: true, path: path)
        project(b.inner, l.output, rows: packing.rows, into: b.x, residual: (UnsafePointer(b.a), h), path: path)
        layerNorm(b.x, l.outputNorm, rows: packing.rows, path: path)
    }

    /// y = x·Wᵀ + b (+ residual) (then GELU) over all `rows` rows of a batch, one product on the kernel (a row's bits are
    /// its own); the residual connection and the activation are applied as the product is stored.
    package func project(
        _ x: UnsafePointer<Float>, _ f: Linear, rows: Int, into y: UnsafeMutablePointer<Float>,
        residual: (values: UnsafePointer<Float>, stride: Int)? = nil, gelu: Bool = false, path: KernelPath
    ) {
        f.bias.withUnsafeBufferPointer { b in
            let finish = EncoderKernel.Finish(bias: b.baseAddress!, residual: residual, gelu: gelu)
            EncoderKernel.product(path, rows: rows, x, lda: f.input, f.packed, finish, into: y, ldc: f.output)
        }
    }

    /// Scaled dot-product attention per sentence (of `sentences`) and head over its real tokens, softmax(QKᵀ/√dₕ)·V,
    /// reading Q, K and V from the rows of the stacked projection [Q | K | V]; K and V of a head are packed for the kernel
    /// as they are used, into one scratch buffer (scores, keys, values) kept for all the sentences.
    package func attention(
        _ qkv: UnsafePointer<Float>, _ packing: TokenRows, _ sentences: Range<Int>, into context: UnsafeMutablePointer<Float>,
        path: KernelPath
    ) {
        let h = shape.hidden
        let dh = h / shape.heads
        let scale = 1 / Float(dh).squareRoot()
        let longest = packing.lengths[sentences].max() ?? 0
        let (keysSize, valuesSize) = (PackedMatrix.size(columns: longest, depth: dh), PackedMatrix.size(columns: dh, depth: longest))
        let s = UnsafeMutablePointer<Float>.allocate(capacity: longest * longest + keysSize + valuesSize)
        defer { s.deallocate() }
        let (keys, values) = (s + longest * longest, s + longest * longest + keysSize)
        let (q, k, v) = (qkv, qkv + h, qkv + 2 * h)
        for (start, n) in zip(packing.starts[sentences], packing.lengths[sentences]) {
            for head in 0..<shape.heads {
                let (input, output) = (start * 3 * h + head * dh, start * h + head * dh)
                PackedMatrix.pack(transposing: k + input, stride: 3 * h, columns: n, depth: dh, into: keys)
                EncoderKernel.product(
                    path, rows: n, q + input, lda: 3 * h, packed: keys, columns: n, depth: dh, EncoderKernel.Finish(scale: scale), into: s,
                    ldc: n)
                if let bias = relativeBias { addRelativeBias(bias, head: head, to: s, n) }
                EncoderKernel.softmax(path, s, rows: n, columns: n)
                PackedMatrix.pack(v + input, stride: 3 * h, depth: n, columns: dh, into: values)
                EncoderKernel.product(path, rows: n, s, lda: n, packed: values, columns: dh, depth: n, into: context + output, ldc: h)
            }
        }
    }

    /// MPNet: score[i, j] += bias[bucket(j − i), head] (`RelativeAttentionBias`), after the 1/√dₕ scaling.
    package func addRelativeBias(_ bias: [Float], head: Int, to scores: UnsafeMutablePointer<Float>, _ n: Int) {
        let longest = configuration.maxSequenceLength
        precondition(n <= longest, "a sentence longer than the tokenizer's maximum")
        bias.withUnsafeBufferPointer { bias in
            let zero = bias.baseAddress! + head * (2 * longest - 1) + longest - 1  // distance 0
            for i in 0..<n {
                for j in 0..<n { scores[i * n + j] += zero[j - i] }
            }
        }
    }

    /// (x − mean)/√(var + ε)·γ + β over each row (statistics in Float64, `EncoderKernel.layerNorm`).
    package func layerNorm(_ x: UnsafeMutablePointer<Float>, _ n: LayerNorm, rows: Int, path: KernelPath) {
        EncoderKernel.layerNorm(
            path, UnsafeMutableBufferPointer(start: x, count: rows * shape.hidden), rows: rows, width: shape.hidden, gamma: n.gamma,
            beta: n.beta, epsilon: Double(shape.layerNormEpsilon))
    }
}

/// Where each sentence's token rows sit in a batch: one after another, no padding. The kernel computes each output
/// element from its own row alone (`EncoderKernel`), so a text's vector never depends on its batch-mates or its place
/// (checked by the tests that embed texts alone and in batches, on every path).
package struct TokenRows {
    package let lengths: [Int]
    package let starts: [Int]
    /// Rows in all.
    package let rows: Int

    package init(lengths: [Int]) {
        self.lengths = lengths
        var starts: [Int] = []
        var next = 0
        for n in lengths {
            starts.append(next)
            next += n
        }
        self.starts = starts
        rows = next
    }

    /// Rows of a run of sentences.
    package func rows(_ sentences: Range<Int>) -> Int {
        sentences.isEmpty ? 0 : starts[sentences.upperBound - 1] + lengths[sentences.upperBound - 1] - starts[sentences.lowerBound]
    }

    /// The sentences in runs of at most `rows` rows (a longer sentence alone), in order.
    package func groups(rows limit: Int) -> [Range<Int>] {
        var groups: [Range<Int>] = []
        var first = 0
        for s in lengths.indices where s > first && rows(first..<(s + 1)) > limit {
            groups.append(first..<s)
            first = s
        }
        return lengths.isEmpty ? [] : groups + [first..<lengths.count]
    }
}
