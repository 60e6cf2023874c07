import Foundation
import ThemeLabCore
import ThemeLabCorpus
import ThemeLabStudy

@testable import ThemeLabCLI

/// Every command and subcommand of `themelab`, by the words that call it, and what the tests need of its arguments:
/// their names, constraints and fields, a valid value of each, and the words its required arguments need.
enum CommandCatalogue {
    /// The words that call each command: `["analyze"]`, `["bench"]`, `["bench", "pairs"]`, …
    static let paths: [[String]] = ThemeLabCLI.commands.flatMap { command in
        [[command.configuration.name]] + command.configuration.subcommands.map { [command.configuration.name, $0.configuration.name] }
    }

    static func command(_ path: [String]) -> (any ParsableCommand.Type)? {
        var found: (any ParsableCommand.Type)?
        var list = ThemeLabCLI.commands
        for word in path {
            found = ThemeLabCLI.command(named: word, in: list)
            list = found?.configuration.subcommands ?? []
        }
        return found
    }

    /// One declared argument, without its command's type.
    struct Declared {
        var name: String
        var names: [String]
        var kind: String
        var constraint: Constraint
        var field: (any SchemaKey)?
        var required: Bool

        /// The words that give it a valid value: `--shuffles 0`, `--json`, `x` for a positional argument.
        var exampleWords: [String] {
            switch kind {
            case "flag": [name]
            case "positional": [constraint.example ?? "x"]
            default: [name, constraint.example ?? "x"]
            }
        }
    }

    static func arguments(of command: any ParsableCommand.Type) -> [Declared] { declared(command) }

    private static func declared<C: ParsableCommand>(_: C.Type) -> [Declared] {
        C.arguments.map { a in
            let kind =
                switch a.kind {
                case .option: "option"
                case .flag: "flag"
                case .positional: "positional"
                }
            return Declared(
                name: a.name, names: a.names, kind: kind, constraint: a.constraint, field: a.field,
                required: a.required || { if case .positional(let c) = a.kind { c.lowerBound > 0 } else { false } }())
        }
    }

    /// The words of a command line with a valid value for each of the command's required arguments, and `words` for the
    /// argument `name`, in the order the arguments are declared (so a positional word lands in its place).
    static func words(_ command: any ParsableCommand.Type, giving name: String, _ words: [String]) -> [String] {
        arguments(of: command).flatMap { $0.name == name ? words : $0.required ? $0.exampleWords : [] }
    }

    /// Why `words` do not parse as the command's arguments, or nil.
    static func parseProblem(_ command: any ParsableCommand.Type, _ words: [String]) -> String? { problem(command, words) }

    private static func problem<C: ParsableCommand>(_: C.Type, _ words: [String]) -> String? {
        errorMessage { _ = try CommandParser<C>(words) }
    }
}

extension Constraint {
    /// A value within the constraint, as a command line writes it; nil where none is written (an object).
    var example: String? {
        switch self {
        case .real: "1"
        case .count(let r): "\(r.lowerBound)"
        case .interval(let r): formatArgument(r.lowerBound)
        case .above(let low, let high): formatArgument(high ?? low + 1)
        case .seed: "0"
        case .oneOf(let words): words.first
        case .columnName: "body"
        case .fileName: "x"
        case .path: "p"
        case .text: "t"
        case .form: "0/2"
        case .entry(_, let forms), .entries(_, let forms): forms.first { !$0.contains("(") }
        case .list(let element, _): element.example
        case .map(let names, let values): values.example.map { "\(names[0])=\($0)" }
        case .flag, .object, .objects, .unavailable: nil
        }
    }
}
