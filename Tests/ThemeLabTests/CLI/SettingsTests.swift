import Foundation
import Testing
import ThemeLabCore
import ThemeLabCorpus
import ThemeLabMethods
import ThemeLabStudy

@testable import ThemeLabCLI

/// A value outside a constraint, as a JSON file writes it and as a command line's word; nil where that vocabulary
/// cannot hold it (NaN in JSON, a number for a text option).
struct InvalidValue: CustomStringConvertible {
    var json: String?
    var word: String?

    static func both(_ json: String, _ word: String) -> InvalidValue { InvalidValue(json: json, word: word) }
    /// A number, written the same way in both.
    static func number(_ text: String) -> InvalidValue { InvalidValue(json: text, word: text) }
    /// A word, quoted in JSON.
    static func text(_ word: String) -> InvalidValue {
        InvalidValue(json: String(decoding: try! JSONEncoder().encode(word), as: UTF8.self), word: word)
    }

    var description: String { json ?? word ?? "" }
}

extension Constraint {
    /// Values outside the constraint, made from it as scikit-learn's `generate_invalid_param_val` makes them: for a
    /// whole-number range low − 1, high + 1, 1.5 and a word; for an interval values just outside, NaN and ±inf; for words
    /// one not listed; for a registry's names an unknown name and an empty list; for a name "" and a line break.
    var invalidValues: [InvalidValue] {
        switch self {
        case .real: return [.text("x"), InvalidValue(word: "nan"), InvalidValue(word: "inf")]
        case .count(let r): return ["\(r.lowerBound - 1)", "\(r.upperBound + 1)", "1.5"].map(InvalidValue.number) + [.text("ten")]
        case .interval(let r):
            return [r.lowerBound - Self.step(r.lowerBound), r.upperBound + Self.step(r.upperBound)].map { .number("\($0)") }
                + ["nan", "inf", "-inf"].map { InvalidValue(word: $0) } + [.text("x")]
        case .above(let low, let high):
            return [.number("\(low)")] + (high.map { [.number("\($0 + Self.step($0))")] } ?? [])
                + ["nan", "-inf"].map { InvalidValue(word: $0) } + [.text("x")]
        case .seed: return ["-1", "18446744073709551616", "1.5"].map(InvalidValue.number) + [.text("ten")]
        case .flag: return [.text("yes")]
        case .oneOf: return [.text("nope")]
        case .columnName: return [.text(""), .text("a\nb")]
        case .fileName: return [.text(""), .text("../x"), .text("a\nb")]
        case .path: return [.text(""), InvalidValue(json: "3")]
        case .text, .form, .object: return [InvalidValue(json: "3")]
        case .entry: return [.text("nope"), InvalidValue(json: "3")]
        case .entries: return [.text("nope"), InvalidValue(json: "[]", word: ""), InvalidValue(json: "[\"nope\"]")]
        case .list(let element, let distinct):
            let example = element.example ?? ""
            return [InvalidValue(json: "[]")] + element.invalidValues.map { InvalidValue(json: $0.json.map { "[\($0)]" }, word: $0.word) }
                + (distinct ? [InvalidValue(json: "[\(example), \(example)]", word: "\(example),\(example)")] : [])
        case .map(let names, let values):
            let example = values.example ?? ""
            return [InvalidValue(json: "{\"nope\": \(example)}", word: "nope=\(example)")]
                + values.invalidValues.map { v in
                    InvalidValue(json: v.json.map { "{\"\(names[0])\": \($0)}" }, word: v.word.map { "\(names[0])=\($0)" })
                }
        case .objects: return [InvalidValue(json: "[]"), InvalidValue(json: "3"), InvalidValue(json: "[3]")]
        case .unavailable: return [.number("1")]
        }
    }

    /// A step just outside a bound.
    private static func step(_ bound: Double) -> Double { max(1e-6, abs(bound) * 1e-6) }
}

/// A field of an experiment or replay file: where it is, what it may hold, and the smallest valid file holding it.
struct FileSetting: CustomStringConvertible {
    var path: String
    var constraint: Constraint?
    /// Whether it is a field of a replay file (else of an experiment file).
    var replay: Bool
    /// The file as JSON with `FileSetting.placeholder` for the field's value.
    var document: String

