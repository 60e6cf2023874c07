import Foundation
import ThemeLabCore

/// BERT's uncased tokenizer from `vocab.txt` (Devlin et al. 2019; HuggingFace `BertTokenizer`): BERT's normalizer and
/// pre-tokenizer (clean text, split out CJK ideographs, lower-case and strip accents, split on whitespace and
/// punctuation: `BertText`), then WordPiece (`WordPieceModel`), between [CLS] and [SEP]. For a folder without
/// tokenizer.json. Works on Unicode scalars, as Python's `str` does.
package struct WordPieceTokenizer: SentenceTokenizer {
    package let pipeline: TokenizerPipeline
    package var largestId: Int32 { pipeline.largestId }

    package init(vocabularyFile: String, lowercase: Bool, stripAccents: Bool?, splitChineseChars: Bool, maxLength: Int) throws {
        guard let data = FileManager.default.contents(atPath: vocabularyFile) else {
            throw ThemeLabError.input("\(vocabularyFile): cannot read vocabulary")
        }
        try self.init(
            vocabulary: data, file: vocabularyFile, lowercase: lowercase, stripAccents: stripAccents,
            splitChineseChars: splitChineseChars, maxLength: maxLength)
    }

    /// From the bytes of a vocab.txt; `file` names it in errors.
    package init(
        vocabulary data: Data, file vocabularyFile: String, lowercase: Bool, stripAccents: Bool?, splitChineseChars: Bool,
        maxLength: Int
    ) throws {
        guard maxLength >= 3 else {
            throw ThemeLabError.input("\(vocabularyFile): a maximum length of \(maxLength) leaves no room between [CLS] and [SEP]")
        }
        // One token per line; the line number is the id (as HuggingFace's load_vocab, which reads
        // with Python's universal newlines: "\n", "\r\n" and "\r" each end a line).
        var vocabulary: [String: Int32] = [:]
        let lines = data.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
            .flatMap { line in
                (line.last == UInt8(ascii: "\r") ? line.dropLast() : line).split(
                    separator: UInt8(ascii: "\r"), omittingEmptySubsequences: false)
            }
        guard lines.count < Int(Int32.max) else {
            throw ThemeLabError.input("\(vocabularyFile): \(lines.count) lines, too many for 32-bit ids")
        }
        for (i, line) in lines.enumerated() {
            guard let token = String(data: line, encoding: .utf8) else {
                throw ThemeLabError.input("\(vocabularyFile):\(i + 1): invalid UTF-8")
            }
            if !token.isEmpty && vocabulary[token] == nil { vocabulary[token] = Int32(i) }
        }
        func id(_ t: String) throws -> Int32 {
            guard let i = vocabulary[t] else { throw ThemeLabError.input("\(vocabularyFile): no \(t) token") }
            return i
        }
        pipeline = TokenizerPipeline(
            normalizers: [.bert(lowercase: lowercase, stripAccents: stripAccents ?? lowercase, splitChineseChars: splitChineseChars)],
            preTokenizers: [.bert], model: .wordPiece(WordPieceModel(vocabulary: vocabulary, unknown: try id("[UNK]"))),
            prefix: [try id("[CLS]")], suffix: [try id("[SEP]")], maxLength: maxLength)
    }

    package init(folder: ModelFolder, configuration c: EncoderConfiguration) throws {
        try self.init(
            vocabularyFile: "\(folder.path)/vocab.txt", lowercase: c.lowercase, stripAccents: c.stripAccents,
            splitChineseChars: c.tokenizeChineseChars, maxLength: c.maxSequenceLength)
        guard Int(largestId) < c.vocabSize else {
            throw ThemeLabError.input(
                "\(folder.path)/vocab.txt: token '\(pipeline.model.names[largestId] ?? "")' on line \(largestId + 1) has id \(largestId), "
                    + "but config.json's vocab_size is \(c.vocabSize)")
        }
    }

    /// Token ids with [CLS] and [SEP], truncated to the maximum length.
    package func encode(_ text: String) -> [Int32] { pipeline.encode(text) }

    /// Token strings, for inspection.
    package func tokens(_ text: String) -> [String] { pipeline.tokens(text) }
}

