import Foundation
import ThemeLabCore
import ThemeLabCorpus
import ThemeLabStudy

/// A command of `themelab`, declared once as swift-argument-parser declares one: what it is (`configuration`), and its
/// arguments, each an option, a flag or a positional argument bound by a key path to one stored property of the
/// command, whose initial value is the default. Parsing, `--help`, usage errors and docs/commands.md all come from
/// these declarations (`CommandParser`, `CommandHelp`).
protocol ParsableCommand: Sendable {
    static var configuration: CommandConfiguration { get }
    /// Every argument, in the order help lists them.
    static var arguments: [Argument<Self>] { get }
    /// The command with every default.
    init()
    /// Runs it: a usage error (`ThemeLabError.usage` or `.invalid`) exits 2, any other error 1.
    func run(_ io: Invocation) throws
    /// Its help, called by `path` (`CommandHelp`).
    static func help(path: [String]) -> String
    /// Parses `words` and runs it, or a subcommand (`ThemeLabCLI`).
    static func invoke(path: [String], _ words: [String], _ io: Invocation) -> Int32
    /// The fields of experiment files its options set, with each option's name (docs/commands.md).
    static var fieldOptions: [(field: any SchemaKey, option: String)] { get }
}

extension ParsableCommand {
    /// A command that only gathers subcommands takes no arguments of its own.
    static var arguments: [Argument<Self>] { [] }

    static var fieldOptions: [(field: any SchemaKey, option: String)] { arguments.compactMap { a in a.field.map { ($0, a.name) } } }

    /// A command that only gathers subcommands, run without one: a usage error naming them.
    func run(_ io: Invocation) throws { throw ThemeLabError.usage(Self.expectedSubcommand) }

    /// "expected 'bench pairs' or 'bench encoder'".
    static var expectedSubcommand: String {
        "expected " + Constraint.words(configuration.subcommands.map { "'\(configuration.name) \($0.configuration.name)'" }, "or")
    }
}

/// What a command is: its name, a one-line abstract (the command list and the help's OVERVIEW), a discussion (what the
/// options' lines cannot say) and its subcommands.
struct CommandConfiguration: Sendable {
    var name: String
    var abstract: String
    var discussion = ""
    var subcommands: [any ParsableCommand.Type] = []
}

/// An option's old spelling, still accepted with a note on stderr: `--results` for an output folder, now `--out`.
struct OldSpelling {
    var name: String
    /// What the old name was for, as the note says it ("for an output folder").
    var meaning: String

    /// `--results`, once the output folder of ablate, gather, replay, reproduce and slurm ablate.
    static let outputFolder = OldSpelling(name: "--results", meaning: "for an output folder")
    /// The output folder those commands write to when not given one.
    static let defaultResults = "results"
}

/// One argument of command `C`: an option (`--shuffles <N>`), a flag (`--json`) or a positional argument
/// (`<experiment>`), with its help line, the values it may hold, and how its word sets the command's property.
struct Argument<C: ParsableCommand> {
    enum Kind: Equatable {
        case option
        case flag
        /// A positional argument taking this many words.
        case positional(ClosedRange<Int>)
    }

    /// `--shuffles`, or `<experiment>` for a positional argument.
    var name: String
    var kind: Kind
    /// How help writes its value: `<N>`.
    var valueName = ""
    var help: String
    /// What its value may hold (for a flag: `.flag`).
    var constraint: Constraint
    /// The experiment-file field it sets, when it sets one (then its name and constraint are the field's).
    var field: (any SchemaKey)?
    /// Whether the command refuses to run without it.
    var required = false
    var oldSpelling: OldSpelling?
    /// What leaving out an option without a default means, for help (`the last layer`).
    var unset: String?
    /// The default as help shows it, read off `C()`.
    var shownDefault: (C) -> String? = { _ in nil }
    /// Sets the property from one word (for a positional list, once per word); a refusal is a usage error naming it.
    var set: (inout C, String) throws -> Void

    /// Every name it is given by on a command line.
    var names: [String] { [name] + (oldSpelling.map { [$0.name] } ?? []) }
}

extension Argument {
    /// An option whose word is read under `constraint` (a number, a word, a list of numbers, `NAME=VALUE` pairs) and
    /// refused, naming the option, when outside it; the value then sets `keyPath` as it is. `read` turns the value into
    /// another type (names of a registry into its entries); `show` writes the default for help.
    static func option<V>(
        _ name: String, _ keyPath: WritableKeyPath<C, V>, _ constraint: Constraint, value: String, required: Bool = false,
        unset: String? = nil, oldSpelling: OldSpelling? = nil, read: ((Any) throws -> V)? = nil,
        show: ((V) -> String?)? = nil, help: String
    ) -> Argument {
        Argument(
            name: name, kind: .option, valueName: value, help: help, constraint: constraint, required: required,
            oldSpelling: oldSpelling, unset: unset, shownDefault: { (show ?? shownValue)($0[keyPath: keyPath]) },
            set: { command, word in
                command[keyPath: keyPath] = try Self.value(of: word, as: name, constraint, checked: true, read: read)
            })
    }

