import Foundation
import Testing
import ThemeLabCore

@testable import ThemeLabEncoder

/// WordPiece on a hand-made vocabulary, worked by hand.
@Suite struct TokenizerTests {
    func tokenizer(maxLength: Int = 16) throws -> WordPieceTokenizer {
        let vocab = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "un", "##aff", "##able", "run", "##ning", ",", "!", "cafe", "東", "##s", "a"]
        let path = temporaryFolder() + "/vocab.txt"
        try AtomicFile.write(vocab.joined(separator: "\n") + "\n", to: path)
        return try WordPieceTokenizer(
            vocabularyFile: path, lowercase: true, stripAccents: nil, splitChineseChars: true, maxLength: maxLength)
    }

    @Test func greedyLongestMatchFirst() throws {
        let t = try tokenizer()
        #expect(t.tokens("UnAffable running!") == ["[CLS]", "un", "##aff", "##able", "run", "##ning", "!", "[SEP]"])
    }

    @Test func accentsCJKPunctuationAndUnknowns() throws {
        let t = try tokenizer()
        // "Café" folds to "cafe"; 東 is split out; "runx" has no full match, so the whole word is [UNK].
        #expect(t.tokens("Café,東runx\u{0007}") == ["[CLS]", "cafe", ",", "東", "[UNK]", "[SEP]"])
        #expect(t.tokens("  \t\n ") == ["[CLS]", "[SEP]"])
        #expect(t.tokens(String(repeating: "a", count: 101)) == ["[CLS]", "[UNK]", "[SEP]"])
    }

    @Test func truncatesToMaxLengthKeepingSep() throws {
        let t = try tokenizer(maxLength: 5)
        #expect(t.tokens("a a a a a a") == ["[CLS]", "a", "a", "a", "[SEP]"])
    }
}

extension TokenizerTests {
    /// A tokenizer.json of the MiniLM-sized WordPiece fixture with `normalizer` in place of its own.
    static func tokenizer(normalizer: Any, fixtureName: String = "bert-wordpiece-mean") throws -> Result<TokenizerPipeline, Error> {
        let file = fixture("encoders/\(fixtureName)/tokenizer.json")
        var json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: file))) as? [String: Any])
        json["normalizer"] = normalizer
        return Result { try TokenizerPipeline(json, file: "t/tokenizer.json", maxLength: 16) }
    }

    /// A normalizer chain that could lengthen a text without bound is refused at load, naming the step.
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

    /// A 300 000-letter word and a 1 MB text through every tokenizer kind, each in well under the
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
}
