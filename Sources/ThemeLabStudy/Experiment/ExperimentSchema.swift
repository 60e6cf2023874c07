import Foundation
import ThemeLabCore
import ThemeLabCorpus
import ThemeLabEncoder
import ThemeLabMeasures
import ThemeLabMethods
import ThemeLabPairs

/// A field of an experiment file, declared once, on the `CodingKeys` of the type that decodes it (`setting`): the values
/// it may hold, the command-line option that sets it and the fields of the object it holds. The refusal of unknown
/// fields, the one validator of settings (`ExperimentSchema.check`), the command-line options that set a field and the
/// spelling of messages all read this one declaration.
package protocol SchemaKey: CodingKey, CaseIterable {
    /// The field's declaration; nil only while it is undeclared, which `SettingsTests` refuses.
    var setting: Setting? { get }
    /// The values the field may hold in `object`, the object it is a field of (a corpus's options are its registry
    /// entry's); `setting`'s by default.
    func constraint(in object: [String: Any]) -> Constraint?
}

/// What a field of an experiment file may hold, the command-line option that sets it, and the fields of the object it
/// holds (or of each object of its list).
package struct Setting: Sendable {
    package var constraint: Constraint
    package var option: String?
    package var fields: (any SchemaKey.Type)?

    package init(_ constraint: Constraint, option: String? = nil, fields: (any SchemaKey.Type)? = nil) {
        (self.constraint, self.option, self.fields) = (constraint, option, fields)
    }
}

extension SchemaKey {
    package func constraint(in object: [String: Any]) -> Constraint? { setting?.constraint }
    package var option: String? { setting?.option }
    package var fields: (any SchemaKey.Type)? { setting?.fields }
    package static var names: [String] { allCases.map(\.stringValue) }
    /// Every key, in declaration order.
    package static var declared: [any SchemaKey] { allCases.map { $0 } }
}

