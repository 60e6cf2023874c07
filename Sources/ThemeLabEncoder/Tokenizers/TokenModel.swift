import Foundation
import ThemeLabCore

/// The model part of a tokenizer.json: how one pre-tokenized word becomes ids.
package enum TokenModel: Sendable {
    case wordPiece(WordPieceModel)
    case bpe(BPEModel)
    case unigram(UnigramModel)

    package func ids(_ word: String) -> [Int32] {
        switch self {
        case .wordPiece(let m): m.ids(word)
        case .bpe(let m): m.ids(word)
        case .unigram(let m): m.ids(word)
        }
    }

    package var largestId: Int32 {
        switch self {
        case .wordPiece(let m): m.vocabulary.values.max() ?? 0
        case .bpe(let m): m.vocabulary.values.max() ?? 0
        case .unigram(let m): Int32(m.pieces.count - 1)  // its unknown id too
        }
    }

    /// Id → token, for inspection.
    package var names: [Int32: String] {
        let vocabulary: [String: Int32]
        switch self {
        case .wordPiece(let m): vocabulary = m.vocabulary
        case .bpe(let m): vocabulary = m.vocabulary
        case .unigram(let m): vocabulary = m.index
        }
        return Dictionary(vocabulary.map { ($1, $0) }, uniquingKeysWith: { a, _ in a })
    }

    /// From tokenizer.json's `model`; added tokens outside the vocabulary count as ids too (their largest is checked).
    package init(_ m: [String: Any], addedTokens: [[String: Any]], fail: (String) -> ThemeLabError) throws {
        func vocabulary() throws -> [String: Int32] {
            guard let v = m["vocab"] as? [String: Int], v.values.allSatisfy({ (0..<Int(Int32.max)).contains($0) }) else {
                throw fail("model 'vocab' must map tokens to ids")
            }
            var all = v.mapValues(Int32.init)
            for t in addedTokens {
                guard let c = t["content"] as? String, let id = (t["id"] as? Int).flatMap(Int32.init(exactly:)), id >= 0 else {
                    throw fail("added token \(t["content"] ?? "") needs a 'content' and an id from 0 to 2³¹ − 1")
                }
                if all[c] == nil { all[c] = id }
            }
            return all
        }
        func unknown(_ vocabulary: [String: Int32]) throws -> Int32? {
            guard let name = m["unk_token"] as? String else { return nil }
            guard let id = vocabulary[name] else { throw fail("model's unk_token '\(name)' is not in its vocab") }
            return id
        }
        switch m["type"] as? String {
        case "WordPiece":
            let v = try vocabulary()
            guard let unk = try unknown(v) else { throw fail("WordPiece model without an unk_token") }
            let longest = m["max_input_chars_per_word"] as? Int ?? 100
            guard (1...1000).contains(longest) else { throw fail("WordPiece max_input_chars_per_word \(longest) is outside 1…1000") }
            self = .wordPiece(
                WordPieceModel(
                    vocabulary: v, unknown: unk, continuation: m["continuing_subword_prefix"] as? String ?? "##",
                    maxCharacters: longest))
        case "BPE":
            if (m["byte_fallback"] as? Bool) == true { throw fail("BPE with byte_fallback is not supported") }
            if let p = m["continuing_subword_prefix"] as? String, !p.isEmpty {
                throw fail("BPE with a continuing_subword_prefix is not supported")
            }
            if let s = m["end_of_word_suffix"] as? String, !s.isEmpty { throw fail("BPE with an end_of_word_suffix is not supported") }
            let v = try vocabulary()
            let merges = try (m["merges"] as? [Any] ?? []).map { merge -> (String, String) in
                if let pair = merge as? [String], pair.count == 2 { return (pair[0], pair[1]) }
                let parts = (merge as? String)?.split(separator: " ", maxSplits: 1).map(String.init) ?? []
                guard parts.count == 2 else { throw fail("BPE merge \(merge) is not two tokens") }
                return (parts[0], parts[1])
            }
            self = .bpe(
                BPEModel(vocabulary: v, merges: merges, unknown: try unknown(v), ignoreMerges: m["ignore_merges"] as? Bool ?? false))
        case "Unigram":
            self = .unigram(try Self.unigram(m, fail: fail))
        case let type:
            throw fail("tokenizer model '\(type ?? "")' is not supported (expected WordPiece, BPE or Unigram)")
        }
    }

    /// A Unigram model from tokenizer.json's `model`: [piece, score] pairs and the unknown piece's id.
    package static func unigram(_ m: [String: Any], fail: (String) -> ThemeLabError) throws -> UnigramModel {
        if (m["byte_fallback"] as? Bool) == true { throw fail("Unigram with byte_fallback is not supported") }
        guard let entries = m["vocab"] as? [[Any]] else { throw fail("Unigram 'vocab' must be a list of [piece, score]") }
        let pieces = try entries.map { e -> (piece: String, score: Double) in
            guard e.count == 2, let p = e[0] as? String, let s = (e[1] as? Double) ?? (e[1] as? Int).map(Double.init), s.isFinite else {
                throw fail("Unigram vocab entry \(e) is not [piece, score]")
            }
            return (p, s)
        }
        guard let unk = m["unk_id"] as? Int, pieces.indices.contains(unk) else {
            throw fail("Unigram model needs an unk_id within its vocab")
        }
        // The search tries every piece length at every character: pieces far longer than SentencePiece's 16 would make it
        // quadratic in a word.
        if let long = pieces.first(where: { $0.piece.unicodeScalars.count > UnigramModel.longestPiece }) {
            throw fail("Unigram piece '\(long.piece.prefix(20))…' is over \(UnigramModel.longestPiece) characters")
        }
        return UnigramModel(pieces: pieces, unknown: Int32(unk))
    }
}

