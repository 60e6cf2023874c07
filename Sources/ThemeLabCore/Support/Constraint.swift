import Foundation

/// The values a setting may hold, declared once next to the setting: a registry entry's parameter (`Parameter`), a field
/// of an experiment file (`SchemaKey.setting`), a corpus option (`DatasetRegistry.Entry.options`) or a command-line
/// option. One validator (`problem(_:at:)`) checks a value against it and says why it is refused, as scikit-learn's
/// `validate_parameter_constraints` checks `_parameter_constraints`; `summary` describes it in help texts and docs.
package indirect enum Constraint: Sendable, Equatable {
    /// Any finite number.
    case real
    /// A whole number within the range.
    case count(ClosedRange<Int>)
    /// A number within the closed interval.
    case interval(ClosedRange<Double>)
    /// A number above the first, and at most the second when there is one.
    case above(Double, atMost: Double?)
    /// A seed: a whole number from 0 to 2⁶⁴ − 1.
    case seed
    /// true or false (on a command line, a switch).
    case flag
    /// One of these words.
    case oneOf([String])
    /// The name of a field or column: not empty, no control characters (it is quoted back in one-line messages).
    case columnName
    /// A name that becomes a file or folder name: 1–64 letters, digits, '.', '_' or '-', starting with a letter or digit.
    /// `names` says what it names in the message ("the results folder").
    case fileName(names: String)
    /// The path of a file or folder: not empty.
    case path
    /// Any text.
    case text
    /// Text of this form (`i/n`), read by its own parser.
    case form(String)
    /// The name of one entry of the registry of `kind`, written as one of `forms`; the registry reads it.
    case entry(kind: String, forms: [String])
    /// Names of at least one entry of the registry of `kind`, written as `forms`; the registry reads each.
    case entries(kind: String, forms: [String])
    /// At least one value, each within the constraint; no value twice when `distinct`.
    case list(Constraint, distinct: Bool)
    /// Named values: each name one of `names`, each value within the constraint.
    case map(names: [String], values: Constraint)
    /// An object whose fields are declared by keys of their own.
    case object
    /// At least one such object.
    case objects
    /// No value may be given, for the reason said (a corpus option the corpus does not take).
    case unavailable(String)

    /// The largest seed.
    package static let largestSeed = UInt64.max

    /// Why `value` is outside the constraint, with the path of the value at fault (`path`, or below it: `layers[1]`), or
    /// nil. `value` is as a JSON file holds it (`NSNumber`, `String`, `[Any]`, `[String: Any]`) or as a command line's
    /// word is read (`commandLineValue`): Swift's `Int`, `UInt64`, `Double`, `String` and arrays or dictionaries of them.
    package func problem(_ value: Any, at path: String) -> (path: String, message: String)? {
        switch self {
        case .list(let element, let distinct):
            guard let list = value as? [Any] else { return (path, "must be a list, got \(Self.shown(value))") }
            return Self.listProblem(list, element: element, distinct: distinct, at: path)
        case .entries(let kind, _):
            guard let list = value as? [Any] else { return (path, "must be a list of \(kind) names, got \(Self.shown(value))") }
            return Self.listProblem(list, element: .entry(kind: kind, forms: []), distinct: false, at: path)
        case .objects:
            guard let list = value as? [Any] else { return (path, "must be a list of objects, got \(Self.shown(value))") }
            return Self.listProblem(list, element: .object, distinct: false, at: path)
        case .map(let names, let values):
            guard let map = value as? [String: Any] else {
                return (path, "must be an object of names and values, got \(Self.shown(value))")
            }
            for (name, v) in map.sorted(by: { $0.key < $1.key }) {
                guard names.contains(name) else { return (path, "names '\(name)', not one of \(Self.words(names, "or"))") }
                if let p = values.problem(v, at: "\(path).\(name)") { return p }
            }
            return nil
        default:
            return message(value).map { (path, $0) }
        }
    }

    /// At least one element, each within `element`, none twice when `distinct`.
    private static func listProblem(_ list: [Any], element: Constraint, distinct: Bool, at path: String) -> (path: String, message: String)?
    {
        guard !list.isEmpty else { return (path, "is empty: nothing would be computed") }
        for (i, v) in list.enumerated() {
            if let p = element.problem(v, at: "\(path)[\(i)]") { return p }
            if distinct, let j = list[..<i].firstIndex(where: { shown($0) == shown(v) }) {
                return ("\(path)[\(i)]", "repeats \(path)[\(j)], \(shown(v))")
            }
        }
        return nil
    }

    /// Why a single value (not a list or a map) is outside the constraint, or nil.
    private func message(_ value: Any) -> String? {
        let got = Self.shown(value)
        switch self {
        case .real: return Self.real(value) == nil ? "must be a number, got \(got)" : nil
        case .count(let r):
            guard case .exact(let digits)? = Self.whole(value), let n = Int(digits), r.contains(n) else {
                return "must be a whole number from \(r.lowerBound) to \(r.upperBound), got \(got)"
            }
            return nil
        case .interval(let r):
            guard let x = Self.real(value), r.contains(x) else {
                return "must be a number from \(formatArgument(r.lowerBound)) to \(formatArgument(r.upperBound)), got \(got)"
            }
            return nil
        case .above(let low, let high):
            guard let x = Self.real(value), x > low, high.map({ x <= $0 }) ?? true else {
                return "must be above \(formatArgument(low))" + (high.map { " and at most \(formatArgument($0))" } ?? "") + ", got \(got)"
            }
            return nil
        case .seed:
            guard case .exact(let digits)? = Self.whole(value), UInt64(digits) != nil else {
                return "must be a whole number from 0 to \(Self.largestSeed), got \(got)"
            }
            return nil
        default: return textMessage(value)
        }
    }

    /// Why a value that should be a word, a name, text or a switch is not, or nil.
    private func textMessage(_ value: Any) -> String? {
        let got = Self.shown(value)
        switch self {
        case .flag: return Self.isFlag(value) ? nil : "must be true or false, got \(got)"
        case .oneOf(let words):
            return (value as? String).map(words.contains) == true ? nil : "must be \(Self.words(words, "or")), got \(got)"
        case .columnName:
            guard let name = value as? String, !name.isEmpty, !name.unicodeScalars.contains(where: Self.isControl) else {
                return "must be a column name: not empty, no control characters"
            }
            return nil
        case .fileName(let names):
            guard let name = value as? String, Self.isPlainName(name) else {
                return "must be 1–64 letters, digits, '.', '_' or '-', starting with a letter or digit (it names \(names)); "
                    + "got \(value is String ? String(reflecting: value as! String) : got)"
            }
            return nil
        case .path: return (value as? String).map { !$0.isEmpty } == true ? nil : "must be a path, got \(got)"
        case .text: return value is String ? nil : "must be text, got \(got)"
        case .form(let form): return value is String ? nil : "must be text of the form \(form), got \(got)"
        case .entry(let kind, _): return value is String ? nil : "must be a \(kind) name, got \(got)"
        case .object: return value is [String: Any] ? nil : "must be an object, got \(got)"
        case .unavailable(let why): return why
        default: return nil
        }
    }

    /// A plain file name: 1–64 scalars, ASCII letters and digits, '.', '_' or '-', the first a letter or digit (checked scalar
    /// by scalar: a regular expression's `$` also matches before a final line break).
    package static func isPlainName(_ name: String) -> Bool {
        let scalars = Array(name.unicodeScalars)
        func plain(_ c: Unicode.Scalar) -> Bool { c.isASCII && (c.properties.isAlphabetic || ("0"..."9").contains(c)) }
        return (1...64).contains(scalars.count) && plain(scalars[0])
            && scalars.allSatisfy { plain($0) || "._-".unicodeScalars.contains($0) }
    }

    private static func isControl(_ c: Unicode.Scalar) -> Bool { c.properties.generalCategory == .control }
}

