import Foundation
import Testing

@testable import ThemeLabCore
@testable import ThemeLabEncoder
@testable import ThemeLabPairs
@testable import ThemeLabStudy

/// Issue 42: each defect of the third hostile-input pass, reproduced. Every test here failed before the fix.
@Suite struct HostileInputRound3Tests {
    /// A copy of encoder fixture `name` whose module folders are renamed (`moves`: old → new path, modules.json too).
    static func movedModules(_ name: String, _ moves: [String: String]) throws -> String {
        let folder = temporaryFolder() + "/\(name)"
        try FileManager.default.copyItem(atPath: fixture("encoders/\(name)"), toPath: folder)
        var modules = try String(contentsOfFile: folder + "/modules.json", encoding: .utf8)
        for (old, new) in moves {
            try FileManager.default.createDirectory(
                atPath: folder + "/" + (new as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try FileManager.default.moveItem(atPath: "\(folder)/\(old)", toPath: "\(folder)/\(new)")
            modules = modules.replacingOccurrences(of: "\"path\": \"\(old)\"", with: "\"path\": \"\(new)\"")
        }
        try AtomicFile.write(modules, to: folder + "/modules.json")
        return folder
    }

    /// Row 1 and 2: a Pooling or Dense module at a legal unusual path is an input like any other: it is in the files,
    /// the cache identity moves with its config (so the cache serves new vectors), and `embed --out` onto it is refused.
    @Test func modulesAtUnusualPathsAreInputs() throws {
        let folder = try Self.movedModules("bert-wordpiece-cls-mean-dense-normalize", ["1_Pooling": "mypool", "2_Dense": "layers/dense"])
        let model = try ModelFolder(path: folder)
        let files = try model.files()
        for name in ["mypool/config.json", "layers/dense/config.json", "layers/dense/model.safetensors"] {
            #expect(files.contains("\(folder)/\(name)"), "\(name) in \(files)")
        }
        let cache = temporaryFolder()
        let text = ["a pooled sentence about the sea"]
        let before = try SentenceEncoder(folder: model)
        var first = try EmbeddingCache(folder: cache, encoder: before, layer: before.configuration.layers)
        let old = try before.embed(text, layer: before.configuration.layers, cache: &first)
        let pooling = folder + "/mypool/config.json"
        let config = try String(contentsOfFile: pooling, encoding: .utf8)
        try AtomicFile.write(config.replacingOccurrences(of: "\"cls\"", with: "\"max\""), to: pooling)
        let after = try SentenceEncoder(folder: model)
        #expect(after.cacheIdentity != before.cacheIdentity)
        var second = try EmbeddingCache(folder: cache, encoder: after, layer: after.configuration.layers)
        let new = try after.embed(text, layer: after.configuration.layers, cache: &second)
        #expect(new.storage == (try after.embed(text, layer: after.configuration.layers)).storage && new.storage != old.storage)
        try AtomicFile.write("{\"id\":\"a\",\"text\":\"hello\"}\n", to: cache + "/c.jsonl")
        for target in [pooling, folder + "/layers/dense/model.safetensors"] {
            let run = CLI.run(["embed", "--corpus", cache + "/c.jsonl", "--model", folder, "--out", target])
            #expect(run.status == 2 && run.stderr.contains("output \(target) is the input"), "\(run.stderr)")
        }
        #expect(try String(contentsOfFile: pooling, encoding: .utf8).hasPrefix("{"))
    }

    /// A tokenizer.json of the MiniLM-sized WordPiece fixture with `normalizer` in place of its own.
    static func tokenizer(normalizer: Any, fixtureName: String = "bert-wordpiece-mean") throws -> Result<TokenizerPipeline, Error> {
        let file = fixture("encoders/\(fixtureName)/tokenizer.json")
        var json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: file))) as? [String: Any])
        json["normalizer"] = normalizer
        return Result { try TokenizerPipeline(json, file: "t/tokenizer.json", maxLength: 16) }
    }

    /// Row 3: a normalizer chain that could lengthen a text without bound is refused at load, naming the step.
    @Test func chainsThatCouldGrowWithoutBoundAreRefused() throws {
        let doubling: [String: Any] = ["type": "Replace", "pattern": ["String": "a"], "content": "aa"]
        let forty = try Self.tokenizer(normalizer: ["type": "Sequence", "normalizers": Array(repeating: doubling, count: 40)])
        #expect(
            errorMessage { _ = try forty.get() }
                == "t/tokenizer.json: normalizer step 7 of 40 (Replace) lets the chain lengthen a text to 128 × n + 0 code points; "
                + "at most 64 × n + 4096 are allowed")
        // A charsmap mapping "a" to 256 "a"s: one such step alone is refused; an empty trie with the real charsmap's size passes.
        var map = Data([8, 0, 0, 0])
        for unit: UInt32 in [0, 0] { withUnsafeBytes(of: unit.littleEndian) { map.append(contentsOf: $0) } }
        map.append(contentsOf: [UInt8](repeating: UInt8(ascii: "a"), count: 256) + [0])
        let precompiled: [String: Any] = ["type": "Precompiled", "precompiled_charsmap": map.base64EncodedString()]
        #expect(errorMessage { _ = try Self.tokenizer(normalizer: precompiled).get() }?.contains("step 1 of 1 (Precompiled)") == true)
        let prepend: [String: Any] = ["type": "Prepend", "prepend": String(repeating: "▁", count: 5000)]
        #expect(errorMessage { _ = try Self.tokenizer(normalizer: prepend).get() }?.contains("to 1 × n + 5000 code points") == true)
        // The chains real tokenizers use load: BERT's, and NFKC then Lowercase (54).
        _ = try Self.tokenizer(normalizer: ["type": "BertNormalizer", "lowercase": true]).get()
        _ = try Self.tokenizer(normalizer: ["type": "Sequence", "normalizers": [["type": "NFKC"], ["type": "Lowercase"]]]).get()
        for name in ["xlm-roberta-unigram-precompiled-mean", "xlm-roberta-unigram-mean", "roberta-bpe-mean", "mpnet-wordpiece-mean"] {
            _ = try SentenceEncoder(folder: ModelFolder(path: fixture("encoders/\(name)")))
        }
    }

    /// Rows 3 and 4: a 300 000-letter word and a 1 MB text through every tokenizer kind, each in well under the
    /// 58 s byte-level BPE took before (quadratic then; a heap of pair ranks now; about 1 s here in all), with the ids the
    /// model can take.
    @Test(arguments: ["roberta-bpe-mean", "xlm-roberta-unigram-precompiled-mean", "bert-wordpiece-mean", "mpnet-wordpiece-mean"])
    func longWordsAndTextsTakeLinearTime(_ name: String) throws {
        let encoder = try SentenceEncoder(folder: ModelFolder(path: fixture("encoders/\(name)")))
        let word = String(repeating: "abcdefghij", count: 30_000)
        let text = String(repeating: "the quick brown fox jumps over the lazy dog ", count: 23_000)
        for input in [word, text, word + " " + text] {
            let clock = ContinuousClock()
            let started = clock.now
            let ids = encoder.tokenizer.encode(input)
            let took = clock.now - started
            #expect(took < .seconds(5), "\(name): \(input.count) characters took \(took)")
            // A WordPiece word over max_input_chars_per_word is one unknown token; every other input fills the sequence.
            let full = input != word || !name.contains("wordpiece")
            #expect(full ? ids.count == encoder.configuration.maxSequenceLength : ids.count == 3, "\(name): \(ids.count) ids")
        }
    }

    /// BPE with its heap merges as tokenizers does: the lowest-ranked pair first, the leftmost among equals.
    @Test func bpeMergesTheLowestRankedPairLeftmostFirst() {
        let vocabulary: [String: Int32] = ["a": 0, "b": 1, "aa": 2, "ab": 3, "aab": 4, "aaa": 5]
        let model = BPEModel(
            vocabulary: vocabulary, merges: [("a", "a"), ("a", "b"), ("aa", "b"), ("aa", "a")], unknown: nil, ignoreMerges: false)
        // "aaab": (a a) at 0 first, then (a b) at 2 — rank 1 — before (aa a): [aa][ab].
        #expect(model.ids("aaab") == [2, 3])
        // "aaaa": (a a) at 0, then at 2 (leftmost, non-overlapping): [aa][aa].
        #expect(model.ids("aaaa") == [2, 2])
        // "aab": (a a) first, then (aa b): [aab].
        #expect(model.ids("aab") == [4])
        #expect(model.ids("") == [] && model.ids("b") == [1] && model.ids("c") == [])
    }

    /// Row 5: a bridge whose edge weights were rewritten is refused; parts of different bridges do not merge.
    @Test func aTamperedBridgeAndPartsOfTwoBridgesAreRefused() throws {
        let x = try unitRows(randomMatrix(rows: 300, cols: 5, seed: 3))
        let engine = PairEngine(bins: 256, tileSize: 32)
        let inputs = [fixture("leiden.json")]
        let bridge = try BridgeForest.compute(x, labels: nil, engine: engine, inputs: inputs)
        var tampered = bridge
        tampered.edges[0].w = 0.999
        let path = temporaryFolder() + "/bridge.json"
        try JSONOutput.encode(tampered).write(to: URL(fileURLWithPath: path))
        #expect(
            errorMessage { _ = try BridgeForest.read(path: path) }
                == "\(path): 'edges' do not match 'edgesDigest': the file was changed after pairs --bridge-out wrote it")
        // A second bridge (of vectors with one row moved) seeds the other shards: merge names both parts.
        var moved = x
        for k in 0..<5 { moved[7, k] = x[8, k] }
        let other = try BridgeForest.compute(moved, labels: nil, engine: engine, inputs: inputs)
        let parts = try (0..<2).map { k in
            try PairPartial.compute(
                x, labels: nil, shard: PairShard(index: k, count: 2), engine: engine, inputs: inputs,
                bridge: (k == 0 ? bridge : other, "b\(k).json"))
        }
        let message = errorMessage { _ = try PairPartial.distinctShards(parts, names: ["p0.json", "p1.json"]) }
        #expect(
            message
                == "p1.json started from bridge \(other.edgesDigest.prefix(12)), p0.json from bridge \(bridge.edgesDigest.prefix(12)): "
                + "parts of one pass share one bridge")
    }

    /// Row 6: a file changed between the snapshot and the end of the work is refused, naming it, as `pairs` does
    /// around its pass (the checksums it writes then name the bytes it read).
    @Test func aFileChangedWhileBeingReadIsRefused() throws {
        let path = temporaryFolder() + "/x.npy"
        try NPY.write(randomMatrix(rows: 4, cols: 3, seed: 1), to: path)
        let snapshot = try FileSnapshot([path, path + ".absent"])
        try snapshot.verify()
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data([0]))
        try handle.close()
        #expect(errorMessage { try snapshot.verify() } == "\(path): changed while being read; run again when nothing writes it")
    }

    /// Row 7: an `.npy` truncated while it is read is an error naming it, not SIGBUS.
    @Test func anNPYTruncatedWhileReadIsAnError() throws {
        let path = temporaryFolder() + "/x.npy"
        let m = randomMatrix(rows: 4000, cols: 64, seed: 2)
        try NPY.write(m, to: path)
        let file = try NPYFile(path: path)
        #expect(try file.rows([3, 1, 2]).storage == m.rows([3, 1, 2]).storage)
        #expect(try file.rows(0..<4000).storage == m.storage)
        #expect(truncate(path, 100_000) == 0)
        let message = errorMessage { _ = try file.rows(0..<4000) }
        #expect(message?.hasPrefix("\(path): cannot read bytes ") == true && message?.hasSuffix("was it changed while being read?") == true)
    }

    /// Row 8: a baseline with its figures removed from all but one row gates nothing, so the check fails, naming
    /// each ungated figure and row; the rows it did compare are counted.
    @Test func aGuttedBaselineFailsTheCheck() throws {
        let committed = try #require(ProjectFiles.locate("results/ci-gate/ci-gate.json"))
        let results = try JSONOutput.decode(AnalysisResults.self, from: Data(contentsOf: URL(fileURLWithPath: committed)))
        var bad = results.analyses
        var gutted = results.analyses
        var kept = false
        for a in gutted.indices {
            for s in gutted[a].spaces.indices {
                for g in gutted[a].spaces[s].groupings.indices {
                    bad[a].spaces[s].groupings[g].recovery?.ari = -0.5
                    if let t = bad[a].spaces[s].groupings[g].threshold { bad[a].spaces[s].groupings[g].threshold = t + 0.3 }
                    guard gutted[a].spaces[s].groupings[g].recovery?.ari != nil else { continue }
                    if kept {
                        gutted[a].spaces[s].groupings[g].recovery = nil
                        gutted[a].spaces[s].groupings[g].threshold = nil
                    }
                    kept = true
                }
            }
        }
        let baseline = RegressionCheck.Baseline(tolerances: ["ari": 0.01, "threshold": 0.001], analyses: gutted, provenance: nil)
        let outcome = try RegressionCheck.compare(results: bad, baseline: baseline)
        #expect(
            outcome.failures.contains { $0.hasPrefix("ari not gated: ") && $0.hasSuffix("(the results have it, the baseline has none)") })
        #expect(outcome.failures.filter { $0.hasPrefix("ari fell: ") }.count == 1, "\(outcome.failures.prefix(3))")
        // A results row the baseline lacks fails, unless the baseline lists it as ungated.
        let whole = RegressionCheck.Baseline(tolerances: ["ari": 0.01], analyses: results.analyses, provenance: nil)
        var extra = results.analyses
        extra[0].corpus.name = "renamed"
        let extraKeys = try RegressionCheck.rows([extra[0]], file: "r").keys.sorted()
        var failures = try RegressionCheck.compare(results: results.analyses + [extra[0]], baseline: whole).failures
        #expect(failures.count == extraKeys.count && failures[0].hasPrefix("ungated: renamed | "))
        var listed = whole
        listed.ungated = extraKeys
        failures = try RegressionCheck.compare(results: results.analyses + [extra[0]], baseline: listed).failures
        #expect(failures.isEmpty, "\(failures)")
        let own = try RegressionCheck.compare(results: results.analyses, baseline: whole)
        let rows = try RegressionCheck.rows(results.analyses, file: "r").count
        #expect(own.failures.isEmpty && own.rows == rows && own.figures > 0)
    }

    /// Row 9: one flipped bit in a cached record drops that record with a warning; its text is embedded again.
    @Test func aFlippedBitInTheCacheIsDroppedAndRecomputed() throws {
        let encoder = try SentenceEncoder(folder: ModelFolder(path: fixture("encoders/bert-wordpiece-mean")))
        let layer = encoder.configuration.layers
        let folder = temporaryFolder()
        let texts = ["the first entry", "the second entry"]
        var cache = try EmbeddingCache(folder: folder, encoder: encoder, layer: layer)
        let fresh = try encoder.embed(texts, layer: layer, cache: &cache)
        #expect(cache.warning == nil)
        var bytes = try Data(contentsOf: URL(fileURLWithPath: cache.file))
        bytes[bytes.count - 20] ^= 0x40  // a bit of the last record's vector
        try bytes.write(to: URL(fileURLWithPath: cache.file))
        var reopened = try EmbeddingCache(folder: folder, encoder: encoder, layer: layer)
        #expect(reopened.count == 1 && reopened.dropped == 1)
        #expect(reopened.warning?.hasSuffix("1 cached vector(s) failed their check and were dropped; embedding them again") == true)
        #expect(try encoder.embed(texts, layer: layer, cache: &reopened).storage == fresh.storage)
        #expect(try EmbeddingCache(folder: folder, encoder: encoder, layer: layer).count == 2)
    }

    /// The cache a process keeps (`EmbeddingCache.shared`): handed out again while its file is unchanged, read again when
    /// another process saved or the file was deleted; a cache whose dropped records were rewritten warns no more.
    @Test func theKeptCacheFollowsItsFile() throws {
        let encoder = try SentenceEncoder(folder: ModelFolder(path: fixture("encoders/bert-wordpiece-mean")))
        let layer = encoder.configuration.layers
        let folder = temporaryFolder()
        var cache = try EmbeddingCache.shared(folder: folder, encoder: encoder, layer: layer)
        _ = try encoder.embed(["the first entry", "the second entry"], layer: layer, cache: &cache)
        EmbeddingCache.keep(cache)
        #expect(try EmbeddingCache.shared(folder: folder, encoder: encoder, layer: layer).count == 2)
        var bytes = try Data(contentsOf: URL(fileURLWithPath: cache.file))
        bytes[bytes.count - 20] ^= 0x40
        try bytes.write(to: URL(fileURLWithPath: cache.file))
        var damaged = try EmbeddingCache.shared(folder: folder, encoder: encoder, layer: layer)
        #expect(damaged.count == 1 && damaged.warning != nil, "a changed file is read again")
        _ = try encoder.embed(["the first entry", "the second entry"], layer: layer, cache: &damaged)
        EmbeddingCache.keep(damaged)
        let kept = try EmbeddingCache.shared(folder: folder, encoder: encoder, layer: layer)
        #expect(kept.count == 2 && kept.warning == nil)
        var other = try EmbeddingCache(folder: folder, encoder: encoder, layer: layer)  // another process's save
        _ = try encoder.embed(["a third entry"], layer: layer, cache: &other)
        #expect(try EmbeddingCache.shared(folder: folder, encoder: encoder, layer: layer).count == 3)
        try FileManager.default.removeItem(atPath: cache.file)
        #expect(try EmbeddingCache.shared(folder: folder, encoder: encoder, layer: layer).count == 0)
    }
}