/// Byte-pair encoding (Sennrich et al. 2016) as tokenizers runs it for GPT-2 and RoBERTa: a word's characters are merged
/// pair by pair, always the adjacent pair that comes first in the merge list (the leftmost among equals), until no
/// listed pair is left; each resulting symbol's id (a symbol not in the vocabulary: the unknown token, or left out
/// without one). The candidate pairs wait in a heap by (rank, position), as tokenizers' `Word::merge_all` keeps them,
/// so a word of n characters takes O(n log n) merges' work, not a rescan after every merge.
package struct BPEModel: Sendable {
    package let vocabulary: [String: Int32]
    package let ranks: [String: Int]
    package let unknown: Int32?
    package let ignoreMerges: Bool

    package init(vocabulary: [String: Int32], merges: [(String, String)], unknown: Int32?, ignoreMerges: Bool) {
        self.vocabulary = vocabulary
        var ranks: [String: Int] = [:]
        for (rank, (a, b)) in merges.enumerated() where ranks[a + " " + b] == nil { ranks[a + " " + b] = rank }
        (self.ranks, self.unknown, self.ignoreMerges) = (ranks, unknown, ignoreMerges)
    }

    /// A pair waiting to be merged: symbols `left` and `right` as they were at `versions`.
    package struct Candidate: Comparable {
        package var rank: Int, left: Int, right: Int
        package var versions: (Int, Int)
        package static func < (a: Self, b: Self) -> Bool { (a.rank, a.left) < (b.rank, b.left) }
        package static func == (a: Self, b: Self) -> Bool { (a.rank, a.left) == (b.rank, b.left) }
    }

    package func ids(_ word: String) -> [Int32] {
        if ignoreMerges, let id = vocabulary[word] { return [id] }
        var symbols = word.unicodeScalars.map { String($0) }
        let n = symbols.count
        // A doubly linked list over the symbols; a symbol's version moves each time it absorbs its right neighbour.
        var next = Array(1...Swift.max(1, n))
        var previous = Array(-1..<Swift.max(0, n - 1))
        var version = [Int](repeating: 0, count: n)
        var merged = [Bool](repeating: false, count: n)
        var heap = MinHeap<Candidate>()
        func offer(_ i: Int) {
            guard i >= 0, next[i] < n, let rank = ranks[symbols[i] + " " + symbols[next[i]]] else { return }
            heap.push(Candidate(rank: rank, left: i, right: next[i], versions: (version[i], version[next[i]])))
        }
        for i in 0..<Swift.max(0, n - 1) { offer(i) }
        while let c = heap.pop() {
            guard !merged[c.left], next[c.left] == c.right, (version[c.left], version[c.right]) == c.versions else { continue }
            symbols[c.left] += symbols[c.right]
            version[c.left] += 1
            merged[c.right] = true
            next[c.left] = next[c.right]
            if next[c.left] < n { previous[next[c.left]] = c.left }
            offer(previous[c.left])
            offer(c.left)
        }
        return symbols.indices.filter { !merged[$0] }.compactMap { vocabulary[symbols[$0]] ?? unknown }
    }
}

