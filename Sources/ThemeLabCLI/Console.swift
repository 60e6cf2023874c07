import Foundation
import ThemeLabCore
import ThemeLabCorpus
import ThemeLabEncoder
import ThemeLabMeasures
import ThemeLabMethods
import ThemeLabPairs
import ThemeLabReport
import ThemeLabStudy

/// Where a run's text goes: stdout and stderr, each a writer of text exactly as given. `standard` is the process's
/// own streams; tests hand in writers that capture both.
public struct Console: Sendable {
    public var output: @Sendable (String) -> Void
    public var errors: @Sendable (String) -> Void
    /// Whether `errors` reaches a terminal, where a progress line may redraw itself.
    public var errorsAreTerminal: Bool

    public init(
        output: @escaping @Sendable (String) -> Void, errors: @escaping @Sendable (String) -> Void, errorsAreTerminal: Bool = false
    ) {
        self.output = output
        self.errors = errors
        self.errorsAreTerminal = errorsAreTerminal
    }

    /// stdout as `print` writes it (buffered, flushed at exit) and stderr through `StandardError`.
    public static let standard = Console(
        output: { print($0, terminator: "") }, errors: { StandardError.write($0) }, errorsAreTerminal: isatty(2) != 0)
}

/// One run of a command: where its text goes, the command line its provenance records and the program Slurm batch
/// jobs run.
struct Invocation: Sendable {
    var console: Console
    var commandLine: [String]
    var executable: String

    /// `executable` nil: this process's own program.
    init(console: Console, commandLine: [String], executable: String? = nil) {
        self.console = console
        self.commandLine = commandLine
        self.executable = executable ?? URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().path
    }

    /// Text on stdout, a line unless `terminator` says otherwise.
    func print(_ text: String, terminator: String = "\n") { console.output(text + terminator) }

    /// A note, warning or error as a line on stderr: the one way a command speaks besides its output.
    func note(_ message: String) { console.errors(message + "\n") }

    /// "in 12.3 s, CPU 23.1 s, peak 900 MiB": this process so far, for the notes of jobs a cluster runs (their logs are
    /// where a scale-out benchmark reads each task's cost).
    func cost(since start: Date) -> String {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        let cpu = Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
        return String(format: "in %.1f s, CPU %.1f s, peak %d MiB", Date().timeIntervalSince(start), cpu, usage.ru_maxrss / 1024)
    }

    /// `themelab: message` on stderr, on one line (a control character from the input, such as a line break in a
    /// name, is written escaped); returns `status`, the exit status that goes with it.
    func fail(_ message: String, status: Int32) -> Int32 {
        note("themelab: \(escapingControlCharacters(message))")
        return status
    }

    /// A progress line with an ETA on stderr.
    func progress(_ label: String) -> ProgressLine {
        ProgressLine(label: label, write: console.errors, redraws: console.errorsAreTerminal)
    }
}

/// A word from the command line quoted for a message: on one line, and cut to 60 characters (Unicode scalars, so a
/// pile of combining marks is cut too) with its length said.
func quotedWord(_ word: String) -> String {
    let scalars = word.unicodeScalars
    guard scalars.count > 60 else { return "'\(escapingControlCharacters(word))'" }
    return "'\(escapingControlCharacters(String(String.UnicodeScalarView(scalars.prefix(60)))))…' (\(scalars.count) characters)"
}
