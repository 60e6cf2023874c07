import Foundation
import ThemeLabCore
import ThemeLabCorpus
import ThemeLabEncoder
import ThemeLabMeasures
import ThemeLabMethods
import ThemeLabPairs
import ThemeLabReport
import ThemeLabStudy

/// `themelab`'s parser and commands: run by the executable, and in process by the tests.
public enum ThemeLabCLI {
    /// Runs the command line `arguments` (the program's name first, as `CommandLine.arguments` has it) and returns its
    /// exit status: 0 done, 1 a failure (bad input, a failed check), 2 a usage error. Every line goes to `console`;
    /// `executable` is the program Slurm batch jobs run (default: this process's own).
    public static func main(_ arguments: [String], console: Console = .standard, executable: String? = nil) -> Int32 {
        // Every product on one BLAS thread, in process as in the executable: the same bytes either way.
        BLASRuntime.useOneThread()
        let io = Invocation(console: console, commandLine: arguments, executable: executable)
        let words = Array(arguments.dropFirst())
        switch words.first {
        case nil, "--help", "-h":
            io.print(usage)
            return 0
        case "help":
            return help(Array(words.dropFirst()), io)
        case "--version":
            io.print(
                "themelab \(Tool.version) (OpenBLAS kernel \(BLASRuntime.corename), \(BLASRuntime.arithmetic) arithmetic; "
                    + "\(BLASRuntime.kernelSource))")
            return 0
        case let name?:
            guard let command = commands[name] else {
                return io.fail("unknown command \(quotedWord(name)) (see themelab --help)", status: 2)
            }
            return command.invoke(as: name, Array(words.dropFirst()), io)
        }
    }

    /// `themelab help`: the usage; `themelab help COMMAND [SUBCOMMAND]`: that command's help; anything else a usage error.
    static func help(_ words: [String], _ io: Invocation) -> Int32 {
        guard let name = words.first else {
            io.print(usage)
            return 0
        }
        guard let command = commands[name] else {
            let names = commands.keys.sorted().joined(separator: ", ")
            return io.fail("help: no command \(quotedWord(name)); expected 'help' or 'help COMMAND' with one of \(names)", status: 2)
        }
        guard words.count == 1 || (words.count == 2 && command.subcommands.contains(words[1])) else {
            let forms = ["'help \(name)'"] + command.subcommands.map { "'help \(name) \($0)'" }
            return io.fail(
                "help: one command only, got \(quotedWord(words.joined(separator: " "))); expected \(forms.joined(separator: " or "))",
                status: 2)
        }
        io.print(command.help)
        return 0
    }

    /// For the executable: Ctrl-C or SIGTERM first removes what the run made and would leave half-done (`Interruption`).
    public static func cleanUpOnInterruption() { Interruption.install() }

    /// Puts this process on the BLAS kernel `THEMELAB_KERNEL` asks for, re-executing the program when it runs another
    /// (OpenBLAS reads `OPENBLAS_CORETYPE` only when it loads): for the executable, before `main`, never in process.
    /// Returns 2 when the request is refused, else nil.
    public static func chooseKernel() -> Int32? {
        let io = Invocation(console: .standard, commandLine: CommandLine.arguments)
        do {
            for note in try BLASRuntime.ensureKernel() { io.note("themelab: \(note)") }
        } catch {
            return io.fail("\(error)", status: 2)
        }
        return nil
    }

    static let commands: [String: Command] = [
        "ablate": ablateCommand,
        "analyze": analyzeCommand,
        "bench": benchCommand,
        "check": checkCommand,
        "datasets": datasetsCommand,
        "merge": mergeCommand,
        "plot": plotCommand,
        "embed": embedCommand,
        "env": envCommand,
        "gather": gatherCommand,
        "pairs": pairsCommand,
        "replay": replayCommand,
        "slurm": slurmCommand,
        "reproduce": reproduceCommand,
        "synth": synthCommand,
    ]

    static let usage = """
        themelab \(Tool.version) — does centring + Otsu grouping find the topics people return to?

        usage: themelab <command> [options]      themelab <command> --help

        commands:
        \(commands.keys.sorted().map { "  \($0.padding(toLength: 11, withPad: " ", startingAt: 0))\(commands[$0]!.summary)" }
            .joined(separator: "\n"))

          --version  version, BLAS library and kernel
          --help     this text
        """
}

/// A subcommand: its one-line summary, its help text, what it accepts and what it runs.
struct Command: Sendable {
    var summary: String
    var help: String
    var options: Set<String> = []
    var switches: Set<String> = []
    /// Old spellings still accepted, each with a note on stderr: old name → option (`--results`, once an output folder).
    var renamed: [String: String] = [:]
    /// How many positional words the command takes.
    var positionals: ClosedRange<Int> = 0...0
    /// The words its first positional may be, when it names a subcommand (`slurm pairs`): `help slurm pairs` gives the help.
    var subcommands: [String] = []
    var run: @Sendable (Arguments, Invocation) throws -> Void

    /// Runs the command on the words after its name; returns the exit status, the reason for anything but 0 on stderr.
    func invoke(as name: String, _ words: [String], _ io: Invocation) -> Int32 {
        if words.contains("--help") || words.contains("-h") {
            io.print(help)
            return 0
        }
        do {
            let args = try Arguments(words, options: options, switches: switches, positionals: positionals, renamed: renamed)
            for old in args.oldSpellings { io.note("themelab: --\(old) for an output folder is deprecated; use --\(renamed[old]!)") }
            try run(args, io)
            return 0
        } catch let failure as ExitStatus {
            return failure.status
        } catch ThemeLabError.usage(let message), ThemeLabError.invalid(let message) {
            return io.fail("\(name): \(message) (see themelab \(name) --help)", status: 2)
        } catch let error as ThemeLabError {
            return io.fail("\(error)", status: 1)
        } catch let error as NSError {
            // Foundation's file errors: the path and the reason on one line, not the NSError dump.
            let path = (error.userInfo[NSFilePathErrorKey] as? String) ?? (error.userInfo[NSURLErrorKey] as? URL)?.path
            let underlying = error.userInfo[NSUnderlyingErrorKey] as? NSError
            let reason =
                underlying.flatMap { $0.domain == NSPOSIXErrorDomain ? String(cString: strerror(Int32($0.code))) : nil }
                ?? error.localizedDescription
            return io.fail(path.map { "\($0): \(reason)" } ?? reason, status: 1)
        }
    }
}

/// A command's verdict that is neither success nor an error to report: its output has said why (a failed `check`).
struct ExitStatus: Error {
    var status: Int32
}
