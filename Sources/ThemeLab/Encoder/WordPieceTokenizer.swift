import Foundation

/// BERT's uncased tokenizer (Devlin et al. 2019; HuggingFace `BertTokenizer`): basic
/// tokenization (clean text, split out CJK ideographs, lower-case and strip accents, split on
/// whitespace and punctuation), then WordPiece (greedy longest match first, `##` for
/// continuations, `[UNK]` for a word over 100 code points or one with no full match).
/// Works on Unicode scalars, as Python's `str` does.
public struct WordPieceTokenizer: Sendable {
    let vocabulary: [String: Int32]
    let lowercase: Bool
    let stripAccents: Bool
    let splitChineseChars: Bool
    let maxLength: Int
    let maxWordLength = 100
    let cls: Int32, sep: Int32, unk: Int32

    public init(vocabularyFile: String, lowercase: Bool, stripAccents: Bool?, splitChineseChars: Bool, maxLength: Int) throws {
        guard let data = FileManager.default.contents(atPath: vocabularyFile) else {
            throw ThemeLabError.input("\(vocabularyFile): cannot read vocabulary")
        }
        try self.init(
            vocabulary: data, file: vocabularyFile, lowercase: lowercase, stripAccents: stripAccents,
            splitChineseChars: splitChineseChars, maxLength: maxLength)
    }

    /// From the bytes of a vocab.txt; `file` names it in errors.
    public init(
        vocabulary data: Data, file vocabularyFile: String, lowercase: Bool, stripAccents: Bool?, splitChineseChars: Bool,
        maxLength: Int
    ) throws {
        guard maxLength >= 2 else {
            throw ThemeLabError.input("\(vocabularyFile): a maximum length of \(maxLength) leaves no room for [CLS] and [SEP]")
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
        self.vocabulary = vocabulary
        self.lowercase = lowercase
        self.stripAccents = stripAccents ?? lowercase
        self.splitChineseChars = splitChineseChars
        self.maxLength = maxLength
        cls = try id("[CLS]")
        sep = try id("[SEP]")
        unk = try id("[UNK]")
    }

    public init(folder: ModelFolder, configuration c: BERTConfiguration) throws {
        try self.init(
            vocabularyFile: "\(folder.path)/vocab.txt", lowercase: c.lowercase, stripAccents: c.stripAccents,
            splitChineseChars: c.tokenizeChineseChars, maxLength: c.maxSequenceLength)
        // Every id must index a row of the embedding table.
        if let (token, id) = vocabulary.max(by: { $0.value < $1.value }), Int(id) >= c.vocabSize {
            throw ThemeLabError.input(
                "\(folder.path)/vocab.txt: token '\(token)' on line \(id + 1) has id \(id), "
                    + "but config.json's vocab_size is \(c.vocabSize)")
        }
    }

    /// Token ids with [CLS] and [SEP], truncated to `maxLength`.
    public func encode(_ text: String) -> [Int32] {
        let pieces = basicTokens(text).flatMap(wordPieces)
        return [cls] + pieces.prefix(maxLength - 2) + [sep]
    }

    /// Token strings, for inspection.
    public func tokens(_ text: String) -> [String] {
        let names = Dictionary(vocabulary.map { ($1, $0) }, uniquingKeysWith: { a, _ in a })
        return encode(text).map { names[$0]! }
    }

    /// Words after cleaning, CJK splitting, case folding and punctuation splitting.
    func basicTokens(_ text: String) -> [[Unicode.Scalar]] {
        var cleaned = String.UnicodeScalarView()
        for s in text.unicodeScalars {
            if s.value == 0 || s.value == 0xFFFD || isControl(s) { continue }
            if isWhitespace(s) {
                cleaned.append(" ")
            } else if splitChineseChars && isCJK(s) {
                cleaned.append(" ")
                cleaned.append(s)
                cleaned.append(" ")
            } else {
                cleaned.append(s)
            }
        }
        var words: [[Unicode.Scalar]] = []
        for word in String(cleaned).split(separator: " ") {
            var w = String(word)
            if lowercase { w = w.lowercased() }
            if stripAccents {
                w = String(
                    String.UnicodeScalarView(
                        w.decomposedStringWithCanonicalMapping.unicodeScalars.filter {
                            $0.properties.generalCategory != .nonspacingMark
                        }))
            }
            var current: [Unicode.Scalar] = []
            for s in w.unicodeScalars {
                if isPunctuation(s) {
                    if !current.isEmpty {
                        words.append(current)
                        current = []
                    }
                    words.append([s])
                } else {
                    current.append(s)
                }
            }
            if !current.isEmpty { words.append(current) }
        }
        return words
    }

    func wordPieces(_ word: [Unicode.Scalar]) -> [Int32] {
        if word.count > maxWordLength { return [unk] }
        var pieces: [Int32] = []
        var start = 0
        while start < word.count {
            var end = word.count
            var found: Int32?
            while start < end {
                var piece = String(String.UnicodeScalarView(word[start..<end]))
                if start > 0 { piece = "##" + piece }
                if let id = vocabulary[piece] {
                    found = id
                    break
                }
                end -= 1
            }
            guard let id = found else { return [unk] }
            pieces.append(id)
            start = end
        }
        return pieces
    }

    func isWhitespace(_ s: Unicode.Scalar) -> Bool {
        s == " " || s == "\t" || s == "\n" || s == "\r" || s.properties.generalCategory == .spaceSeparator
    }

    func isControl(_ s: Unicode.Scalar) -> Bool {
        if s == "\t" || s == "\n" || s == "\r" { return false }
        switch s.properties.generalCategory {
        case .control, .format, .unassigned, .privateUse, .surrogate: return true
        default: return false
        }
    }

    func isPunctuation(_ s: Unicode.Scalar) -> Bool {
        let v = s.value
        if (33...47).contains(v) || (58...64).contains(v) || (91...96).contains(v) || (123...126).contains(v) { return true }
        switch s.properties.generalCategory {
        case .connectorPunctuation, .dashPunctuation, .openPunctuation, .closePunctuation,
            .initialPunctuation, .finalPunctuation, .otherPunctuation:
            return true
        default: return false
        }
    }

    func isCJK(_ s: Unicode.Scalar) -> Bool {
        let ranges: [ClosedRange<UInt32>] = [
            0x4E00...0x9FFF, 0x3400...0x4DBF, 0x20000...0x2A6DF, 0x2A700...0x2B73F,
            0x2B740...0x2B81F, 0x2B820...0x2CEAF, 0xF900...0xFAFF, 0x2F800...0x2FA1F,
        ]
        return ranges.contains { $0.contains(s.value) }
    }
}
