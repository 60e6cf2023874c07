import Foundation
import ThemeLabCore

/// SentencePiece's compiled normalization rules (tokenizers' `Precompiled` normalizer, the `precompiled_charsmap` of the
/// hub's XLM-RoBERTa tokenizers: NFKC and a few more mappings, compiled): a darts-clone double-array trie over UTF-8
/// byte strings whose values index NUL-terminated replacements. As the spm_precompiled crate applies it: each grapheme
/// cluster shorter than 6 bytes is replaced whole when the trie holds a prefix of it, else each of its characters that
/// the trie holds is replaced.
package struct PrecompiledNormalizer: Sendable {
    /// The trie's 32-bit units.
    package let units: [UInt32]
    /// The replacements, NUL-terminated, one after another.
    package let replacements: [UInt8]
    /// The most bytes a replacement holds, so at most the code points one character of a text may become.
    package let longestReplacement: Int

    /// From the base64 `precompiled_charsmap`: a little-endian 32-bit trie size in bytes, the trie, the replacements.
    package init(base64 text: String, fail: (String) -> ThemeLabError) throws {
        guard let data = Data(base64Encoded: text), data.count >= 4 else {
            throw fail("normalizer Precompiled: 'precompiled_charsmap' is not base64")
        }
        let bytes = [UInt8](data)
        let size = Int(bytes[0]) | Int(bytes[1]) << 8 | Int(bytes[2]) << 16 | Int(bytes[3]) << 24
        guard size % 4 == 0, size >= 4, 4 + size <= bytes.count else {
            throw fail("normalizer Precompiled: trie of \(size) bytes in a \(bytes.count)-byte map")
        }
        units = stride(from: 4, to: 4 + size, by: 4).map { k in
            UInt32(bytes[k]) | UInt32(bytes[k + 1]) << 8 | UInt32(bytes[k + 2]) << 16 | UInt32(bytes[k + 3]) << 24
        }
        replacements = Array(bytes[(4 + size)...])
        // Each replacement is a character or a few (SentencePiece's longest are tens of bytes); a longer run would let one
        // character of a text expand to megabytes.
        let longest = replacements.split(separator: 0, omittingEmptySubsequences: false).map(\.count).max() ?? 0
        guard longest <= 256 else { throw fail("normalizer Precompiled: a replacement of \(longest) bytes (at most 256 are read)") }
        // A trie value may point inside a replacement, whose bytes may then decode to one U+FFFD each: count bytes.
        longestReplacement = longest
    }

    package func apply(_ text: String) -> String {
        var out = String.UnicodeScalarView()
        for grapheme in text {
            let whole = Array(String(grapheme).utf8)
            if whole.count < 6, let r = replacement(whole) {
                out.append(contentsOf: r.unicodeScalars)
                continue
            }
            for scalar in grapheme.unicodeScalars {
                if let r = replacement(Array(String(scalar).utf8)) { out.append(contentsOf: r.unicodeScalars) } else { out.append(scalar) }
            }
        }
        return String(out)
    }

    /// The replacement of the shortest prefix of `key` the trie holds (darts-clone's common prefix search, first result).
    package func replacement(_ key: [UInt8]) -> String? {
        guard let start = firstPrefixValue(key), start < replacements.count else { return nil }
        let end = replacements[start...].firstIndex(of: 0) ?? replacements.count
        return String(decoding: replacements[start..<end], as: UTF8.self)
    }

    /// darts-clone: a unit's offset to its children, its label, whether a leaf hangs below it, and a leaf's value.
    package func firstPrefixValue(_ key: [UInt8]) -> Int? {
        func offset(_ u: UInt32) -> Int { Int((u >> 10) << ((u & (1 << 9)) >> 6)) }
        var node = offset(units[0])
        for c in key {
            guard c != 0 else { return nil }
            node ^= Int(c)
            guard units.indices.contains(node) else { return nil }
            let unit = units[node]
            guard unit & ((1 << 31) | 0xFF) == UInt32(c) else { return nil }
            node ^= offset(unit)
            guard units.indices.contains(node) else { return nil }
            if (unit >> 8) & 1 == 1 { return Int(units[node] & ((1 << 31) - 1)) }
        }
        return nil
    }
}
