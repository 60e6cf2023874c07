import Foundation
import Testing
import ThemeLabCore
import ThemeLabEncoder

/// A model folder's declared sizes and lists are bounded as they are read: a refusal names the file and the field,
/// before any weights are read or any product of the sizes is formed (a trap or a multi-gigabyte allocation before).
@Suite struct ModelConfigurationBoundsTests {
    /// The bootstrap model with `config.json`'s values replaced by `changes` (key → JSON value) and `pooling` as its
    /// pooling config.
    static func model(_ changes: [String: String], pooling: String? = nil) throws -> String {
        var config = try String(contentsOfFile: try ModelFolder.locate().path + "/config.json", encoding: .utf8)
        for (key, value) in changes {
            let old = try #require(config.firstRange(of: try Regex("\"\(key)\": [0-9]+")))
            config.replaceSubrange(old, with: "\"\(key)\": \(value)")
        }
        var files = ["config.json": config]
        files["1_Pooling/config.json"] = pooling
        return try PoolingTests.variant(files)
    }

    /// `hidden_size` 2^62 with two pooling modes trapped on `hidden × modes` in `env`, `embed` and `analyze`; now each
    /// says which file and field, and how large it may be.
    @Test func aHiddenSizeThatWouldOverflowIsRefusedInEveryCommand() throws {
        let folder = try Self.model(
            ["hidden_size": "4611686018427387904", "num_attention_heads": "1"], pooling: #"{"pooling_mode": ["cls", "mean"]}"#)
        let corpus = temporaryFolder() + "/c.jsonl"
        try AtomicFile.write(
            "{\"id\": \"a\", \"text\": \"sea\", \"label\": \"x\"}\n{\"id\": \"b\", \"text\": \"sky\", \"label\": \"y\"}\n", to: corpus)
        let refusal = "\(folder)/config.json: 'hidden_size' is 4611686018427387904; the encoder runs sizes up to 65536"
        let env = try CLI.launch(["env", "--model", folder])
        #expect(env.status == 0 && env.stdout.contains("\nmodel         not usable: \(refusal)\n"), "status \(env.status), \(env.stdout)")
        for command in [
            ["embed", "--corpus", corpus, "--model", folder, "--out", temporaryFolder() + "/x.npy"],
            ["analyze", "--corpus", corpus, "--model", folder],
        ] {
            let r = try CLI.launch(command)
            #expect(r.status == 1 && r.stderr == "themelab: \(refusal)\n", "\(command[0]): status \(r.status), \(r.stderr.prefix(300))")
        }
    }

    /// Every size config.json declares has a stated bound (`EncoderShape.largest`), checked as it is read.
    @Test(arguments: [
        ("num_hidden_layers", "1001", "1000"), ("hidden_size", "65544", "65536"), ("num_attention_heads", "65537", "65536"),
        ("intermediate_size", "262145", "262144"), ("max_position_embeddings", "1048577", "1048576"),
        ("vocab_size", "16777217", "16777216"),
    ])
    func eachDeclaredSizeHasABound(_ key: String, _ value: String, _ limit: String) throws {
        let folder = try Self.model([key: value])
        #expect(
            errorMessage { _ = try ModelFolder(path: folder).configuration() }
                == "\(folder)/config.json: '\(key)' is \(value); the encoder runs sizes up to \(limit)")
    }

    /// A `pooling_mode` list repeated 10⁶ times (an 8 MB file) took 10–11 GB before an allocation abort: the list is
    /// bounded before a mode is read from it, in one line naming the file and the field.
    @Test func aPoolingListIsBoundedBeforeItIsRead() throws {
        let million: [String: Any] = ["pooling_mode": [String](repeating: "mean", count: 1_000_000)]
        #expect(
            errorMessage { _ = try PoolingMode.modes(million, file: "p/config.json") }
                == "p/config.json: 'pooling_mode' lists 1000000 modes; at most 6 (there are six)")
        let seven = #"{"pooling_mode": ["cls", "max", "mean", "mean_sqrt_len_tokens", "weightedmean", "lasttoken", "mean"]}"#
        let folder = try PoolingTests.variant(["1_Pooling/config.json": seven])
        #expect(
            errorMessage { _ = try ModelFolder(path: folder).configuration() }
                == "\(folder)/1_Pooling/config.json: 'pooling_mode' lists 7 modes; at most 6 (there are six)")
        // All six, each once, is the longest list a model may give.
        let six = #"{"pooling_mode": ["cls", "max", "mean", "mean_sqrt_len_tokens", "weightedmean", "lasttoken"]}"#
        #expect(try ModelFolder(path: PoolingTests.variant(["1_Pooling/config.json": six])).configuration().sentenceDimensions == 6 * 384)
    }

    /// modules.json's list is bounded the same way, before any module is looked at.
    @Test func aModuleListIsBoundedBeforeItIsRead() throws {
        let many = "[" + [String](repeating: #"{"type": "x.Normalize"}"#, count: 100_000).joined(separator: ", ") + "]"
        let folder = try PoolingTests.variant(["modules.json": many])
        #expect(
            errorMessage { _ = try ModelFolder(path: folder).configuration() }
                == "\(folder)/modules.json: lists 100000 modules; at most 16")
    }
}