extension Constraint {
    /// What a command-line word denotes under the constraint, as `problem` reads it: a number for a numeric constraint
    /// (the word itself when it is none, so the refusal quotes it), a list of them split at commas, `NAME=VALUE` pairs
    /// as a map, names split at commas outside parentheses (`hdbscan(8,4),leiden(10)` is two); else the word.
    package func commandLineValue(_ word: String) -> Any {
        switch self {
        case .count: return Int(word).map { $0 as Any } ?? Double(word).map { $0 as Any } ?? word
        case .seed: return UInt64(word).map { $0 as Any } ?? Double(word).map { $0 as Any } ?? word
        case .real, .interval, .above: return Double(word) ?? word
        case .list(let element, _): return Self.splitNames(word).map { element.commandLineValue($0.trimmingCharacters(in: .whitespaces)) }
        case .entries: return Self.splitNames(word)
        case .map(_, let values):
            var pairs: [String: Any] = [:]
            for pair in word.split(separator: ",", omittingEmptySubsequences: false) {
                let parts = pair.split(separator: "=", omittingEmptySubsequences: false)
                guard parts.count == 2 else { return word }
                pairs[String(parts[0])] = values.commandLineValue(String(parts[1]))
            }
            return pairs
        default: return word
        }
    }

    /// `text` split at commas outside parentheses.
    package static func splitNames(_ text: String) -> [String] {
        var out = [""]
        var depth = 0
        for c in text {
            if c == "(" { depth += 1 } else if c == ")" { depth -= 1 }
            if c == "," && depth <= 0 { out.append("") } else { out[out.count - 1].append(c) }
        }
        return out
    }

