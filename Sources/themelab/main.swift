import Foundation
import ThemeLab

do {
    for note in try BLASRuntime.ensureKernel() { FileHandle.standardError.write(Data("themelab: \(note)\n".utf8)) }
} catch {
    FileHandle.standardError.write(Data("themelab: \(error)\n".utf8))
    exit(2)
}
BLASRuntime.useOneThread()

/// A subcommand: its one-line summary, its help text and what it runs.
struct Command: Sendable {
    var summary: String
    var help: String
    var options: Set<String> = []
    var switches: Set<String> = []
    /// How many positional words the command takes.
    var positionals: ClosedRange<Int> = 0...0
    var run: @Sendable (Arguments) throws -> Void
}

let commands: [String: Command] = [
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

let commandList = commands.keys.sorted().map { "  \($0.padding(toLength: 11, withPad: " ", startingAt: 0))\(commands[$0]!.summary)" }
    .joined(separator: "\n")
let usage = """
    themelab \(Tool.version) — does centring + Otsu grouping find the topics people return to?

    usage: themelab <command> [options]      themelab <command> --help

    commands:
    \(commandList)

      --version  version, BLAS library and kernel
      --help     this text
    """

func fail(_ message: String, code: Int32) -> Never {
    FileHandle.standardError.write(Data("themelab: \(message)\n".utf8))
    exit(code)
}

let words = Array(CommandLine.arguments.dropFirst())
switch words.first {
case nil, "--help", "-h", "help":
    print(usage)
case "--version":
    print(
        "themelab \(Tool.version) (OpenBLAS kernel \(BLASRuntime.corename), \(BLASRuntime.arithmetic) arithmetic; "
            + "\(BLASRuntime.kernelSource))")
case let name?:
    guard let command = commands[name] else { fail("unknown command '\(name)' (see themelab --help)", code: 2) }
    let rest = Array(words.dropFirst())
    if rest.contains("--help") || rest.contains("-h") {
        print(command.help)
        exit(0)
    }
    do {
        try command.run(try Arguments(rest, options: command.options, switches: command.switches, positionals: command.positionals))
    } catch ThemeLabError.usage(let message) {
        fail("\(name): \(message) (see themelab \(name) --help)", code: 2)
    } catch let error as ThemeLabError {
        fail("\(error)", code: 1)
    } catch let error as NSError {
        // Foundation's file errors: the path and the reason on one line, not the NSError dump.
        let path = (error.userInfo[NSFilePathErrorKey] as? String) ?? (error.userInfo[NSURLErrorKey] as? URL)?.path
        let underlying = error.userInfo[NSUnderlyingErrorKey] as? NSError
        let reason =
            underlying.flatMap { $0.domain == NSPOSIXErrorDomain ? String(cString: strerror(Int32($0.code))) : nil }
            ?? error.localizedDescription
        fail(path.map { "\($0): \(reason)" } ?? reason, code: 1)
    }
}