/// The SentencePiece unigram model (Kudo 2018) as tokenizers encodes with it: the segmentation of the word into
/// vocabulary pieces with the largest total score (Viterbi; among equal totals the first found, as tokenizers'
/// lattice keeps it), a character no piece covers being the unknown piece at the lowest score less 10, and runs of
/// unknown pieces fused into one.
package struct UnigramModel: Sendable {
    package let pieces: [(piece: String, score: Double)]
    package let unknown: Int32
    package let index: [String: Int32]
    package let longest: Int
    package let unknownScore: Double
    package static let longestPiece = 64

    package init(pieces: [(piece: String, score: Double)], unknown: Int32) {
        self.pieces = pieces
        self.unknown = unknown
        var index: [String: Int32] = [:]
        // A piece listed twice takes its last id, as tokenizers' Unigram builds its map.
        for (i, p) in pieces.enumerated() { index[p.piece] = Int32(i) }
        self.index = index
        longest = Swift.max(1, pieces.map { $0.piece.unicodeScalars.count }.max() ?? 1)
        unknownScore = (pieces.map(\.score).min() ?? 0) - 10
        trie = PieceTrie(index)
    }

    /// The pieces by their code points: node 0 is the root, an edge is keyed by its parent node and code point (one
    /// dictionary for all, about 12 bytes an edge), `piece[node]` is the id of the piece that ends there or −1.
    package struct PieceTrie: Sendable {
        package var edges: [UInt64: Int32] = [:]
        package var piece: [Int32] = [-1]

        package init(_ index: [String: Int32]) {
            for (text, id) in index {
                var node = 0
                for c in text.unicodeScalars {
                    let k = Self.key(node, c.value)
                    if let next = edges[k] {
                        node = Int(next)
                    } else {
                        edges[k] = Int32(piece.count)
                        node = piece.count
                        piece.append(-1)
                    }
                }
                piece[node] = id
            }
        }

        package static func key(_ node: Int, _ scalar: UInt32) -> UInt64 { UInt64(node) << 21 | UInt64(scalar) }

        package func child(_ node: Int, _ scalar: UInt32) -> Int? { edges[Self.key(node, scalar)].map(Int.init) }
    }
    package let trie: PieceTrie

    package func ids(_ word: String) -> [Int32] {
        let chars = Array(word.unicodeScalars)
        guard !chars.isEmpty else { return [] }
        // best[e]: the best total of a segmentation of chars[0..<e], the id of its last piece and where that piece starts.
        var best = [(total: Double, id: Int32, start: Int)?](repeating: nil, count: chars.count + 1)
        best[0] = (0, -1, 0)
        for s in 0..<chars.count {
            guard let before = best[s] else { continue }
            var single = false
            // Walk the trie along chars[s...]: every piece that starts at s, without building a string.
            var node = 0
            for e in s + 1...Swift.min(chars.count, s + longest) {
                guard let child = trie.child(node, chars[e - 1].value) else { break }
                node = child
                let id = trie.piece[node]
                guard id >= 0 else { continue }
                single = single || e == s + 1
                let total = before.total + pieces[Int(id)].score
                if best[e] == nil || total > best[e]!.total { best[e] = (total, id, s) }
            }
            if !single {
                let total = before.total + unknownScore
                if best[s + 1] == nil || total > best[s + 1]!.total { best[s + 1] = (total, unknown, s) }
            }
        }
        var ids: [Int32] = []
        var e = chars.count
        while e > 0, let node = best[e] {
            if !(node.id == unknown && ids.last == unknown) { ids.append(node.id) }
            e = node.start
        }
        return ids.reversed()
    }
}

