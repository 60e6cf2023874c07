import Foundation
import ThemeLabCore
import ThemeLabCorpus
import ThemeLabStudy

/// Help texts laid out as swift-argument-parser lays them out (OVERVIEW, the discussion, USAGE, ARGUMENTS, OPTIONS,
/// SUBCOMMANDS), made from the commands' declarations, and the command reference of docs/commands.md made from them.
enum CommandHelp {
    /// Lines are wrapped at this width; an argument's help starts at `column`.
    static let width = 100
    static let column = 26

    /// One row of a help section: `label` indented by two, `text` from `column` (on the next line when the label reaches
    /// it), wrapped.
    static func row(_ label: String, _ text: String) -> String {
        let head = "  " + label
        let lines = wrapped(text, width: width - column)
        let pad = String(repeating: " ", count: column)
        guard head.count < column - 1 else { return head + "\n" + lines.map { pad + $0 + "\n" }.joined() }
        return head.padding(toLength: column, withPad: " ", startingAt: 0) + lines[0] + "\n"
            + lines.dropFirst().map { pad + $0 + "\n" }.joined()
    }

    /// `text`'s words in lines of at most `width` characters (a longer word on a line of its own).
    static func wrapped(_ text: String, width: Int) -> [String] {
        wrapped(words: text.split(separator: " ").map(String.init), width: width)
    }

    /// `words` joined by spaces in lines of at most `width` characters (a longer word on a line of its own).
    static func wrapped(words: [String], width: Int) -> [String] {
        var lines: [String] = []
        var line = ""
        for word in words {
            if !line.isEmpty && line.count + 1 + word.count > width {
                lines.append(line)
                line = word
            } else {
                line += (line.isEmpty ? "" : " ") + word
            }
        }
        return lines + [line]
    }

    /// `USAGE: ` and the command's words, wrapped under the first of them.
    static func usage(_ words: [String]) -> String {
        let head = "USAGE: " + words.prefix(2).joined(separator: " ") + " "
        let indent = String(repeating: " ", count: min(head.count, 30))
        let lines = wrapped(words: Array(words.dropFirst(2)), width: width - indent.count)
        return head + lines[0] + lines.dropFirst().map { "\n" + indent + $0 }.joined()
    }

    /// The SUBCOMMANDS section of a command called by `path`.
    static func subcommands(_ list: [any ParsableCommand.Type], path: [String]) -> String {
        "\nSUBCOMMANDS:\n" + list.map { row($0.configuration.name, $0.configuration.abstract) }.joined()
            + "\n  See 'themelab help \((path + ["<subcommand>"]).joined(separator: " "))' for detailed help.\n"
    }

    /// `themelab --help`: what the tool is and its commands.
    static func main(commands: [any ParsableCommand.Type]) -> String {
        "OVERVIEW: themelab \(Tool.version) — does centring + Otsu grouping find the topics people return to?\n\n"
            + "USAGE: themelab <subcommand>\n\nOPTIONS:\n" + row("--version", "Show the version, the BLAS library and its kernel.")
            + row("-h, --help", "Show help information.") + subcommands(commands, path: [])
    }

    /// docs/commands.md: the tool's help and every command's and subcommand's, in the order `themelab --help` lists them.
    static func reference(commands: [any ParsableCommand.Type]) -> String {
        func sections(_ type: any ParsableCommand.Type, _ path: [String]) -> [String] {
            let here = path + [type.configuration.name]
            let text = type.help(path: here)
            return ["## themelab \(here.joined(separator: " "))\n\n```text\n\(text)```\n"]
                + type.configuration.subcommands.flatMap { sections($0, here) }
        }
        return """
            # Commands

            Every command's help, as `themelab help COMMAND` prints it. This page is made from the commands' declarations
            (Sources/ThemeLabCLI), and a test keeps it equal to them.

            ## themelab

            ```text
            \(main(commands: commands))```


            """ + commands.flatMap { sections($0, []) }.joined(separator: "\n") + "\n" + fields()
    }

    /// The options that set `field`, each with the commands that take it: "`--shuffles` (analyze)".
    static func options(of field: any SchemaKey) -> [String] {
        var commands: [String: [String]] = [:]
        for command in ThemeLabCLI.commands {
            for (type, path) in [(command, [command.configuration.name])]
                + command.configuration.subcommands.map({
                    ($0, [command.configuration.name, $0.configuration.name])
                })
            {
                for (set, option) in type.fieldOptions
                where Swift.type(of: set) == Swift.type(of: field) && set.stringValue == field.stringValue {
                    commands[option, default: []].append(path.joined(separator: " "))
                }
            }
        }
        return commands.sorted { $0.key < $1.key }.map { "`\($0.key)` (\($0.value.joined(separator: ", ")))" }
    }

