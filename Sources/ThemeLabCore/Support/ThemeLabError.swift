/// Every error the harness reports to a user. The message names the file, line or item and
/// what was expected, so the CLI can print it as one line. The stages below the CLI throw `invalid` and `input`; the
/// CLI words `invalid` as a usage error of the command that passed the value, and its own parser throws `usage`.
package enum ThemeLabError: Error, Equatable, CustomStringConvertible {
    /// A command line the harness cannot act on (exit code 2); thrown by the CLI's parser.
    case usage(String)
    /// A value a caller passed that the library cannot take: an unknown name, an argument out of its range, a
    /// combination it refuses (a usage error on a command line, exit code 2).
    case invalid(String)
    /// Input that is malformed or inconsistent: files, vectors, labels (exit code 1).
    case input(String)

    package var description: String {
        switch self {
        case .usage(let m), .invalid(let m), .input(let m): m
        }
    }
}
