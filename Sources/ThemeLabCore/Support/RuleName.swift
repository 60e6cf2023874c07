import Foundation

/// A rule, space or grouping as written: `NAME`, `NAME(a)` or `NAME(a,b)` with finite numbers.
package struct RuleName: Sendable, Equatable {
    package var base: String
    package var arguments: [Double]
    /// The first argument, if any.
    package var argument: Double? { arguments.first }

    package init(_ text: String) throws {
        guard let open = text.firstIndex(of: "(") else {
            base = text
            arguments = []
            return
        }
        let inside = text.hasSuffix(")") ? text[text.index(after: open)..<text.index(before: text.endIndex)] : nil
        let values = inside?.split(separator: ",", omittingEmptySubsequences: false).map {
            Double($0.trimmingCharacters(in: .whitespaces))
        }
        guard let values, !values.isEmpty, values.allSatisfy({ $0 != nil }) else {
            throw ThemeLabError.invalid("'\(text)': expected NAME, NAME(number) or NAME(number,number)")
        }
        guard values.allSatisfy({ $0!.isFinite }) else { throw ThemeLabError.invalid("'\(text)': every argument must be a finite number") }
        base = String(text[..<open])
        arguments = values.map { $0! }
    }

    /// Largest count a rule takes (bins, neighbours): larger ones would only exhaust memory.
    package static let maxCount = 1_000_000

    /// Argument `index` as a positive whole number, if given.
    package func count(_ what: String, at index: Int = 0) throws -> Int? {
        guard index < arguments.count else { return nil }
        let a = arguments[index]
        guard a >= 1, a <= Double(Self.maxCount), a == a.rounded() else {
            throw ThemeLabError.invalid("\(text): \(what) must be a whole number from 1 to \(Self.maxCount)")
        }
        return Int(a)
    }

    /// Argument `index` as a whole number, if given (one a registry's parameters have checked).
    package func whole(at index: Int) -> Int? { index < arguments.count ? Int(arguments[index]) : nil }

    /// Argument `index`, if given.
    package func value(at index: Int) -> Double? { index < arguments.count ? arguments[index] : nil }

    /// Fails unless at most `limit` arguments were given.
    package func takes(atMost limit: Int) throws {
        guard arguments.count <= limit else {
            throw ThemeLabError.invalid(
                "\(text): takes \(limit == 0 ? "no arguments" : "at most \(limit) argument\(limit == 1 ? "" : "s")")")
        }
    }

    /// The name as written back: `base(a,b)`.
    package var text: String { arguments.isEmpty ? base : "\(base)(\(arguments.map(formatArgument).joined(separator: ",")))" }
}
