/// A name with an optional numeric argument, as rules and spaces are written on the command
/// line and in experiment files: `otsu`, `fixed(0.55)`, `abtt(3)`.
public struct RuleName: Sendable, Equatable {
    public var base: String
    public var argument: Double?

    public init(_ text: String) throws {
        guard let open = text.firstIndex(of: "(") else {
            base = text
            argument = nil
            return
        }
        guard text.hasSuffix(")"), let value = Double(text[text.index(after: open)..<text.index(before: text.endIndex)]) else {
            throw ThemeLabError.usage("'\(text)': expected NAME or NAME(number)")
        }
        guard value.isFinite else { throw ThemeLabError.usage("'\(text)': the argument must be a finite number") }
        base = String(text[..<open])
        argument = value
    }

    /// Largest count a rule takes (bins, neighbours): larger ones would only exhaust memory.
    public static let maxCount = 1_000_000

    /// The argument as a positive whole number, if given.
    public func count(_ what: String) throws -> Int? {
        guard let a = argument else { return nil }
        guard a >= 1, a <= Double(Self.maxCount), a == a.rounded() else {
            throw ThemeLabError.usage("\(base)(\(formatArgument(a))): \(what) must be a whole number from 1 to \(Self.maxCount)")
        }
        return Int(a)
    }
}
