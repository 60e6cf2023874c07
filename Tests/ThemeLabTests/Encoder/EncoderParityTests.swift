import Foundation
import Testing

@testable import ThemeLabCore
@testable import ThemeLabEncoder

/// The Swift encoder against PyTorch/transformers figures for all-MiniLM-L6-v2
/// (Fixtures/minilm-reference.json, copied from shared/reference). These need the real weights,
/// which `make test` installs; without them the tests fail rather than skip.
@Suite(.serialized) struct EncoderParityTests {
    struct Reference: Decodable {
        struct Item: Decodable {
            var text: String
            var tokens: [String]
            var inputIds: [Int32]
            var meanPooled: [String: [Float]]
        }
        var items: [Item]
    }

    static let reference: Reference = {
        try! decodeFixture(Reference.self, "minilm-reference.json")
    }()

    static let encoder: Result<SentenceEncoder, Error> = Result { try SentenceEncoder(folder: ModelFolder.locate()) }

    func encoder() throws -> SentenceEncoder {
        try Self.encoder.mapError { error in
            ThemeLabError.input("model folder needed for parity tests (run scripts/bootstrap): \(error)")
        }.get()
    }

    @Test func modelIsThePinnedOne() throws {
        #expect(try encoder().modelHash == "53aa51172d142c89d9012cce15ae4d6cc0ca6895895114379cacb4fab128d9db")
        let c = try encoder().configuration
        #expect(c.layers == 6 && c.hidden == 384 && c.heads == 12 && c.maxSequenceLength == 256 && c.normalize)
    }

    /// The products of one layer for sentences of 3 and 5 tokens, counted by hand: the sentences' rows follow one another
    /// with no padding, so the batch is 8 rows; Q|K|V over them (1), QKᵀ and P·V per sentence and head (2 · 12 · 2), then
    /// the output, intermediate and output projections over the 8 rows (3).
    @Test func forwardPassProductsByHand() throws {
        // Runs of at most 96 rows, by hand: 50 + 40 = 90, then 10 + 100 > 96, 100 alone, 5 + 5.
        let packing = TokenRows(lengths: [50, 40, 10, 100, 5, 5])
        #expect(packing.groups(rows: 96) == [0..<2, 2..<3, 3..<4, 4..<6] && packing.rows(2..<4) == 110)
        #expect(TokenRows(lengths: []).groups(rows: 96).isEmpty && TokenRows(lengths: [7]).groups(rows: 96) == [0..<1])
        let grouped = try encoder().model.matrixProducts(lengths: [50, 40, 10], layer: 1)
        #expect(grouped[0] == .init(m: 90, n: 1152, k: 384) && grouped[1 + 48] == .init(m: 10, n: 1152, k: 384))
        #expect(TokenRows(lengths: [3, 5]).starts == [0, 3] && TokenRows(lengths: [3, 5]).rows == 8)
        #expect(TokenRows(lengths: [12, 13, 1]).starts == [0, 12, 25] && TokenRows(lengths: [12, 13, 1]).rows == 26)
        let products = try encoder().model.matrixProducts(lengths: [3, 5], layer: 1)
        #expect(products.count == 1 + 48 + 3)
        #expect(products.first == .init(m: 8, n: 1152, k: 384) && products.last == .init(m: 8, n: 384, k: 1536))
        #expect(products[1] == .init(m: 3, n: 3, k: 32) && products[2] == .init(m: 3, n: 32, k: 3))
        // 2·m·n·k summed: projections 2·8·384·(1152 + 384 + 1536 + 1536), attention 12·2·(2·3·3·32 + 2·5·5·32).
        let flops = products.reduce(0) { $0 + 2 * $1.m * $1.n * $1.k }
        #expect(flops == 2 * 8 * 384 * 4608 + 12 * 2 * (576 + 1600))
        #expect(try encoder().model.matrixProducts(lengths: [3, 5], layer: 6).count == 6 * 52)
    }