    /// What the constraint allows, for help texts and docs (`0 to 1000`, `train, val or test`); empty when anything of the
    /// setting's type is allowed.
    package var summary: String {
        switch self {
        case .real: "a number"
        case .count(let r): "\(r.lowerBound) to \(r.upperBound)"
        case .interval(let r): "\(formatArgument(r.lowerBound)) to \(formatArgument(r.upperBound))"
        case .above(let low, let high): "above \(formatArgument(low))" + (high.map { ", at most \(formatArgument($0))" } ?? "")
        case .seed: "0 to 2⁶⁴ − 1"
        case .oneOf(let words): Self.words(words, "or")
        case .columnName: "a column name"
        case .fileName: "letters, digits, '.', '_', '-'"
        case .form(let form): form
        case .entry(_, let forms), .entries(_, let forms): forms.joined(separator: ", ")
        case .list(let element, _): element.summary.isEmpty ? "" : "each \(element.summary)"
        case .map(let names, let values): "\(names.sorted().joined(separator: ", ")), each \(values.summary)"
        case .flag, .path, .text, .object, .objects, .unavailable: ""
        }
    }

    /// `items` as "a, b or c".
    package static func words(_ items: [String], _ last: String) -> String {
        items.count < 2 ? items.joined() : items.dropLast().joined(separator: ", ") + " \(last) " + items.last!
    }

    /// A value as a message quotes it: a word in quotes, a number as written, a list as JSON writes it.
    package static func shown(_ value: Any) -> String {
        if let s = value as? String { return "'\(s)'" }
        if isFlag(value) { return "\((value as! NSNumber).boolValue)" }
        if let n = number(value) {
            return n is NSDecimalNumber || !["d", "f"].contains(String(cString: n.objCType)) ? n.stringValue : formatArgument(n.doubleValue)
        }
        if let list = value as? [Any] { return "[" + list.map(shown).joined(separator: ", ") + "]" }
        return value is [String: Any] ? "an object" : "\(value)"
    }

    /// The number `value` holds (a JSON number, or Swift's `Int`, `UInt64` or `Double`); nil for a boolean (which both
    /// bridge to `NSNumber`, and which Foundation on Linux also casts 0 and 1 to) or anything else.
    static func number(_ value: Any) -> NSNumber? {
        guard !(value is String), let n = value as? NSNumber, String(cString: n.objCType) != "c" else { return nil }
        return n
    }

    /// Whether `value` is true or false.
    static func isFlag(_ value: Any) -> Bool {
        guard !(value is String), let n = value as? NSNumber else { return false }
        return String(cString: n.objCType) == "c"
    }

    /// A finite number, or nil.
    static func real(_ value: Any) -> Double? { number(value).map(\.doubleValue).flatMap { $0.isFinite ? $0 : nil } }

    /// A whole number's digits, or nil.
    static func whole(_ value: Any) -> WholeNumber? { number(value).flatMap(WholeNumber.init) }
}

/// A JSON number that is a whole number, read exactly. JSONSerialization keeps an integer that fits 64 bits as one, and a
/// longer one as a Decimal of up to 38 digits (rounding a longer one, which then has a positive exponent); those are
/// taken by their digits, as written. One with a fraction or an exponent (`1e3`, `5.0`) that JSONSerialization reads as
/// a Double is taken by its value below 2^53, where a Double is exact. Past those, `inexact`; nil for a boolean (which
/// JSONSerialization also gives as a number) or a fraction.
package enum WholeNumber: Equatable {
    case exact(String)
    case inexact

    package init?(_ n: NSNumber) {
        let type = String(cString: n.objCType)
        if let d = n as? NSDecimalNumber {
            var whole = Decimal()
            var value = d.decimalValue
            NSDecimalRound(&whole, &value, 0, .plain)
            guard whole == value else { return nil }
            self = value.exponent <= 0 ? .exact(NSDecimalNumber(decimal: whole).stringValue) : .inexact
        } else if ["i", "s", "l", "q", "I", "S", "L", "Q"].contains(type) {
            self = .exact(n.stringValue)
        } else {
            let value = n.doubleValue
            guard type != "c", value.isFinite, value == value.rounded() else { return nil }
            self = abs(value) < 9_007_199_254_740_992 ? .exact(String(Int(value))) : .inexact
        }
    }
}
