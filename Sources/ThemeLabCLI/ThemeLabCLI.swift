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
            io.print(CommandHelp.main(commands: commands), terminator: "")
            return 0
        case "help":
            return help(Array(words.dropFirst()), io)
        case "--version":
            io.print(
                "themelab \(Tool.version) (OpenBLAS kernel \(BLASRuntime.corename), \(BLASRuntime.arithmetic) arithmetic; "
                    + "\(BLASRuntime.kernelSource))")
            return 0
        case let name?:
            guard let command = command(named: name, in: commands) else {
                return io.fail("unknown command \(quotedWord(name)) (see themelab --help)", status: 2)
            }
            return command.invoke(path: [name], Array(words.dropFirst()), io)
        }
    }

    /// `themelab help`: the usage; `themelab help COMMAND [SUBCOMMAND]`: that command's help; anything else a usage error.
    static func help(_ words: [String], _ io: Invocation) -> Int32 {
        guard let name = words.first else {
            io.print(CommandHelp.main(commands: commands), terminator: "")
            return 0
        }
        guard let command = command(named: name, in: commands) else {
            let names = commands.map { $0.configuration.name }.joined(separator: ", ")
            return io.fail("help: no command \(quotedWord(name)); expected 'help' or 'help COMMAND' with one of \(names)", status: 2)
        }
        let subcommands = command.configuration.subcommands
        if words.count == 1 {
            io.print(command.help(path: words), terminator: "")
            return 0
        }
        if words.count == 2, let sub = Self.command(named: words[1], in: subcommands) {
            io.print(sub.help(path: words), terminator: "")
            return 0
        }
        let forms = ["'help \(name)'"] + subcommands.map { "'help \(name) \($0.configuration.name)'" }
        return io.fail(
            "help: one command only, got \(quotedWord(words.joined(separator: " "))); expected \(forms.joined(separator: " or "))",
            status: 2)
    }

    /// The command of `list` called `name`.
    static func command(named name: String, in list: [any ParsableCommand.Type]) -> (any ParsableCommand.Type)? {
        for command in list where command.configuration.name == name { return command }
        return nil
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

    /// Every command, in the order `themelab --help` lists them.
    static var commands: [any ParsableCommand.Type] {
        [
            AblateCommand.self, AnalyzeCommand.self, BenchCommand.self, CheckCommand.self, DatasetsCommand.self, EmbedCommand.self,
            EnvCommand.self, GatherCommand.self, MergeCommand.self, PairsCommand.self, PlotCommand.self, ReplayCommand.self,
            ReproduceCommand.self, SlurmCommand.self, SynthCommand.self,
        ]
    }
}

extension ParsableCommand {
    /// Runs the command called by `path` on the words after its name (a subcommand's name first, when it has
    /// subcommands): its help for `--help` or `-h`; returns the exit status, the reason for anything but 0 on stderr.
    static func invoke(path: [String], _ words: [String], _ io: Invocation) -> Int32 {
        if let first = words.first, let sub = ThemeLabCLI.command(named: first, in: configuration.subcommands) {
            return sub.invoke(path: path + [first], Array(words.dropFirst()), io)
        }
        if words.contains("--help") || words.contains("-h") {
            io.print(help(path: path), terminator: "")
            return 0
        }
        let name = path.joined(separator: " ")
        do {
            if let first = words.first, !configuration.subcommands.isEmpty {
                throw ThemeLabError.usage("\(expectedSubcommand), got \(quotedWord(first))")
            }
            let parser = try CommandParser<Self>(words)
            for note in parser.notes { io.note("themelab: \(note)") }
            try parser.command.run(io)
            return 0
        } catch let failure as ExitStatus {
            return failure.status
        } catch ThemeLabError.usage(let message), ThemeLabError.invalid(let message) {
            return io.fail("\(name): \(message) (see themelab \(name) --help)", status: 2)
        } catch {
            return io.fail(describe(error), status: 1)
        }
    }
}

/// An error other than a usage error as one line: Foundation's file errors as the path and the reason, not the NSError dump.
func describe(_ error: Error) -> String {
    if let error = error as? ThemeLabError { return "\(error)" }
    let error = error as NSError
    let path = (error.userInfo[NSFilePathErrorKey] as? String) ?? (error.userInfo[NSURLErrorKey] as? URL)?.path
    let underlying = error.userInfo[NSUnderlyingErrorKey] as? NSError
    let reason =
        underlying.flatMap { $0.domain == NSPOSIXErrorDomain ? String(cString: strerror(Int32($0.code))) : nil }
        ?? error.localizedDescription
    return path.map { "\($0): \(reason)" } ?? reason
}

/// A command's verdict that is neither success nor an error to report: its output has said why (a failed `check`).
struct ExitStatus: Error {
    var status: Int32
}
