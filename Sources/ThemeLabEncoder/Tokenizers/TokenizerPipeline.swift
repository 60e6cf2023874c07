import Foundation
import ThemeLabCore

/// A tokenizer as `tokenizer.json` declares it (the format of HuggingFace's tokenizers library): normalizers on the
/// text, pre-tokenizers that cut it into words, a model that turns each word into ids, and the special tokens the
/// post-processor puts around a sentence; truncated as sentence-transformers truncates (the words' ids cut to the
/// maximum length less the special tokens). Each part the file names and the harness does not implement is refused
/// naming the file and the type, before any text is read.
package struct TokenizerPipeline: SentenceTokenizer {
    package var normalizers: [TextNormalizer]
    package var preTokenizers: [PreTokenizer]
    package var model: TokenModel
    package var prefix: [Int32], suffix: [Int32]
    package var maxLength: Int

    package var largestId: Int32 { Swift.max(model.largestId, (prefix + suffix).max() ?? 0) }

    /// Every step is linear in the text (the normalizers lengthen it at most `TextNormalizer.maxGrowth`-fold, checked
    /// at load), and words stop being turned into ids once the model's length is reached.
    package func encode(_ text: String) -> [Int32] {
        let normalized = normalizers.reduce(text) { $1.apply($0) }
        let words = preTokenizers.reduce([normalized]) { words, p in words.flatMap { p.split($0) } }
        let room = Swift.max(0, maxLength - prefix.count - suffix.count)
        var ids: [Int32] = []
        for word in words where ids.count < room { ids += model.ids(word) }
        return prefix + ids.prefix(room) + suffix
    }

    /// Token strings, for inspection.
    package func tokens(_ text: String) -> [String] {
        let names = model.names
        return encode(text).map { names[$0] ?? "<\($0)>" }
    }

    package init(
        normalizers: [TextNormalizer], preTokenizers: [PreTokenizer], model: TokenModel, prefix: [Int32], suffix: [Int32], maxLength: Int
    ) {
        (self.normalizers, self.preTokenizers, self.model) = (normalizers, preTokenizers, model)
        (self.prefix, self.suffix, self.maxLength) = (prefix, suffix, maxLength)
    }

    /// From a parsed tokenizer.json.
    package init(_ json: [String: Any], file: String, maxLength: Int) throws {
        func fail(_ what: String) -> ThemeLabError { .input("\(file): \(what)") }
        normalizers = try TextNormalizer.parse(json["normalizer"], fail: fail)
        try TextNormalizer.checkGrowth(normalizers, fail: fail)
        preTokenizers = try PreTokenizer.parse(json["pre_tokenizer"], fail: fail)
        guard let m = json["model"] as? [String: Any] else { throw fail("no 'model'") }
        model = try TokenModel(m, addedTokens: json["added_tokens"] as? [[String: Any]] ?? [], fail: fail)
        (prefix, suffix) = try Self.specialTokens(json["post_processor"], fail: fail)
        guard !(prefix + suffix).isEmpty else {
            throw fail("the post_processor puts no special token around a sentence (an empty text would have none)")
        }
        guard prefix.count + suffix.count < maxLength else {
            throw fail(
                "the post_processor puts \(prefix.count + suffix.count) special tokens around a sentence of at most \(maxLength) tokens, "
                    + "no room for its text")
        }
        self.maxLength = maxLength
    }

    /// The ids before and after a single sentence: TemplateProcessing's `single` template, or BertProcessing's and
    /// RobertaProcessing's `cls` and `sep`.
    package static func specialTokens(_ value: Any?, fail: (String) -> ThemeLabError) throws -> ([Int32], [Int32]) {
        guard let p = value as? [String: Any] else { return ([], []) }
        switch p["type"] as? String {
        case "BertProcessing", "RobertaProcessing":
            guard let cls = ((p["cls"] as? [Any])?.last as? Int).flatMap(Int32.init(exactly:)),
                let sep = ((p["sep"] as? [Any])?.last as? Int).flatMap(Int32.init(exactly:)), cls >= 0, sep >= 0
            else {
                throw fail("post_processor \(p["type"]!) without 'cls' and 'sep' ids")
            }
            return ([cls], [sep])
        case "TemplateProcessing":
            let specials = p["special_tokens"] as? [String: [String: Any]] ?? [:]
            var (before, after, seen) = ([Int32](), [Int32](), false)
            for piece in p["single"] as? [[String: Any]] ?? [] {
                if piece["Sequence"] != nil {
                    seen = true
                } else if let name = (piece["SpecialToken"] as? [String: Any])?["id"] as? String {
                    let given = specials[name]?["ids"] as? [Int] ?? []
                    let ids = given.compactMap { Int32(exactly: $0) }.filter { $0 >= 0 }
                    guard !ids.isEmpty, ids.count == given.count else {
                        throw fail("post_processor: special token '\(name)' needs ids from 0 to 2³¹ − 1")
                    }
                    if seen { after += ids } else { before += ids }
                }
            }
            return (before, after)
        default:
            throw fail(
                "post_processor '\(p["type"] ?? "")' is not supported (expected TemplateProcessing, BertProcessing or RobertaProcessing)")
        }
    }
}