    /// An option that sets a field of an experiment file (`field`): its name and constraint are the field's
    /// (`SchemaKey.setting`), its element's for a list field given one value at a time (`one`: `--layer`). A corpus
    /// option's value is checked against the named corpus's declaration with the corpus (`ExperimentSchema.check`),
    /// unless `checked` says it is checked as it is parsed.
    static func option<V>(
        _ field: some SchemaKey, _ keyPath: WritableKeyPath<C, V>, value: String, one: Bool = false, unset: String? = nil,
        checked: Bool? = nil, read: ((Any) throws -> V)? = nil, show: ((V) -> String?)? = nil, help: String
    ) -> Argument {
        guard let setting = field.setting, let name = setting.option else { preconditionFailure("\(field) has no command-line option") }
        let constraint = one ? setting.constraint.element : setting.constraint
        let checked = checked ?? !(field is CorpusSpec.CodingKeys)
        return Argument(
            name: name, kind: .option, valueName: value, help: help, constraint: constraint, field: field, unset: unset,
            shownDefault: { (show ?? shownValue)($0[keyPath: keyPath]) },
            set: { command, word in
                command[keyPath: keyPath] = try Self.value(of: word, as: name, constraint, checked: checked, read: read)
            })
    }

    /// A switch: given, it sets `keyPath` to true.
    static func flag(_ name: String, _ keyPath: WritableKeyPath<C, Bool>, help: String) -> Argument {
        Argument(name: name, kind: .flag, help: help, constraint: .flag, set: { command, _ in command[keyPath: keyPath] = true })
    }

    /// A switch that sets an experiment file's flag field (`--out-of-scope`).
    static func flag(_ field: some SchemaKey, _ keyPath: WritableKeyPath<C, Bool?>, help: String) -> Argument {
        guard let name = field.setting?.option else { preconditionFailure("\(field) has no command-line option") }
        return Argument(
            name: name, kind: .flag, help: help, constraint: .flag, field: field, set: { command, _ in command[keyPath: keyPath] = true })
    }

    /// A positional argument naming one file.
    static func argument(_ name: String, _ keyPath: WritableKeyPath<C, String>, help: String) -> Argument {
        Argument(
            name: name, kind: .positional(1...1), help: help, constraint: .path,
            set: { command, word in command[keyPath: keyPath] = try Self.value(of: word, as: name, .path, checked: true, read: nil) })
    }

    /// Positional arguments naming `count` files, in order.
    static func arguments(_ name: String, _ keyPath: WritableKeyPath<C, [String]>, count: ClosedRange<Int>, help: String) -> Argument {
        Argument(
            name: name, kind: .positional(count), help: help, constraint: .path,
            set: { command, word in
                command[keyPath: keyPath].append(try Self.value(of: word, as: name, .path, checked: true, read: nil))
            })
    }

    /// `word` read under `constraint` as a value of type `V`: refused, naming the argument `name`, when it is outside the
    /// constraint (when `checked`; otherwise the validator of what it sets checks it) or not of the type.
    static func value<V>(of word: String, as name: String, _ constraint: Constraint, checked: Bool, read: ((Any) throws -> V)?) throws -> V
    {
        let value = constraint.commandLineValue(word)
        func refusal(_ problem: (path: String, message: String)?) -> ThemeLabError {
            // A map's entry is named after the option (`--tolerance ari`); a list's element is the option's.
            let entry = problem.map { $0.path.hasPrefix(".") ? " " + $0.path.dropFirst() : "" } ?? ""
            return .usage("\(name)\(entry) \(problem?.message ?? "cannot be \(quotedWord(word))")")
        }
        if checked, let problem = constraint.problem(value, at: "") { throw refusal(problem) }
        if let read {
            do { return try read(value) } catch let e as ThemeLabError { throw ThemeLabError.usage("\(name) \(e)") }
        }
        guard let typed = value as? V else { throw refusal(constraint.problem(value, at: "")) }
        return typed
    }
}

extension Argument {
    /// `--data-dir DIR`: where real corpora are read from.
    static func dataDirectory(_ keyPath: WritableKeyPath<C, String?>) -> Argument {
        .option("--data-dir", keyPath, .path, value: "<DIR>", unset: "$THEMELAB_DATA", help: "Folder holding real corpora.")
    }

    /// `--out DIR`: the results root a command writes NAME/ in (`--results`, its old spelling, is still taken).
    static func resultsRoot(_ keyPath: WritableKeyPath<C, String?>, help: String) -> Argument {
        .option("--out", keyPath, .path, value: "<DIR>", unset: OldSpelling.defaultResults, oldSpelling: .outputFolder, help: help)
    }
}

/// Names of a registry's entries read by `parse`, for an option's `read:` (`--thresholds otsu,percentile(90)`).
func readNames<T>(_ parse: @escaping (String) throws -> T) -> (Any) throws -> [T] {
    { value in try (value as? [String] ?? []).map(parse) }
}

/// One name of a registry's entries read by `parse`, for an option's `read:` (`--grouping hdbscan(8)`).
func readName<T>(_ parse: @escaping (String) throws -> T) -> (Any) throws -> T? {
    { value in try parse(value as? String ?? "") }
}

/// A default as help writes it: a number, a word or a list of them joined by commas; nil for nothing (an optional left
/// unset, false).
func shownValue(_ value: Any) -> String? {
    let mirror = Mirror(reflecting: value)
    if mirror.displayStyle == .optional { return mirror.children.first.flatMap { shownValue($0.value) } }
    switch value {
    case let flag as Bool: return flag ? "true" : nil
    case let x as Double: return formatArgument(x)
    case let list as [Any]: return list.compactMap(shownValue).joined(separator: ", ")
    default: return "\(value)"
    }
}

extension Constraint {
    /// What one value of a list setting may hold (the constraint itself for any other).
    var element: Constraint {
        switch self {
        case .list(let element, _): element
        case .entries(let kind, let forms): .entry(kind: kind, forms: forms)
        case .objects: .object
        default: self
        }
    }
}