/// The checks an experiment file's declaration gives, before and after decoding.
package enum ExperimentSchema {
    /// The most bytes an experiment file may hold: far above the project's largest (6.6 KB) or a grid at the bounds of
    /// `GridEstimate`, and small enough that parsing it stays near 150 MB (Foundation's JSON objects take about 150
    /// bytes per byte of the file). Checked before the file is read.
    package static let maxBytes = 1 << 20

    /// The bytes of the file at `path` and the JSON object they hold.
    package static func object(at path: String) throws -> (Data, [String: Any]) {
        let data = try ReadOnlyFile.contents(of: path, limit: maxBytes, what: "an experiment file")
        return (data, try object(data, path: path))
    }

    package static func object(_ data: Data, path: String) throws -> [String: Any] {
        guard let object = try JSONInput.parse(data, file: path) as? [String: Any] else {
            throw ThemeLabError.input("\(path): not a JSON object")
        }
        return object
    }

    /// `data` (the JSON `object`, read from `path`) decoded as `T` once its fields pass `check`; a refusal names the file
    /// and the field.
    package static func decode<T: Decodable>(
        _ type: T.Type, _ data: Data, _ object: [String: Any], path: String, keys: any SchemaKey.Type, topLevel: String
    ) throws -> T {
        let source = ParameterSource.experiment(path)
        try check(object, keys, at: "", topLevel: topLevel, source: source)
        do { return try JSONDecoder().decode(T.self, from: data) } catch let e as FieldError {
            throw source.error(e.path, e.message)
        } catch {
            throw ThemeLabError.input("\(path): \(JSONOutput.describe(error))")
        }
    }

    /// The one validator of settings: refuses the first field of `object` (at `path`; "" for the top level, called
    /// `topLevel`) that `keys` does not declare, then each declared field's value outside its constraint, in declaration
    /// order, then does the same inside every object a field holds. A refusal names the field as `source` spells it.
    package static func check(
        _ object: [String: Any], _ keys: any SchemaKey.Type, at path: String, topLevel: String, source: ParameterSource
    ) throws {
        for name in object.keys.sorted() where keys.init(stringValue: name) == nil {
            let field = path.isEmpty ? name : "\(path).\(name)"
            let expected = keys.names.sorted().joined(separator: ", ")
            throw source.error(field, "is not a field of \(path.isEmpty ? topLevel : "this object") (expected one of \(expected))")
        }
        for key in keys.declared {
            // A null is a field left out, as the decoder reads it.
            guard let value = object[key.stringValue], !(value is NSNull) else { continue }
            let field = path.isEmpty ? key.stringValue : "\(path).\(key.stringValue)"
            if let (at, why) = key.constraint(in: object)?.problem(value, at: field) { throw source.error(at, why) }
            guard let nested = key.fields else { continue }
            for (inner, v) in elements(value, at: field) {
                if let v = v as? [String: Any] { try check(v, nested, at: inner, topLevel: topLevel, source: source) }
            }
        }
    }

    /// A corpus built from a command line's options, checked as an experiment file's `corpora[0]` is.
    package static func check(_ spec: CorpusSpec, source: ParameterSource) throws {
        let object = try JSONSerialization.jsonObject(with: JSONEncoder().encode(spec)) as? [String: Any] ?? [:]
        try check(object, CorpusSpec.CodingKeys.self, at: "corpora[0]", topLevel: "a corpus", source: source)
    }

    /// The folder an experiment file's relative paths are read against: the file's own.
    package static func folder(of path: String) -> String { URL(fileURLWithPath: path).deletingLastPathComponent().path }

    /// A field's value, or each element of its list, with its path.
    private static func elements(_ value: Any?, at path: String) -> [(path: String, value: Any)] {
        guard let value else { return [] }
        guard let list = value as? [Any] else { return [(path, value)] }
        return list.enumerated().map { ("\(path)[\($0.offset)]", $0.element) }
    }

    /// The command-line option of the field at `path` (`corpora[0].generator.dimensions` → `--dims`), found by
    /// walking the declaration from `root`.
    package static func option(of path: String, from root: any SchemaKey.Type) -> String? {
        var keys: (any SchemaKey.Type)? = root
        var option: String?
        for part in path.split(separator: ".") {
            guard let key = keys?.init(stringValue: String(part.prefix { $0 != "[" })) else { return nil }
            (keys, option) = (key.fields, key.option)
        }
        return option
    }
}

extension ExperimentPlan.Keys: SchemaKey {
    package var setting: Setting? {
        switch self {
        case .name: Setting(.fileName(names: "the results folder"))
        case .description: Setting(.text)
        case .corpora: Setting(.objects, option: "--corpus", fields: CorpusSpec.CodingKeys.self)
        case .encoders: Setting(.objects, fields: ExperimentPlan.Encoder.CodingKeys.self)
        case .spaces: Setting(.entries(kind: "space", forms: EmbeddingSpace.registry.forms), option: "--space")
        case .thresholds: Setting(.entries(kind: "threshold rule", forms: thresholdRuleRegistry.forms), option: "--thresholds")
        case .groupings: Setting(.entries(kind: "grouping", forms: groupingRegistry.forms), option: "--groupings")
        case .shuffles: Setting(.count(0...1000), option: "--shuffles")
        case .seed: Setting(.seed, option: "--seed")
        case .replicates: Setting(.count(ReplicateCorpus.count), option: "--replicates")
        case .resample: Setting(.object, fields: Resampling.Keys.self)
        case .gate: Setting(RegressionCheck.toleranceConstraint)
        case .assignments: Setting(.flag)
        case .html: Setting(.flag, option: "--html")
        }
    }
}