    static let placeholder = "@@value@@"
    var description: String { (replay ? "replay " : "") + path }

    /// Every field below `keys` (at `path`), each in a valid file that `wrap` makes of the object holding it.
    static func all(
        _ keys: any SchemaKey.Type, at path: String = "", replay: Bool, wrap: @escaping ([String: Any]) -> [String: Any] = { $0 }
    ) -> [FileSetting] {
        keys.declared.flatMap { key -> [FileSetting] in
            let holder = Self.holder(of: key)
            let field = path + key.stringValue
            let document = Self.json(wrap(holder.merging([key.stringValue: placeholder]) { $1 }))
            let own = FileSetting(path: field, constraint: key.constraint(in: holder), replay: replay, document: document)
            guard let nested = key.fields else { return [own] }
            let isList = own.constraint == .objects
            return [own]
                + all(nested, at: field + (isList ? "[0]." : "."), replay: replay) { object in
                    wrap(holder.merging([key.stringValue: isList ? [object] : object]) { $1 })
                }
        }
    }

    /// A valid object holding `key`: a corpus that takes it, for a corpus's option.
    static func holder(of key: any SchemaKey) -> [String: Any] {
        let generator: [String: Any] = [
            "dimensions": 4, "topicSizes": [2, 2], "anisotropy": 0, "anisotropySpread": 0, "topicStrength": 1, "noise": 1, "seed": 1,
        ]
        let resample: [String: Any] = ["scheme": Resampling.schemes[0], "fraction": 0.5]
        switch key {
        case let key as CorpusSpec.CodingKeys:
            let name = [.name, .as, .resample].contains(key) ? "seed-12" : DatasetRegistry.corpora(taking: key).first ?? "seed-12"
            let extra: [String: Any] =
                switch name {
                case DatasetRegistry.file.name: ["path": "c.jsonl"]
                case "synthetic": ["generator": generator]
                default: [:]
                }
            return ["name": name, "resample": resample].merging(extra) { $1 }
        case is SyntheticVectors.CodingKeys: return generator
        case is ExperimentPlan.Encoder.CodingKeys: return ["layers": [1]]
        case is Resampling.Keys: return resample
        case is ReplayPlan.Keys: return ["kind": "replay", "name": "r", "journals": [["corpus": ["name": "seed-12"]]]]
        case is ReplayPlan.Journal.CodingKeys: return ["corpus": ["name": "seed-12"]]
        default:
            return ["name": "x", "corpora": [["name": "seed-12"]], "encoders": [["layers": [1]]], "replicates": 2, "resample": resample]
        }
    }

    static func json(_ object: [String: Any]) -> String {
        String(decoding: try! JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]), as: UTF8.self)
    }

    /// The file with `value` (JSON text) as the field's value.
    func document(with value: String) -> String { document.replacingOccurrences(of: "\"\(Self.placeholder)\"", with: value) }
}

/// Every setting declares the values it may hold, and each value generated outside them is refused in one line naming the
/// setting as its caller spells it: `'corpora[0].intents'` in a file (exit 1), `--intents` on a command line (exit 2).
@Suite struct SettingsTests {
    static let fileSettings =
        FileSetting.all(ExperimentPlan.Keys.self, replay: false) + FileSetting.all(ReplayPlan.Keys.self, replay: true)

    /// Every command's every argument, by the words that call the command.
    static let commandArguments: [(path: [String], name: String)] = CommandCatalogue.paths.flatMap { path in
        CommandCatalogue.command(path).map { CommandCatalogue.arguments(of: $0).map { (path, $0.name) } } ?? []
    }

    @Test func everyFieldOfASettingsFileDeclaresItsValues() {
        let undeclared = Self.fileSettings.filter { $0.constraint == nil }.map(\.description)
        #expect(undeclared.isEmpty, "fields with no declared constraint: \(undeclared)")
        #expect(Self.fileSettings.count > 40 && Self.fileSettings.contains { $0.path == "corpora[0].generator.topicSizes" })
    }

