import Dispatch
import Foundation
import ThemeLabCore

/// Text → sentence vectors of a chosen layer: the folder's prompt, tokenizer, transformer, pooling modes and Dense
/// layers together (Normalize is the harness's own unit-normalisation, applied where a vector is used).
/// Sentences are sorted by token count and packed into batches of similar length (`batches`); two workers each run whole
/// batches, longest first, on the fixed-order kernel (`EncoderKernel`), whose bits depend on neither the batch nor the SIMD path.
package final class SentenceEncoder: @unchecked Sendable {
    package let folder: ModelFolder
    package let configuration: EncoderConfiguration
    package let tokenizer: any SentenceTokenizer
    package let model: TransformerEncoder
    /// The Dense layers' weights, in order.
    package let dense: [DenseLayer]
    /// The text put before every sentence (`PromptSettings`; "" for none).
    package let prompt: String
    /// SHA-256 of model.safetensors.
    package let modelHash: String
    /// SHA-256 over the other files that shape a vector (`ModelFolder.configurationFileNames`, each by name and SHA-256,
    /// or "absent") and the prompt.
    package let configurationHash: String
    package var tokensPerBatch = 2048
    package var workers = ProcessInfo.processInfo.activeProcessorCount
    /// The kernel's path (`KernelPath`): the same bits on each, only the speed differs.
    package let path: KernelPath

    /// `prompt` names one of the folder's prompts ("none" for none; nil: the folder's default); `path` the kernel's path
    /// (nil: `$THEMELAB_ENCODER_PATH`, else the widest this CPU runs).
    package init(folder: ModelFolder, prompt promptName: String? = nil, path: KernelPath? = nil) throws {
        self.folder = folder
        self.path = try path ?? EncoderKernel.path(asked: ProcessEnvironment.encoderPath)
        let weightsPath = "\(folder.path)/model.safetensors"
        let names = try folder.configurationFileNames()
        // The hashes name the bytes read only if no file changed between the snapshot and the last hash.
        let snapshot = try FileSnapshot([weightsPath] + names.map { "\(folder.path)/\($0)" })
        configuration = try folder.configuration()
        prompt = try configuration.prompts.text(promptName)
        tokenizer = try TokenizerFile.load(folder, configuration: configuration)
        model = try TransformerEncoder(weights: try SafeTensors(path: weightsPath), configuration: configuration)
        dense = try configuration.dense.map { try DenseLayer($0, folder: folder) }
        modelHash = try FileHashCache.hex(file: weightsPath)
        let files = try names.map { name in
            let path = "\(folder.path)/\(name)"
            return "\(name) " + (FileManager.default.fileExists(atPath: path) ? try SHA256.hex(file: path) : "absent") + "\n"
        }
        try snapshot.verify()
        // The prompt shapes every vector too.
        configurationHash = SHA256.hex(Data((files.joined() + (prompt.isEmpty ? "" : "prompt \(prompt.debugDescription)\n")).utf8))
    }

    /// Names the encoder's own arithmetic (the forward pass's code): raised whenever a change moves a vector's bits, so
    /// no cache hands back vectors the current code would not compute.
    /// 3: the encoder's own fixed-order kernel in place of BLAS.
    /// 4: softmax's exp by Cephes's expf (was libm's), layer norm's sums in eight fixed lanes, on every path.
    package static let arithmeticVersion = 4

    /// What the embedding cache is keyed by: the weights, the configuration and the encoder's arithmetic (its own
    /// kernel, so no BLAS kernel or SIMD path).
    package var cacheIdentity: String {
        SHA256.hex(Data("\(modelHash) \(configurationHash) encoder-\(Self.arithmeticVersion)".utf8))
    }

    /// Dimensions of the last layer's vectors.
    package var dimensions: Int { configuration.sentenceDimensions }

    /// Texts (as token ids) in batches, longest first, in the order the workers take them: indices into `ids`. A batch
    /// holds up to `tokensPerBatch` tokens, and near the end a quarter of what is left per worker (at least
    /// `tokensPerBatch / 16`), so the last batches are small and the workers finish at about the same time.
    package func batches(_ ids: [[Int32]]) -> [[Int]] {
        let order = ids.indices.sorted { (ids[$0].count, $1) > (ids[$1].count, $0) }
        var left = ids.reduce(0) { $0 + $1.count }
        var batches: [[Int]] = [[]]
        var budget = 0
        for i in order {
            let limit = min(tokensPerBatch, max(tokensPerBatch / 16, left / (4 * max(1, workers))))
            if !batches[batches.count - 1].isEmpty && budget + ids[i].count > limit {
                batches.append([])
                budget = 0
            }
            batches[batches.count - 1].append(i)
            budget += ids[i].count
            left -= ids[i].count
        }
        return batches
    }

    /// Each text's token ids, the prompt before it, tokenised by the workers side by side.
    package func tokenize(_ texts: [String]) -> [[Int32]] {
        let chunk = 256
        let queue = WorkQueue(count: (texts.count + chunk - 1) / chunk, state: [[Int32]](repeating: [], count: texts.count))
        DispatchQueue.concurrentPerform(iterations: max(1, min(workers, texts.count / chunk))) { _ in
            while let c = queue.take() {
                let range = c * chunk..<min(texts.count, (c + 1) * chunk)
                let ids = range.map { tokenizer.encode(prompt + texts[$0]) }
                queue.withState { $0.replaceSubrange(range, with: ids) }
            }
        }
        return queue.withState { $0 }
    }

    /// Pooled vectors of one layer.
    /// - Parameters:
    ///   - texts: the sentences, tokenized as the model folder says.
    ///   - layer: 0 = the embeddings, `configuration.layers` = the last (after the Dense layers, as sentence-transformers).
    ///   - progress: sentences done and the total.
    /// - Returns: one row per text, not normalised.
    package func embed(_ texts: [String], layer: Int, progress: ((Int, Int) -> Void)? = nil) throws -> Matrix {
        guard (0...configuration.layers).contains(layer) else {
            throw ThemeLabError.invalid("--layer must be 0...\(configuration.layers) for this model, got \(layer)")
        }
        let ids = tokenize(texts)
        let packed = batches(ids)
        // The Dense layers follow the last layer only (an earlier layer's pooled vector is what a probe of it wants).
        let layerDense = layer == configuration.layers ? dense : []
        let h = layerDense.last?.module.outputs ?? configuration.pooledDimensions
        var out = Matrix(rows: texts.count, cols: h)
        struct Results {
            package var pooled: [Matrix?]
            package var done = 0
            package var progress: ((Int, Int) -> Void)?
        }
        let queue = WorkQueue(count: packed.count, state: Results(pooled: Array(repeating: nil, count: packed.count), progress: progress))
        let path = path
        DispatchQueue.concurrentPerform(iterations: min(workers, packed.count)) { _ in
            let buffers = ForwardBuffers(model.shape)
            while let b = queue.take() {
                let pooled = layerDense.reduce(
                    model.pooled(packed[b].map { ids[$0] }, layer: layer, modes: configuration.pooling, path: path, buffers: buffers)
                ) { $1.apply($0, path: path) }
                queue.withState { r in
                    r.pooled[b] = pooled
                    r.done += packed[b].count
                    r.progress?(r.done, texts.count)
                }
            }
        }
        let pooledBatches = queue.withState { $0.pooled }
        for (b, batch) in packed.enumerated() {
            let pooled = pooledBatches[b]!
            for (r, i) in batch.enumerated() {
                for k in 0..<h { out[i, k] = pooled[r, k] }
                guard (0..<h).allSatisfy({ out[i, $0].isFinite }) else {
                    throw ThemeLabError.input(
                        "\(folder.path): the model gave a non-finite vector for text \(i + 1) "
                            + "(\(String(texts[i].prefix(40)).debugDescription))"
                    )
                }
            }
        }
        return out
    }
}
