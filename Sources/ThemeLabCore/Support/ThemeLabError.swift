/// Every error the harness reports to a user. The message names the file, line or item and
/// what was expected, so the CLI can print it as one line.
package enum ThemeLabError: Error, Equatable, CustomStringConvertible {
    /// A command line the harness cannot act on (exit code 2).
    case usage(String)
    /// Input that is malformed or inconsistent: files, vectors, labels (exit code 1).
    case input(String)

    package var description: String {
        switch self {
        case .usage(let m), .input(let m): m
        }
    }
}