    /// The files the cases start from are valid: a refusal is the generated value's.
    @Test func theFilesTheCasesStartFromAreValid() throws {
        let folder = temporaryFolder()
        for setting in Self.fileSettings where setting.path == "name" {
            let path = folder + "/valid.json"
            try AtomicFile.write(setting.document(with: "\"x\""), to: path)
            let error = errorMessage { _ = setting.replay ? try ReplayPlan.read(path: path) as Any : try ExperimentPlan.read(path: path) }
            #expect(error == nil, "\(setting): \(error ?? "")")
        }
    }

    @Test(arguments: fileSettings) func aFileRefusesEachValueOutsideAField(_ setting: FileSetting) throws {
        let constraint = try #require(setting.constraint)
        let folder = temporaryFolder()
        let file = folder + "/x.json"
        for value in constraint.invalidValues.compactMap(\.json) {
            try AtomicFile.write(setting.document(with: value), to: file)
            let r = CLI.run([setting.replay ? "replay" : "ablate", file, "--out", folder + "/out"])
            #expect(
                r.status == 1 && r.stderr.hasPrefix("themelab: \(file): '\(setting.path)") && r.stderr.split(separator: "\n").count == 1,
                "\(setting) = \(value): \(r.status) \(r.stderr)")
        }
    }

    @Test(arguments: commandArguments.map { $0.path + [$0.name] })
    func aCommandRefusesEachValueOutsideAnOption(_ words: [String]) throws {
        let (path, name) = (Array(words.dropLast()), words.last!)
        let command = try #require(CommandCatalogue.command(path))
        let argument = try #require(CommandCatalogue.arguments(of: command).first { $0.name == name })
        let invalid = argument.kind == "flag" ? ["\(name)=yes"] : argument.constraint.invalidValues.compactMap(\.word)
        for word in invalid {
            let given = argument.kind == "flag" ? [word] : argument.kind == "positional" ? [word] : [name, word]
            var line = CommandCatalogue.words(command, giving: name, given)
            // A corpus's option is checked against the corpus it is given with: one that takes it.
            let corpusField = argument.field as? CorpusSpec.CodingKeys
            if let field = corpusField, let i = line.firstIndex(of: "--corpus"), field != .path, field != .name {
                let corpus = DatasetRegistry.corpora(taking: field).first ?? ""
                line[i + 1] = corpus == DatasetRegistry.file.name ? temporaryFolder() + "/c.jsonl" : corpus
            }
            // A value the parser takes would run the command: only a corpus's option is checked after parsing.
            guard CommandCatalogue.parseProblem(command, line) != nil || corpusField != nil else {
                Issue.record("\(path) \(line) parses")
                continue
            }
            let r = CLI.run(path + line)
            let prefix = "themelab: \(path.joined(separator: " ")): \(name)"
            #expect(
                r.status == 2 && r.stderr.hasPrefix(prefix) && r.stderr.split(separator: "\n").count == 1,
                "\(path) \(line): \(r.status) \(r.stderr)")
        }
    }

    /// Every parameter of every space, rule, grouping and policy: each name written with a number outside the
    /// parameter (the others within theirs) is refused naming the parameter.
    @Test func aRegistryEntryRefusesEachArgumentOutsideAParameter() {
        let registries: [(entries: [(name: String, parameters: [Parameter])], parse: (String) throws -> Void)] = [
            (EmbeddingSpace.registry.entries.map { ($0.name, $0.parameters) }, { _ = try EmbeddingSpace(name: $0) }),
            (thresholdRuleRegistry.entries.map { ($0.name, $0.parameters) }, { _ = try thresholdRule(named: $0) }),
            (groupingRegistry.entries.map { ($0.name, $0.parameters) }, { _ = try grouping(named: $0) }),
            (regroupPolicyRegistry.entries.map { ($0.name, $0.parameters) }, { _ = try regroupPolicy(named: $0) }),
        ]
        var cases = 0
        for (entries, parse) in registries {
            for (name, parameters) in entries {
                for (i, p) in parameters.enumerated() {
                    let before = parameters[..<i].map { $0.constraint.example ?? "1" }
                    for value in p.constraint.invalidValues.compactMap(\.json) where Double(value) != nil {
                        let text = "\(name)(\((before + [value]).joined(separator: ",")))"
                        let error = errorMessage { try parse(text) }
                        #expect(error?.contains(": \(p.label) ") == true, "\(text): \(error ?? "taken")")
                        cases += 1
                    }
                }
            }
        }
        #expect(cases > 40)
    }
}