/// GPT-2's byte-level pre-tokenizer (Radford et al. 2019; tokenizers' `ByteLevel`): the text cut by GPT-2's pattern,
/// then every UTF-8 byte written as one printable character, so that no byte is unknown.
package enum ByteLevel {
    /// Byte → character: printable Latin-1 bytes stand for themselves, the others for U+0100 onwards, in order.
    package static let characters: [Character] = {
        var printable = Array(33...126) + Array(161...172) + Array(174...255)
        var mapped = printable
        var next = 256
        for b in 0..<256 where !printable.contains(b) {
            printable.append(b)
            mapped.append(next)
            next += 1
        }
        var table = [Character](repeating: " ", count: 256)
        for (b, c) in zip(printable, mapped) { table[b] = Character(Unicode.Scalar(UInt32(c))!) }
        return table
    }()

    package static func encode(_ word: String) -> String { String(word.utf8.map { characters[Int($0)] }) }

    /// GPT-2's pattern `'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+`, by hand.
    package static func gpt2Words(_ text: String) -> [String] {
        let c = Array(text.unicodeScalars)
        func isLetter(_ s: Unicode.Scalar) -> Bool { s.properties.generalCategory.isLetter }
        func isNumber(_ s: Unicode.Scalar) -> Bool { s.properties.generalCategory.isNumber }
        func isSpace(_ s: Unicode.Scalar) -> Bool { s.properties.isWhitespace }
        func isOther(_ s: Unicode.Scalar) -> Bool { !isSpace(s) && !isLetter(s) && !isNumber(s) }
        var words: [String] = []
        var i = 0
        while i < c.count {
            var j = i
            if c[i] == "'", let suffix = ["s", "t", "re", "ve", "m", "ll", "d"].first(where: { matches($0, c, at: i + 1) }) {
                j = i + 1 + suffix.unicodeScalars.count
            } else {
                let start = c[i] == " " && i + 1 < c.count && !isSpace(c[i + 1]) ? i + 1 : i
                let classes: [(Unicode.Scalar) -> Bool] = [isLetter, isNumber, isOther]
                if let kind = classes.first(where: { $0(c[start]) }) {
                    j = start
                    while j < c.count && kind(c[j]) { j += 1 }
                } else {
                    // Whitespace: a run, less its last character when a non-space follows (it starts the next word).
                    while j < c.count && isSpace(c[j]) { j += 1 }
                    if j < c.count && j - i > 1 { j -= 1 }
                }
            }
            words.append(String(String.UnicodeScalarView(c[i..<j])))
            i = j
        }
        return words
    }

    package static func matches(_ s: String, _ c: [Unicode.Scalar], at i: Int) -> Bool {
        let t = Array(s.unicodeScalars)
        return i + t.count <= c.count && Array(c[i..<i + t.count]) == t
    }
}

extension Unicode.GeneralCategory {
    package var isLetter: Bool { [.uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter].contains(self) }
    package var isNumber: Bool { [.decimalNumber, .letterNumber, .otherNumber].contains(self) }
}
