import Foundation
import Testing
import ThemeLabCore
import ThemeLabEncoder

/// sentence-transformers' pooling modes: each by hand on three tokens, the modes a `1_Pooling/config.json` turns on and
/// the refusals, and a model folder whose pooling concatenates CLS and mean.
@Suite struct PoolingTests {
    /// Tokens (1, 2), (3, −1), (−2, 4): CLS (1, 2); max (3, 4); mean (2/3, 5/3); mean-sqrt-len (2/√3, 5/√3); weighted
    /// mean with weights 1, 2, 3 ((1 + 6 − 6)/6, (2 − 2 + 12)/6) = (1/6, 2); last token (−2, 4).
    static let byHand: [(PoolingMode, [Float])] = [
        (.cls, [1, 2]), (.max, [3, 4]), (.mean, [Float(2) / 3, Float(5) / 3]),
        (.meanSqrtLength, [2 / Float(3).squareRoot(), 5 / Float(3).squareRoot()]), (.weightedMean, [Float(1) / 6, 2]),
        (.lastToken, [-2, 4]),
    ]

    @Test(arguments: byHand)
    func eachModeByHand(_ mode: PoolingMode, _ expected: [Float]) {
        let tokens: [Float] = [1, 2, 3, -1, -2, 4]
        var out = [Float](repeating: .nan, count: 2)
        tokens.withUnsafeBufferPointer { t in
            out.withUnsafeMutableBufferPointer { mode.pool(t.baseAddress!, count: 3, hidden: 2, into: $0.baseAddress!) }
        }
        for (a, b) in zip(out, expected) { #expect(a.isApproximatelyEqual(to: b, absoluteTolerance: 1e-6), "\(mode): \(out)") }
    }

    @Test func configTurnsModesOnInSentenceTransformersOrder() throws {
        let both: [String: Any] = ["word_embedding_dimension": 384, "pooling_mode_mean_tokens": true, "pooling_mode_cls_token": true]
        #expect(try PoolingMode.modes(both, file: "p") == [.cls, .mean])
        #expect(try PoolingMode.modes(["pooling_mode_lasttoken": true, "pooling_mode_max_tokens": false], file: "p") == [.lastToken])
        #expect(
            errorMessage {
                _ = try PoolingMode.modes(["pooling_mode_mean_tokens": true, "pooling_mode_attention": true], file: "p/config.json")
            }
                == "p/config.json: pooling mode 'pooling_mode_attention' is not supported (expected pooling_mode_cls_token, "
                + "pooling_mode_max_tokens, pooling_mode_mean_tokens, pooling_mode_mean_sqrt_len_tokens, pooling_mode_weightedmean_tokens, "
                + "pooling_mode_lasttoken)")
        #expect(
            errorMessage { _ = try PoolingMode.modes(["pooling_mode_mean_tokens": false], file: "p/config.json") }
                == "p/config.json: no pooling mode is on (one of the pooling_mode_… keys must be true)")
    }

    /// The bootstrap model with its pooling set to CLS and mean: 768 dimensions, the second half the mean-pooled vector
    /// bit for bit, the first half the first token's hidden state, and a text's vector the same bits alone as beside others.
    /// The bootstrap model folder with `files` (path → contents) written in place of its own, the rest linked.
    static func variant(_ files: [String: String]) throws -> String {
        let original = try ModelFolder.locate().path
        let folder = temporaryFolder() + "/model"
        try FileManager.default.createDirectory(atPath: folder + "/1_Pooling", withIntermediateDirectories: true)
        for name in try FileManager.default.contentsOfDirectory(atPath: original) where !files.keys.contains(name) && name != "1_Pooling" {
            try FileManager.default.createSymbolicLink(atPath: "\(folder)/\(name)", withDestinationPath: "\(original)/\(name)")
        }
        if files["1_Pooling/config.json"] == nil {
            try FileManager.default.copyItem(atPath: original + "/1_Pooling/config.json", toPath: folder + "/1_Pooling/config.json")
        }
        for (name, text) in files {
            let parent = URL(fileURLWithPath: "\(folder)/\(name)").deletingLastPathComponent().path
            try FileManager.default.createDirectory(atPath: parent, withIntermediateDirectories: true)
            try AtomicFile.write(text, to: "\(folder)/\(name)")
        }
        return folder
    }

    /// A module the encoder does not run, another architecture and a malformed modules.json: one line naming the file
    /// and the value, before any weights are read.
    @Test func unsupportedModulesAndArchitecturesAreRefused() throws {
        let lstm =
            #"[{"type": "sentence_transformers.models.Transformer"}, {"type": "sentence_transformers.models.Pooling"}, "#
            + #"{"type": "sentence_transformers.models.LSTM", "path": "2_LSTM"}]"#
        var folder = try Self.variant(["modules.json": lstm])
        #expect(
            errorMessage { _ = try ModelFolder(path: folder).configuration() }
                == "\(folder)/modules.json: module 2 'sentence_transformers.models.LSTM' is not supported "
                + "(expected ….Transformer, ….Pooling, ….Dense, ….Normalize)")
        let outOfOrder = #"[{"type": "x.Transformer"}, {"type": "x.Normalize"}, {"type": "x.Pooling", "path": "1_Pooling"}]"#
        folder = try Self.variant(["modules.json": outOfOrder])
        #expect(
            errorMessage { _ = try ModelFolder(path: folder).configuration() }
                == "\(folder)/modules.json: modules T, N, P are not Transformer, Pooling, any Dense, then Normalize (T, P, D, N)")
        let escaping = #"[{"type": "x.Transformer"}, {"type": "x.Pooling", "path": "../../etc"}]"#
        folder = try Self.variant(["modules.json": escaping])
        #expect(
            errorMessage { _ = try ModelFolder(path: folder).configuration() }
                == "\(folder)/modules.json: module 1 has path '../../etc', which leaves the model folder")
        let dense = #"[{"type": "x.Transformer"}, {"type": "x.Pooling", "path": "1_Pooling"}, {"type": "x.Dense", "path": "2_Dense"}]"#
        folder = try Self.variant(["modules.json": dense, "2_Dense/config.json": #"{"in_features": 384, "out_features": 8}"#])
        #expect(
            errorMessage { _ = try ModelFolder(path: folder).configuration() }
                == "\(folder)/2_Dense: no model.safetensors (a Dense layer saved as pytorch_model.bin is not read)")
        folder = try Self.variant(["modules.json": dense, "2_Dense/config.json": #"{"in_features": 768, "out_features": 8}"#])
        #expect(
            errorMessage { _ = try ModelFolder(path: folder).configuration() }
                == "\(folder)/2_Dense/config.json: in_features is 768, but the vector before it has 384 values")
        folder = try Self.variant(["modules.json": "{}"])
        #expect(
            errorMessage { _ = try ModelFolder(path: folder).configuration() } == "\(folder)/modules.json: expected a JSON list of modules")
        let original = try String(contentsOfFile: try ModelFolder.locate().path + "/config.json", encoding: .utf8)
        folder = try Self.variant([
            "config.json": original.replacingOccurrences(of: #""model_type": "bert""#, with: #""model_type": "gpt2""#)
        ])
        #expect(
            errorMessage { _ = try ModelFolder(path: folder).configuration() }
                == "\(folder)/config.json: model_type 'gpt2' is not supported "
                + "(expected one of bert, distilbert, roberta, xlm-roberta, mpnet)")
        folder = try Self.variant(["1_Pooling/config.json": #"{"pooling_mode": "cls", "include_prompt": false}"#])
        #expect(
            errorMessage { _ = try ModelFolder(path: folder).configuration() }
                == "\(folder)/1_Pooling/config.json: include_prompt false (pooling without the prompt's tokens) is not supported")
        folder = try Self.variant(["1_Pooling/config.json": #"{"pooling_mode": "attention"}"#])
        #expect(
            errorMessage { _ = try ModelFolder(path: folder).configuration() }?.hasPrefix(
                "\(folder)/1_Pooling/config.json: pooling_mode 'attention' is not supported (expected cls, max, mean,") == true)
    }

    @Test func aFolderWithTwoModesConcatenatesThem() throws {
        let folder = try Self.variant(["1_Pooling/config.json": #"{"pooling_mode_cls_token": true, "pooling_mode_mean_tokens": true}"#])
        let twoModes = try SentenceEncoder(folder: ModelFolder(path: folder))
        let meanOnly = try SentenceEncoder(folder: ModelFolder.locate())
        #expect(twoModes.dimensions == 768 && twoModes.configuration.pooling == [.cls, .mean])
        #expect(twoModes.configuration.summary.hasSuffix("pooling cls + mean, Normalize; sentence vectors of 768 dimensions"))
        let texts = ["I keep thinking about work", "the garden again"]
        let both = try twoModes.embed(texts, layer: 6)
        let mean = try meanOnly.embed(texts, layer: 6)
        let alone = try twoModes.embed([texts[1]], layer: 6)
        let ids = texts.map(meanOnly.tokenizer.encode)
        let cls = meanOnly.model.pooled(ids, layer: 6, modes: [.cls], path: meanOnly.path)
        for k in 0..<384 {
            #expect(both[0, 384 + k] == mean[0, k] && both[1, 384 + k] == mean[1, k])
            // Within 1e-5, not to the bit: `embed` runs BLAS on one thread, this direct call on the default count.
            #expect(abs(both[0, k] - cls[0, k]) < 1e-5 && abs(both[1, k] - cls[1, k]) < 1e-5)
        }
        #expect((0..<768).allSatisfy { both[1, $0] == alone[0, $0] })
        #expect((0..<384).contains { both[0, $0] != both[0, 384 + $0] })
    }
}
