import Foundation

/// The door every JSON input goes through before Foundation reads it: one walk over the bytes (`JSONScanner`) that
/// refuses a key given twice in one object (Foundation keeps the last copy and a check could read the first; keys are
/// compared as Swift strings, as Foundation's dictionaries compare them), nesting deeper than Foundation's 512, a number
/// beyond a Double's range, and anything else outside RFC 8259 (trailing commas, raw control characters in strings,
/// invalid UTF-8, lone surrogates), each naming the byte and where it stands.
package enum JSONInput {
    /// Foundation's limit on nested arrays and objects.
    package static let maxDepth = 512

    /// Refuses `data` unless it is one JSON value with no key repeated in an object, naming `file` and what is wrong.
    package static func check(_ data: Data, file: String) throws {
        do {
            try data.withUnsafeBytes { bytes in
                var scanner = JSONScanner(bytes: bytes)
                try scanner.scan()
            }
        } catch let problem as JSONScanner.Problem {
            throw ThemeLabError.input("\(file): \(problem.text)")
        }
    }

    /// `data` as `JSONSerialization` reads it (any value at the top), once `check` has passed it.
    package static func parse(_ data: Data, file: String) throws -> Any {
        try check(data, file: file)
        do { return try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]) } catch {
            throw ThemeLabError.input("\(file): not valid JSON")
        }
    }
}

/// A validating walk over JSON bytes that keeps, per open container, its path and the keys seen (`JSONInput`).
struct JSONScanner {
    struct Problem: Error { var text: String }

    /// An open array (its element index) or object (the key being read); `keys` holds each open object's keys so far.
    struct Frame {
        var isObject: Bool
        var index = 0
        var key: String?
    }

    let bytes: UnsafeRawBufferPointer
    var i = 0
    var frames: [Frame] = []
    var keys: [Set<String>] = []

    init(bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

    /// The whole input: one value (after an optional UTF-8 byte-order mark, as Foundation allows), then only spaces.
    mutating func scan() throws {
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { i = 3 }
        while true {
            if try value() { continue }
            if try !next() { break }
        }
        skipSpace()
        if i < bytes.count { throw invalid("more after the end of the value") }
    }

    /// One value from here; true when it opened a container whose first value comes next.
    mutating func value() throws -> Bool {
        skipSpace()
        guard i < bytes.count else { throw invalid("expected a value, the input ended") }
        switch bytes[i] {
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            let isObject = bytes[i] == UInt8(ascii: "{")
            guard frames.count < JSONInput.maxDepth else { throw Problem(text: "nesting deeper than \(JSONInput.maxDepth) at byte \(i)") }
            i += 1
            skipSpace()
            if i < bytes.count && bytes[i] == UInt8(ascii: isObject ? "}" : "]") {
                i += 1
                return false
            }
            frames.append(Frame(isObject: isObject))
            if isObject {
                keys.append([])
                try key()
            }
            return true
        case UInt8(ascii: "\""): _ = try string(decoded: false)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): try number()
        case UInt8(ascii: "t"): try literal("true")
        case UInt8(ascii: "f"): try literal("false")
        case UInt8(ascii: "n"): try literal("null")
        default: throw invalid("expected a value")
        }
        return false
    }

    /// After a value: closes the containers it ends and moves to the next value; false when the outermost has ended.
    mutating func next() throws -> Bool {
        while let frame = frames.last {
            skipSpace()
            let close = UInt8(ascii: frame.isObject ? "}" : "]")
            guard i < bytes.count, bytes[i] == UInt8(ascii: ",") || bytes[i] == close else {
                throw invalid("expected ',' or '\(Character(Unicode.Scalar(close)))'")
            }
            i += 1
            if bytes[i - 1] == close {
                frames.removeLast()
                if frame.isObject { keys.removeLast() }
                continue
            }
            if frame.isObject {
                frames[frames.count - 1].key = nil
                try key()
            } else {
                frames[frames.count - 1].index += 1
            }
            return true
        }
        return false
    }

    /// An object's next key and its colon; a key its object already has is refused.
    mutating func key() throws {
        skipSpace()
        guard i < bytes.count, bytes[i] == UInt8(ascii: "\"") else { throw invalid("expected a key in double quotes") }
        let name = try string(decoded: true) ?? ""
        guard keys[keys.count - 1].insert(name).inserted else {
            let container = path(frames.count - 1)
            throw Problem(text: "duplicate key '\(name)' \(container.isEmpty ? "at the top level" : "in \(container)")")
        }
        frames[frames.count - 1].key = name
        skipSpace()
        guard i < bytes.count, bytes[i] == UInt8(ascii: ":") else { throw invalid("expected ':' after the key") }
        i += 1
    }

    /// A string from its opening quote: its text when `decoded` (keys), else nil.
    mutating func string(decoded: Bool) throws -> String? {
        let start = i
        var text: [UInt8] = []
        i += 1
        while i < bytes.count {
            let b = bytes[i]
            if b == UInt8(ascii: "\"") {
                i += 1
                return decoded ? String(decoding: text, as: UTF8.self) : nil
            } else if b == UInt8(ascii: "\\") {
                let scalar = try escape()
                if decoded { text.append(contentsOf: Array(String(scalar).utf8)) }
            } else if b < 0x20 {
                throw invalid("a control character in a string (write it as an escape)")
            } else {
                let width = b < 0x80 ? 1 : try utf8Width()
                if decoded { text.append(contentsOf: bytes[i..<(i + width)]) }
                i += width
            }
        }
        i = start
        throw invalid("a string that never ends")
    }