/// WordPiece (Schuster & Nakajima 2012, as BERT uses it): a word is split greedily, longest vocabulary match first,
/// continuations prefixed `##`; a word over `maxCharacters` code points, or one with no full match, is the unknown
/// token alone.
package struct WordPieceModel: Sendable {
    package let vocabulary: [String: Int32]
    package let unknown: Int32
    package var continuation = "##"
    package var maxCharacters = 100
    /// The longest vocabulary entry in code points: no longer piece can match, so the search is linear in a word.
    package let longest: Int

    package init(vocabulary: [String: Int32], unknown: Int32, continuation: String = "##", maxCharacters: Int = 100) {
        (self.vocabulary, self.unknown, self.continuation, self.maxCharacters) = (vocabulary, unknown, continuation, maxCharacters)
        longest = vocabulary.keys.map(\.unicodeScalars.count).max() ?? 0
    }

    package func ids(_ word: String) -> [Int32] {
        let word = Array(word.unicodeScalars)
        if word.count > maxCharacters { return [unknown] }
        var pieces: [Int32] = []
        var start = 0
        while start < word.count {
            var end = Swift.min(word.count, start + longest)
            var found: Int32?
            while start < end {
                var piece = String(String.UnicodeScalarView(word[start..<end]))
                if start > 0 { piece = continuation + piece }
                if let id = vocabulary[piece] {
                    found = id
                    break
                }
                end -= 1
            }
            guard let id = found else { return [unknown] }
            pieces.append(id)
            start = end
        }
        return pieces
    }
}

/// BERT's normalizer and pre-tokenizer (transformers' `BasicTokenizer`; tokenizers' `BertNormalizer`,
/// `BertPreTokenizer`).
package enum BertText {
    /// Drops NUL, U+FFFD and control characters, turns whitespace into spaces, puts spaces around CJK ideographs,
    /// lower-cases, and strips accents (NFD, then no nonspacing marks).
    package static func normalize(_ text: String, lowercase: Bool, stripAccents: Bool, splitChineseChars: Bool) -> String {
        var cleaned = String.UnicodeScalarView()
        for s in text.unicodeScalars {
            if s.value == 0 || s.value == 0xFFFD || isControl(s) { continue }
            if isWhitespace(s) {
                cleaned.append(" ")
            } else if splitChineseChars && isCJK(s) {
                cleaned.append(contentsOf: [" ", s, " "])
            } else {
                cleaned.append(s)
            }
        }
        var w = String(cleaned)
        if lowercase { w = w.lowercased() }
        guard stripAccents else { return w }
        return String(
            String.UnicodeScalarView(
                w.decomposedStringWithCanonicalMapping.unicodeScalars.filter { $0.properties.generalCategory != .nonspacingMark }))
    }

    /// Words split on whitespace, each punctuation character a word of its own.
    package static func split(_ text: String) -> [String] {
        var words: [String] = []
        var current = String.UnicodeScalarView()
        func flush() {
            if !current.isEmpty { words.append(String(current)) }
            current = String.UnicodeScalarView()
        }
        for s in text.unicodeScalars {
            if isWhitespace(s) {
                flush()
            } else if isPunctuation(s) {
                flush()
                words.append(String(s))
            } else {
                current.append(s)
            }
        }
        flush()
        return words
    }

    package static func isWhitespace(_ s: Unicode.Scalar) -> Bool {
        s == " " || s == "\t" || s == "\n" || s == "\r" || s.properties.generalCategory == .spaceSeparator
    }

    package static func isControl(_ s: Unicode.Scalar) -> Bool {
        if s == "\t" || s == "\n" || s == "\r" { return false }
        switch s.properties.generalCategory {
        case .control, .format, .unassigned, .privateUse, .surrogate: return true
        default: return false
        }
    }

    package static func isPunctuation(_ s: Unicode.Scalar) -> Bool {
        let v = s.value
        if (33...47).contains(v) || (58...64).contains(v) || (91...96).contains(v) || (123...126).contains(v) { return true }
        switch s.properties.generalCategory {
        case .connectorPunctuation, .dashPunctuation, .openPunctuation, .closePunctuation,
            .initialPunctuation, .finalPunctuation, .otherPunctuation:
            return true
        default: return false
        }
    }

    package static func isCJK(_ s: Unicode.Scalar) -> Bool {
        let ranges: [ClosedRange<UInt32>] = [
            0x4E00...0x9FFF, 0x3400...0x4DBF, 0x20000...0x2A6DF, 0x2A700...0x2B73F,
            0x2B740...0x2B81F, 0x2B820...0x2CEAF, 0xF900...0xFAFF, 0x2F800...0x2FA1F,
        ]
        return ranges.contains { $0.contains(s.value) }
    }
}