/// The normalizers of tokenizer.json the harness runs.
package enum TextNormalizer: Sendable {
    case bert(lowercase: Bool, stripAccents: Bool, splitChineseChars: Bool)
    case unicode(String)  // NFC, NFD, NFKC, NFKD
    case lowercase
    case stripAccents
    case strip(left: Bool, right: Bool)
    case replace(String, with: String)
    /// tokenizers' Replace with the regex ' {2,}' (SentencePiece tokenizers): each run of two or more spaces.
    case replaceSpaceRuns(with: String)
    case prepend(String)
    case precompiled(PrecompiledNormalizer)

    package func apply(_ s: String) -> String {
        switch self {
        case .bert(let lower, let strip, let chinese):
            return BertText.normalize(s, lowercase: lower, stripAccents: strip, splitChineseChars: chinese)
        case .unicode("NFC"): return s.precomposedStringWithCanonicalMapping
        case .unicode("NFD"): return s.decomposedStringWithCanonicalMapping
        case .unicode("NFKC"): return s.precomposedStringWithCompatibilityMapping
        case .unicode: return s.decomposedStringWithCompatibilityMapping
        case .lowercase: return s.lowercased()
        case .stripAccents:
            return String(String.UnicodeScalarView(s.unicodeScalars.filter { $0.properties.generalCategory != .nonspacingMark }))
        case .strip(let left, let right):
            var scalars = Substring(s).unicodeScalars[...]
            while left, let f = scalars.first, f.properties.isWhitespace { scalars.removeFirst() }
            while right, let l = scalars.last, l.properties.isWhitespace { scalars.removeLast() }
            return String(String.UnicodeScalarView(scalars))
        case .replace(let pattern, let content): return s.replacingOccurrences(of: pattern, with: content)
        case .replaceSpaceRuns(let content):
            // On UTF-8 bytes: a space is one byte and never part of another character's.
            var (out, run) = ([UInt8](), 0)
            out.reserveCapacity(s.utf8.count)
            func flush() {
                if run >= 2 { out.append(contentsOf: content.utf8) } else if run == 1 { out.append(0x20) }
                run = 0
            }
            for b in s.utf8 {
                if b == 0x20 {
                    run += 1
                } else {
                    flush()
                    out.append(b)
                }
            }
            flush()
            return String(decoding: out, as: UTF8.self)
        case .prepend(let p): return s.isEmpty ? s : p + s
        case .precompiled(let p): return p.apply(s)
        }
    }

    /// The most code points a step makes of one (Unicode's largest expansions: NFC 3, NFD 4, NFKC and NFKD 18; a
    /// full lower-case mapping 3; BertNormalizer spaces out an ideograph, lower-cases and decomposes), and the most it
    /// adds to a whole text: a text of n code points leaves the step with at most factor × n + added.
    package var growth: (factor: Int, added: Int) {
        switch self {
        case .bert: (3 * 3 * 4, 0)
        case .unicode("NFC"): (3, 0)
        case .unicode("NFD"): (4, 0)
        case .unicode: (18, 0)
        case .lowercase: (3, 0)
        case .stripAccents, .strip: (1, 0)
        case .replace(let pattern, let content): (Self.ratio(content, pattern.unicodeScalars.count), 0)
        case .replaceSpaceRuns(let content): (Self.ratio(content, 2), 0)
        case .prepend(let p): (1, p.unicodeScalars.count)
        case .precompiled(let p): (Swift.max(1, p.longestReplacement), 0)
        }
    }

    /// ⌈content / pattern⌉ in code points, at least 1: what a replacement makes of each code point it replaces.
    package static func ratio(_ content: String, _ pattern: Int) -> Int {
        pattern == 0 ? 1 : Swift.max(1, (content.unicodeScalars.count + pattern - 1) / pattern)
    }

    /// How much longer the normalizers may make a text: factor × n + `maxAdded` code points. The largest real chains
    /// (BertNormalizer 36, NFKC then Lowercase 54) fit; 40 chained Replace("a" → "aa") would make 2⁴⁰.
    package static let maxGrowth = 64, maxAdded = 4096

    /// Refuses, naming the step, a chain whose worst case lengthens a text more than `maxGrowth`-fold.
    package static func checkGrowth(_ chain: [TextNormalizer], fail: (String) -> ThemeLabError) throws {
        var (factor, added) = (1, 0)
        for (k, step) in chain.enumerated() {
            let g = step.growth
            // No overflow: both were within bounds before this step, and a step's figures are at most a file's size.
            (factor, added) = (factor * g.factor, added * g.factor + g.added)
            guard factor <= maxGrowth, added <= maxAdded else {
                throw fail(
                    "normalizer step \(k + 1) of \(chain.count) (\(step.name)) lets the chain lengthen a text to \(factor) × n + \(added) "
                        + "code points; at most \(maxGrowth) × n + \(maxAdded) are allowed")
            }
        }
    }

    /// The step's type as tokenizer.json names it.
    package var name: String {
        switch self {
        case .bert: "BertNormalizer"
        case .unicode(let form): form
        case .lowercase: "Lowercase"
        case .stripAccents: "StripAccents"
        case .strip: "Strip"
        case .replace, .replaceSpaceRuns: "Replace"
        case .prepend: "Prepend"
        case .precompiled: "Precompiled"
        }
    }

    package static func parse(_ value: Any?, fail: (String) -> ThemeLabError) throws -> [TextNormalizer] {
        guard let n = value as? [String: Any] else { return [] }
        let type = n["type"] as? String ?? ""
        switch type {
        case "Sequence": return try (n["normalizers"] as? [Any] ?? []).flatMap { try parse($0, fail: fail) }
        case "BertNormalizer":
            let lower = n["lowercase"] as? Bool ?? true
            if (n["clean_text"] as? Bool) == false { throw fail("normalizer BertNormalizer with clean_text false is not supported") }
            return [
                .bert(
                    lowercase: lower, stripAccents: n["strip_accents"] as? Bool ?? lower,
                    splitChineseChars: n["handle_chinese_chars"] as? Bool ?? true)
            ]
        case "NFC", "NFD", "NFKC", "NFKD": return [.unicode(type)]
        case "Lowercase": return [.lowercase]
        case "StripAccents": return [.stripAccents]
        case "Strip": return [.strip(left: n["strip_left"] as? Bool ?? true, right: n["strip_right"] as? Bool ?? true)]
        case "Prepend": return [.prepend(n["prepend"] as? String ?? "")]
        case "Precompiled":
            guard let map = n["precompiled_charsmap"] as? String else {
                throw fail("normalizer Precompiled without a precompiled_charsmap")
            }
            return [.precompiled(try PrecompiledNormalizer(base64: map, fail: fail))]
        case "Replace":
            let pattern = n["pattern"] as? [String: String] ?? [:]
            guard let text = pattern["String"] ?? pattern["Regex"] else { throw fail("normalizer Replace without a pattern") }
            let content = n["content"] as? String ?? ""
            guard pattern["Regex"] != nil else { return [.replace(text, with: content)] }
            // A regular expression from a file could take exponential time: only the one SentencePiece tokenizers use.
            guard text == " {2,}" else { throw fail("normalizer Replace: regex '\(text)' is not supported (only ' {2,}', runs of spaces)") }
            return [.replaceSpaceRuns(with: content)]
        default:
            throw fail(
                "normalizer '\(type)' is not supported (expected BertNormalizer, NFC, NFD, NFKC, NFKD, Lowercase, StripAccents, Strip, "
                    + "Replace, Prepend, Precompiled or a Sequence of them)")
        }
    }
}

