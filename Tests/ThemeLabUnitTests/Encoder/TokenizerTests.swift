import Foundation
import Testing
import ThemeLabCore
import ThemeLabEncoder

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