    /// The escape at `i` (a backslash), past it; a `\u` high surrogate must be followed by its low one.
    mutating func escape() throws -> Unicode.Scalar {
        let simple: [UInt8: Unicode.Scalar] = [
            UInt8(ascii: "\""): "\"", UInt8(ascii: "\\"): "\\", UInt8(ascii: "/"): "/", UInt8(ascii: "b"): "\u{8}",
            UInt8(ascii: "f"): "\u{c}", UInt8(ascii: "n"): "\n", UInt8(ascii: "r"): "\r", UInt8(ascii: "t"): "\t",
        ]
        guard i + 1 < bytes.count else { throw invalid("a string that never ends") }
        if let s = simple[bytes[i + 1]] {
            i += 2
            return s
        }
        let start = i
        let high = try hexEscape()
        guard (0xD800..<0xE000).contains(high) else { return Unicode.Scalar(high)! }
        let low = high < 0xDC00 && bytes[i...].starts(with: Array(#"\u"#.utf8)) ? try hexEscape() : 0
        guard (0xDC00..<0xE000).contains(low) else {
            i = start
            throw invalid("a lone surrogate in a \\u escape")
        }
        return Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))!
    }

    /// The code unit of a `\uXXXX` escape at `i`, past it.
    mutating func hexEscape() throws -> UInt32 {
        guard bytes[i + 1] == UInt8(ascii: "u"), i + 6 <= bytes.count,
            let unit = UInt32(String(decoding: bytes[(i + 2)..<(i + 6)], as: UTF8.self), radix: 16),
            bytes[(i + 2)..<(i + 6)].allSatisfy({ $0 != UInt8(ascii: "+") && $0 != UInt8(ascii: "-") })
        else { throw invalid("a bad escape (expected \\\", \\\\, \\/, \\b, \\f, \\n, \\r, \\t or \\u and 4 hex digits)") }
        i += 6
        return unit
    }

    /// The length of the UTF-8 sequence at `i`, which must encode one scalar.
    func utf8Width() throws -> Int {
        var input = bytes[i..<Swift.min(i + 4, bytes.count)].makeIterator()
        var decoder = UTF8()
        guard case .scalarValue(let s) = decoder.decode(&input) else { throw invalid("invalid UTF-8") }
        return UTF8.width(s)
    }

    /// A number: RFC 8259's grammar, and a value a Double holds (`1e400` is out of range, as Foundation finds).
    mutating func number() throws {
        let start = i
        func digits() -> Int {
            let from = i
            while i < bytes.count && (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[i]) { i += 1 }
            return i - from
        }
        if bytes[i] == UInt8(ascii: "-") { i += 1 }
        let leadingZero = i < bytes.count && bytes[i] == UInt8(ascii: "0")
        let whole = digits()
        guard whole > 0, !(leadingZero && whole > 1) else {
            i = start
            throw invalid(whole > 0 ? "a number with a leading zero" : "expected a value")
        }
        if i < bytes.count && bytes[i] == UInt8(ascii: ".") {
            i += 1
            guard digits() > 0 else { throw invalid("a number with no digits after '.'") }
        }
        if i < bytes.count && (bytes[i] == UInt8(ascii: "e") || bytes[i] == UInt8(ascii: "E")) {
            i += 1
            if i < bytes.count && (bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-")) { i += 1 }
            guard digits() > 0 else { throw invalid("a number with no digits in its exponent") }
        }
        let text = String(decoding: bytes[start..<i], as: UTF8.self)
        guard let value = Double(text), value.isFinite else {
            let shown = text.count > 40 ? text.prefix(40) + "…" : Substring(text)
            let at = path(frames.count)
            throw Problem(
                text: "number \(shown) \(at.isEmpty ? "at the top level" : "at \(at)") is out of range (a double holds up to 1.8e308)")
        }
    }

    mutating func literal(_ word: String) throws {
        guard bytes[i...].starts(with: Array(word.utf8)) else { throw invalid("expected a value") }
        i += word.utf8.count
    }

    mutating func skipSpace() {
        while i < bytes.count {
            switch bytes[i] {
            case 0x20, 0x09, 0x0A, 0x0D: i += 1
            default: return
            }
        }
    }

    /// The path to the value the first `depth` open containers lead to (`corpora[0].seed`; "" at the top).
    func path(_ depth: Int) -> String {
        var path = ""
        for frame in frames.prefix(depth) {
            if !frame.isObject {
                path += "[\(frame.index)]"
            } else if let key = frame.key {
                path += (path.isEmpty ? "" : ".") + key
            }
        }
        return path
    }

    /// Bytes that break RFC 8259's grammar here.
    func invalid(_ why: String) -> Problem {
        let at = path(frames.count)
        return Problem(text: "not valid JSON at byte \(i)\(at.isEmpty ? "" : " in \(at)") (\(why))")
    }
}
