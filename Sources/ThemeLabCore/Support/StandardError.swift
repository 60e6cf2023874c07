import Foundation

/// The harness's one way to stderr, for notes, warnings, errors and progress lines: the text as given, unbuffered.
/// The CLI's `Console` writes through it, and tests capture what a command says by handing the CLI another writer.
package enum StandardError {
    package static func write(_ text: String) { FileHandle.standardError.write(Data(text.utf8)) }
}