extension CorpusSpec.CodingKeys: SchemaKey {
    /// A corpus option's values are those the corpora that take it declare (`DatasetRegistry.Entry.options`, the same
    /// wherever two take it); `constraint(in:)` reads the named corpus's.
    package var setting: Setting? {
        switch self {
        case .name: Setting(.oneOf(DatasetRegistry.entries.map(\.name) + [DatasetRegistry.file.name]), option: "--corpus")
        case .as: Setting(.fileName(names: "the corpus in results"))
        case .resample: Setting(.object, fields: Resampling.Keys.self)
        case .path: DatasetRegistry.file.options[self].map { Setting($0, option: "--corpus") }
        case .generator: DatasetRegistry.option(self).map { Setting($0, fields: SyntheticVectors.CodingKeys.self) }
        case .seed: DatasetRegistry.option(self).map { Setting($0, option: "--corpus-seed") }
        case .includeOutOfScope: DatasetRegistry.option(self).map { Setting($0, option: "--out-of-scope") }
        case .idColumn, .textColumn, .labelColumn, .split, .level, .intents, .perIntent, .minimumTopicSize, .maxItems:
            DatasetRegistry.option(self).map { Setting($0, option: "--" + stringValue.kebabCased) }
        }
    }

    /// The named corpus's declaration of the option, or `unavailable` naming the corpora that take it.
    package func constraint(in object: [String: Any]) -> Constraint? {
        guard ![.name, .as, .resample].contains(self), let entry = (object["name"] as? String).flatMap(DatasetRegistry.entry) else {
            return setting?.constraint
        }
        let takers = DatasetRegistry.corpora(taking: self).sorted().joined(separator: ", ")
        return entry.options[self] ?? .unavailable("does not apply to corpus '\(entry.name)' (only to \(takers))")
    }
}

extension SyntheticVectors.CodingKeys: SchemaKey {
    package var setting: Setting? {
        switch self {
        case .dimensions: Setting(.count(Validation.dimensions), option: "--dims")
        case .topicSizes: Setting(.list(.count(Validation.topicSize), distinct: false), option: "--topics")
        case .anisotropy, .noise: Setting(.interval(Validation.weight), option: "--\(stringValue)")
        case .anisotropySpread: Setting(.interval(Validation.weight), option: "--spread")
        case .topicStrength: Setting(.interval(Validation.weight), option: "--topic-strength")
        case .seed: Setting(.seed, option: "--seed")
        }
    }
}

extension ExperimentPlan.Encoder.CodingKeys: SchemaKey {
    package var setting: Setting? {
        switch self {
        case .model: Setting(.path, option: "--model")
        case .layers: Setting(.list(.count(Validation.layer), distinct: true), option: "--layer")
        case .embeddings: Setting(.path, option: "--embeddings")
        }
    }
}

extension Resampling.Keys: SchemaKey {
    package var setting: Setting? {
        switch self {
        case .scheme: Setting(.oneOf(Resampling.schemes))
        case .fraction: Setting(.above(0, atMost: 1))
        }
    }
}

extension ReplayPlan.Keys: SchemaKey {
    package var setting: Setting? {
        switch self {
        case .kind: Setting(.oneOf(["replay"]))
        case .name: Setting(.fileName(names: "the results folder"))
        case .description: Setting(.text)
        case .journals: Setting(.objects, fields: ReplayPlan.Journal.CodingKeys.self)
        case .launch: Setting(.count(ReplayPlan.launches))
        case .initial: Setting(.count(ReplayPlan.initialSaves))
        case .thresholds: Setting(.entries(kind: "threshold rule", forms: thresholdRuleRegistry.forms))
        case .policies: Setting(.entries(kind: "regrouping policy", forms: regroupPolicyRegistry.forms))
        case .shuffles: Setting(.count(1...1000), option: "--shuffles")
        case .seed: Setting(.seed)
        case .points: Setting(.count(2...100_000))
        }
    }
}

extension ReplayPlan.Journal.CodingKeys: SchemaKey {
    package var setting: Setting? {
        switch self {
        case .corpus: Setting(.object, fields: CorpusSpec.CodingKeys.self)
        case .order: Setting(.entry(kind: "order", forms: JournalOrder.forms))
        case .launch: Setting(.count(ReplayPlan.launches))
        case .initial: Setting(.count(ReplayPlan.initialSaves))
        case .embeddings: Setting(.path)
        }
    }
}

extension String {
    /// `perIntent` as `per-intent`: a field's name as a command-line option spells it.
    package var kebabCased: String {
        String(flatMap { $0.isUppercase ? ["-", Character($0.lowercased())] : [$0] })
    }
}