/// The pre-tokenizers of tokenizer.json the harness runs.
package enum PreTokenizer: Sendable {
    case bert
    case whitespaceSplit
    case byteLevel(addPrefixSpace: Bool, useRegex: Bool)
    case metaspace(replacement: String, prepend: Bool, split: Bool)

    package func split(_ s: String) -> [String] {
        switch self {
        case .bert: return BertText.split(s)
        case .whitespaceSplit: return s.split(whereSeparator: { $0.unicodeScalars.allSatisfy(\.properties.isWhitespace) }).map(String.init)
        case .byteLevel(let prefixSpace, let regex):
            let text = prefixSpace && !s.hasPrefix(" ") ? " " + s : s
            return (regex ? ByteLevel.gpt2Words(text) : [text]).map(ByteLevel.encode)
        case .metaspace(let r, let prepend, let split):
            var t = s.replacingOccurrences(of: " ", with: r)
            if prepend && !t.hasPrefix(r) { t = r + t }
            guard split else { return [t] }
            // Each piece starts at a replacement character (tokenizers' MergedWithNext).
            var pieces: [String] = []
            for part in t.components(separatedBy: r).enumerated() where part.offset > 0 || !part.element.isEmpty {
                pieces.append(part.offset > 0 ? r + part.element : part.element)
            }
            return pieces
        }
    }

    package static func parse(_ value: Any?, fail: (String) -> ThemeLabError) throws -> [PreTokenizer] {
        guard let p = value as? [String: Any] else { return [] }
        let type = p["type"] as? String ?? ""
        switch type {
        case "Sequence": return try (p["pretokenizers"] as? [Any] ?? []).flatMap { try parse($0, fail: fail) }
        case "BertPreTokenizer": return [.bert]
        case "WhitespaceSplit": return [.whitespaceSplit]
        case "ByteLevel":
            return [.byteLevel(addPrefixSpace: p["add_prefix_space"] as? Bool ?? true, useRegex: p["use_regex"] as? Bool ?? true)]
        case "Metaspace":
            let scheme = p["prepend_scheme"] as? String ?? ((p["add_prefix_space"] as? Bool ?? true) ? "always" : "never")
            guard scheme != "first" else { throw fail("pre_tokenizer Metaspace with prepend_scheme 'first' is not supported") }
            guard (p["replacement"] as? String ?? "▁").count == 1 else {
                throw fail("pre_tokenizer Metaspace: 'replacement' must be one character")
            }
            return [
                .metaspace(replacement: p["replacement"] as? String ?? "▁", prepend: scheme == "always", split: p["split"] as? Bool ?? true)
            ]
        default:
            throw fail(
                "pre_tokenizer '\(type)' is not supported (expected BertPreTokenizer, WhitespaceSplit, ByteLevel, Metaspace or a Sequence)")
        }
    }
}