    /// `bench encoder` through the CLI: one JSON line naming the corpus's sentences and tokens.
    @Test func benchEncoderReportsBothTimes() throws {
        let folder = temporaryFolder()
        let texts = ["the garden again", "I keep thinking about work", "sleep"]
        try AtomicFile.write(
            Data(texts.enumerated().map { #"{"id":"t\#($0.offset)","text":"\#($0.element)"}"# + "\n" }.joined().utf8),
            to: folder + "/c.jsonl")
        let r = CLI.run(["bench", "encoder", "--corpus", folder + "/c.jsonl", "--repeat", "1"])
        #expect(r.status == 0, "\(r.stderr)")
        let line = try #require(JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: String])
        let tokens = try texts.map { try encoder().tokenizer.encode($0).count }.reduce(0, +)
        #expect(line["sentences"] == "3" && line["tokens"] == "\(tokens)" && line["layer"] == "6")
        #expect(Double(line["sgemm_share"] ?? "") != nil && Double(line["encoder_seconds"] ?? "") != nil)
    }

    @Test func tokenIdsMatchPyTorchForAll30Sentences() throws {
        let tokenizer = try encoder().tokenizer
        for item in Self.reference.items {
            #expect(tokenizer.encode(item.text) == item.inputIds, "\(item.text): \(tokenizer.tokens(item.text)) vs \(item.tokens)")
        }
    }

    @Test func meanPooledVectorsMatchPyTorchWithin1e4() throws {
        let e = try encoder()
        var worst: Float = 0
        for item in Self.reference.items {
            for (layerName, expected) in item.meanPooled {
                let layer = Int(layerName)!
                let got = e.model.pooled([item.inputIds], layer: layer, modes: [.mean], path: e.path)
                let error = zip(got.storage, expected).map { abs($0 - $1) }.max()!
                worst = max(worst, error)
                #expect(error < 1e-4, "\(item.text) layer \(layer): max abs error \(error)")
            }
        }
        print("encoder parity: max abs error over 30 sentences, all reference layers: \(worst)")
    }

    /// A text's vector depends on the text alone: embedded alone, inside two different batches (other
    /// batch-mates, other positions, another batch size), on every path of the kernel (AVX-512, AVX2+FMA, scalar) and
    /// read back from the cache, it has the same bits.
    @Test func aTextsVectorDoesNotDependOnItsBatchPathOrTheCache() throws {
        let e = try encoder()
        let texts = Self.reference.items.map(\.text)
        let batched = try e.embed(texts, layer: 6)
        let filler = (0..<40).map { i in (0..<(i % 17 + 2)).map { "word\($0 * i)" }.joined(separator: " ") }
        for path in KernelPath.available {
            let other = try SentenceEncoder(folder: e.folder, path: path)
            other.tokensPerBatch = 96
            let mixed = try other.embed(filler + texts.reversed(), layer: 6)
            for i in texts.indices {
                #expect(Array(mixed.row(filler.count + texts.count - 1 - i)) == Array(batched.row(i)), "\(path), another batch, text \(i)")
            }
        }
        let other = try SentenceEncoder(folder: e.folder)
        other.tokensPerBatch = 96
        let mixed = try other.embed(filler + texts.reversed(), layer: 6)
        let folder = temporaryFolder()
        var cache = try EmbeddingCache(folder: folder, encoder: e, layer: 6)
        _ = try e.embed(Array(texts.prefix(7)) + filler, layer: 6, cache: &cache)
        let cached = try e.embed(texts, layer: 6, cache: &cache)
        for (i, text) in texts.enumerated() {
            let alone = try e.embed([text], layer: 6)
            #expect(Array(alone.row(0)) == Array(batched.row(i)), "alone vs batch, text \(i)")
            #expect(Array(mixed.row(filler.count + texts.count - 1 - i)) == Array(batched.row(i)), "another batch, text \(i)")
            #expect(Array(cached.row(i)) == Array(batched.row(i)), "through the cache, text \(i)")
        }
    }

    /// The workers' schedule for 2 workers and batches of up to 96 tokens: 100 texts of 10 tokens, then 10 of 3 (1 030).
    /// Longest first; a text joins the open batch while its tokens stay within min(96, max(6, left / 8)), `left` being
    /// the tokens not yet placed. By hand: three batches of 9 (left 1 030 → 760), then from 760 a batch takes j + 1 texts
    /// while 10(j + 1) ≤ (760 − 10j) / 8, so 8; … the last texts of 10 alone; the texts of 3 in pairs (6 tokens).
    @Test func batchesAreLongestFirstAndShrinkTowardTheEnd() throws {
        let e = try SentenceEncoder(folder: try encoder().folder)
        e.tokensPerBatch = 96
        e.workers = 2
        let ids = (0..<110).map { [Int32](repeating: 7, count: $0 < 100 ? 10 : 3) }
        let batches = e.batches(ids)
        let tens = [9, 9, 9, 8, 7, 6, 6, 5, 5, 4, 4, 3, 3, 2, 2, 2, 2, 2] + Array(repeating: 1, count: 12)
        #expect(batches.map(\.count) == tens + [2, 2, 2, 2, 2])
        #expect(batches.joined().sorted() == Array(0..<110), "every text once")
        #expect(batches.joined().map { ids[$0].count } == batches.joined().map { ids[$0].count }.sorted(by: >), "longest first")
        let texts = (0..<600).map { "entry \($0): " + String(repeating: "word ", count: $0 % 13) }
        #expect(e.tokenize(texts) == texts.map { e.tokenizer.encode(e.prompt + $0) }, "side by side as one after another")
    }

    @Test func cacheReturnsWhatWasStoredAndSkipsTheModel() throws {
        let e = try encoder()
        let folder = temporaryFolder()
        let texts = [
            "I think I said the wrong thing in standup.", "Baked bread for the first time.", "I think I said the wrong thing in standup.",
        ]
        var cache = try EmbeddingCache(folder: folder, encoder: e, layer: 2)
        let first = try e.embed(texts, layer: 2, cache: &cache)
        #expect(cache.count == 2)
        var reopened = try EmbeddingCache(folder: folder, encoder: e, layer: 2)
        #expect(reopened.count == 2)
        var calls = 0
        let second = try e.embed(texts, layer: 2, cache: &reopened) { _, _ in calls += 1 }
        #expect(second == first && calls == 0)
        #expect(first.row(0) == first.row(2))
        #expect(try e.embed([texts[1]], layer: 2) == Matrix(rows: 1, cols: 384, storage: Array(first.row(1))), "cached = embedded alone")
    }

    /// Two runs sharing a cache folder (each opened it before the other saved) both keep what they added: a save merges
    /// what is on disk under the file's lock instead of replacing it with its own view.
    @Test func twoCachesOnOneFolderMergeTheirVectors() throws {
        let e = try encoder()
        let folder = temporaryFolder()
        var first = try EmbeddingCache(folder: folder, encoder: e, layer: 2)
        var second = try EmbeddingCache(folder: folder, encoder: e, layer: 2)
        let a = try e.embed(["The garden needs water."], layer: 2, cache: &first)
        let b = try e.embed(["Ran five kilometres today."], layer: 2, cache: &second)
        let merged = try EmbeddingCache(folder: folder, encoder: e, layer: 2)
        #expect(merged.count == 2)
        #expect(merged.vector(for: "The garden needs water.") == Array(a.row(0)))
        #expect(merged.vector(for: "Ran five kilometres today.") == Array(b.row(0)))
        #expect(e.cacheIdentity.count == 64 && merged.file.hasSuffix("-layer2.tlec3"))
    }

    @Test func layerOutOfRangeIsAUsageError() throws {
        #expect(errorMessage { _ = try encoder().embed(["x"], layer: 7) } == "--layer must be 0...6 for this model, got 7")
    }
}

@Suite struct FastErfTests {
    @Test func fastErfIsWithin5e7OfLibm() {
        var worst = 0.0
        for i in -80_000...80_000 {
            let x = Float(i) / 10_000
            worst = max(worst, abs(Double(EncoderKernel.erf(x)) - erf(Double(x))))
        }
        #expect(worst < 5e-7, "max abs error \(worst)")
    }
}

@Suite(.serialized) struct EmbedCommandTests {
    @Test func embedsACorpusWithProvenanceAndNamesItemsWithoutText() throws {
        let folder = temporaryFolder()
        try AtomicFile.write(
            """
            {"id":"a","text":"I think I said the wrong thing in standup.","label":"work"}
            {"id":"b","text":"Baked bread for the first time.","label":"food"}
            """, to: folder + "/c.jsonl")
        let r = try CLI.launch(
            ["embed", "--corpus", folder + "/c.jsonl", "--out", folder + "/x.npy", "--layer", "2"],
            environment: ["THEMELAB_CACHE": folder + "/cache"])
        #expect(r.status == 0, "\(r.stderr)")
        let x = try NPY.read(path: folder + "/x.npy")
        #expect(x.rows == 2 && x.cols == 384)
        let expected = EncoderParityTests.reference.items[0].meanPooled["2"]!
        #expect(zip(x.row(0), expected).allSatisfy { $0.isApproximatelyEqual(to: $1, absoluteTolerance: 1e-4) }, "layer 2, not normalised")
        let record = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: folder + "/x.npy.json"))) as? [String: Any])
        #expect(record["layer"] as? Int == 2 && record["normalized"] as? Bool == false)
        #expect(
            (record["provenance"] as? [String: Any])?["model"] as? String
                == "53aa51172d142c89d9012cce15ae4d6cc0ca6895895114379cacb4fab128d9db")

        try AtomicFile.write("{\"id\":\"a\",\"label\":\"x\"}\n", to: folder + "/notext.jsonl")
        let bad = CLI.run(["embed", "--corpus", folder + "/notext.jsonl", "--out", folder + "/y.npy"])
        #expect(bad.status == 1 && bad.stderr.contains("item 'a' has no text to embed"))
        #expect(!FileManager.default.fileExists(atPath: folder + "/y.npy"))
    }
}