    /// The fields of experiment and replay files, each with the values it may hold (the one declaration the validator
    /// reads, `SchemaKey.setting`) and the option that sets it on a command line.
    static func fields() -> String {
        func rows(_ keys: any SchemaKey.Type, _ prefix: String) -> [String] {
            keys.declared.flatMap { key -> [String] in
                guard let setting = key.setting else { return [] }
                let path = prefix + key.stringValue
                var values = setting.constraint.values
                if let field = key as? CorpusSpec.CodingKeys, ![.name, .as, .resample].contains(field) {
                    values += " (\(DatasetRegistry.corpora(taking: field).joined(separator: ", ")))"
                }
                let row = "| `\(path)` | \(values) | \(options(of: key).joined(separator: ", ")) |"
                let inner = setting.constraint == .objects ? path + "[i]." : path + "."
                guard let nested = setting.fields else { return [row] }
                // A replay's journal holds a corpus as an experiment's corpora do: its fields are listed once.
                return [row] + (prefix.hasPrefix("journals") ? [] : rows(nested, inner))
            }
        }
        let head = "| field | values | command-line option |\n|---|---|---|\n"
        return """
            ## Experiment files

            Every field of an experiment file (Experiments/NAME.json, read by `ablate`) with the values it may hold, as
            the one validator of settings checks them, and the option that sets it on a command line. A corpus's options
            apply to the corpora named after them.

            \(head + rows(ExperimentPlan.Keys.self, "").joined(separator: "\n"))

            ## Replay files

            Every field of a replay file (`"kind": "replay"`, read by `replay`); a journal's `corpus` takes the fields
            of an experiment's `corpora[i]`.

            \(head + rows(ReplayPlan.Keys.self, "").joined(separator: "\n"))

            """
    }
}

extension ParsableCommand {
    /// The help of the command called by `path` (`["slurm", "pairs"]`).
    static func help(path: [String]) -> String {
        let c = configuration
        var text = "OVERVIEW: \(c.abstract)\n\n" + (c.discussion.isEmpty ? "" : c.discussion + "\n\n")
        let shown = c.subcommands.isEmpty ? arguments.map(\.usage) : ["<subcommand>"]
        text += CommandHelp.usage(["themelab", path.joined(separator: " ")] + shown) + "\n"
        let positional = arguments.filter { if case .positional = $0.kind { true } else { false } }
        if !positional.isEmpty { text += "\nARGUMENTS:\n" + positional.map { CommandHelp.row($0.name, $0.helpText) }.joined() }
        let options = arguments.filter { $0.kind == .option || $0.kind == .flag }
        text += "\nOPTIONS:\n" + options.map { CommandHelp.row($0.label, $0.helpText) }.joined()
        text += CommandHelp.row("-h, --help", "Show help information.")
        if !c.subcommands.isEmpty { text += CommandHelp.subcommands(c.subcommands, path: path) }
        return text
    }
}

extension Argument {
    /// How help's OPTIONS section names it: `--corpus <C>`, `--json`.
    var label: String { kind == .option ? "\(name) \(valueName)" : name }

    /// How the USAGE line writes it: `--corpus <C>`, `[--json]`, `<experiment>`, `<part> ...`.
    var usage: String {
        switch kind {
        case .positional(let count): count.upperBound > 1 ? "\(name) ..." : name
        case .option where required: label
        default: "[\(label)]"
        }
    }

    /// Its help line, then its default and the values it may hold (`(default: 10; 0 to 1000)`) and its old spelling.
    var helpText: String {
        var notes: [String] = []
        if !required, let shown = shownDefault(C()) ?? unset { notes.append("default: \(shown)") }
        if kind == .option && !constraint.summary.isEmpty { notes.append(constraint.summary) }
        if let old = oldSpelling { notes.append("\(old.name), its old spelling, is deprecated") }
        return help + (notes.isEmpty ? "" : " (\(notes.joined(separator: "; ")))")
    }
}

extension Constraint {
    /// What the constraint allows, in words, for the fields' table.
    var values: String {
        switch self {
        case .real: "a number"
        case .count, .seed: "a whole number from \(summary)"
        case .interval: "a number from \(summary)"
        case .above: "a number \(summary)"
        case .flag: "true or false"
        case .oneOf: summary
        case .columnName: "a column name: not empty, no control characters"
        case .fileName: "1–64 letters, digits, '.', '_' or '-', the first a letter or digit"
        case .path: "a path"
        case .text: "text"
        case .form(let form): "text of the form \(form)"
        case .entry(_, let forms): Constraint.words(forms, "or")
        case .entries(_, let forms): "a list of " + forms.joined(separator: ", ")
        case .list(let element, let distinct): "a list, each \(element.values)\(distinct ? ", none twice" : "")"
        case .map(let names, let values): "an object of \(names.joined(separator: ", ")), each \(values.values)"
        case .object: "an object"
        case .objects: "a list of objects"
        case .unavailable(let why): why
        }
    }
}
