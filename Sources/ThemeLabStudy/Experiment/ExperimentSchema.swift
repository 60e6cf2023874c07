import Foundation
import ThemeLabCore
import ThemeLabCorpus
import ThemeLabEncoder
import ThemeLabMeasures
import ThemeLabMethods
import ThemeLabPairs

/// A field of an experiment file, declared once, on the `CodingKeys` of the type that decodes it. The refusal of
/// unknown fields, the whole-number check, the command-line spelling in messages and the corpora a corpus field
/// applies to all read this one declaration.
package protocol SchemaKey: CodingKey, CaseIterable {
    /// The command-line option that sets it, when one does.
    var option: String? { get }
    /// Whether it holds a whole number or a list of them.
    var holdsWholeNumbers: Bool { get }
    /// The fields of the object it holds (or of each object of its list).
    var fields: (any SchemaKey.Type)? { get }
}

extension SchemaKey {
    package var option: String? { nil }
    package var holdsWholeNumbers: Bool { false }
    package var fields: (any SchemaKey.Type)? { nil }
    package static var names: [String] { allCases.map(\.stringValue) }
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

    /// `data` (the JSON `object`, read from `path`) decoded as `T` after refusing fields `keys` does not declare;
    /// a refusal names the file and the field.
    package static func decode<T: Decodable>(
        _ type: T.Type, _ data: Data, _ object: [String: Any], path: String, keys: any SchemaKey.Type, topLevel: String
    ) throws -> T {
        let source = ParameterSource.experiment(path)
        try refuseUnknownFields(object, keys, at: "", topLevel: topLevel, source: source)
        do { return try JSONDecoder().decode(T.self, from: data) } catch let e as FieldError {
            throw source.error(e.path, e.message)
        } catch {
            try refuseFractionalCounts(object, keys, source: source)
            throw ThemeLabError.input("\(path): \(JSONOutput.describe(error))")
        }
    }

    /// Refuses the first field of `object` (at `path`; "" for the top level, called `topLevel`) that `keys` does not
    /// declare, then does the same inside every object a declared field holds.
    package static func refuseUnknownFields(
        _ object: [String: Any], _ keys: any SchemaKey.Type, at path: String, topLevel: String, source: ParameterSource
    ) throws {
        for name in object.keys.sorted() {
            let field = path.isEmpty ? name : "\(path).\(name)"
            guard let key = keys.init(stringValue: name) else {
                let expected = keys.names.sorted().joined(separator: ", ")
                throw source.error(field, "is not a field of \(path.isEmpty ? topLevel : "this object") (expected one of \(expected))")
            }
            guard let nested = key.fields else { continue }
            for (inner, value) in elements(object[name], at: field) {
                if let value = value as? [String: Any] {
                    try refuseUnknownFields(value, nested, at: inner, topLevel: topLevel, source: source)
                }
            }
        }
    }

    /// After a failed decode: a whole-number field given 1.5 or 1e30, which Foundation's decoder reports only as
    /// "not valid JSON", named here.
    package static func refuseFractionalCounts(
        _ object: [String: Any], _ keys: any SchemaKey.Type, at path: String = "", source: ParameterSource
    )
        throws
    {
        for (name, value) in object.sorted(by: { $0.key < $1.key }) {
            guard let key = keys.init(stringValue: name) else { continue }
            let field = path.isEmpty ? name : "\(path).\(name)"
            for (inner, v) in elements(value, at: field) {
                if key.holdsWholeNumbers, let n = v as? NSNumber, !(n is Bool) {
                    let d = n.doubleValue
                    let fits = name == "seed" ? (0..<0x1p64).contains(d) : abs(d) < 0x1p63
                    if d.rounded() != d || !fits { throw source.error(inner, "must be a whole number, got \(d)") }
                } else if let nested = key.fields, let v = v as? [String: Any] {
                    try refuseFractionalCounts(v, nested, at: inner, source: source)
                }
            }
        }
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
    package var option: String? {
        switch self {
        case .corpora: "--corpus"
        case .spaces: "--space"
        case .thresholds, .groupings, .shuffles, .seed, .replicates: "--\(rawValue)"
        default: nil
        }
    }
    package var holdsWholeNumbers: Bool { [.shuffles, .seed, .replicates].contains(self) }
    package var fields: (any SchemaKey.Type)? {
        switch self {
        case .corpora: CorpusSpec.CodingKeys.self
        case .encoders: ExperimentPlan.Encoder.CodingKeys.self
        case .resample: Resampling.Keys.self
        default: nil
        }
    }
}

extension CorpusSpec.CodingKeys: SchemaKey {
    package var option: String? {
        switch self {
        case .name, .path: "--corpus"
        case .idColumn: "--id-column"
        case .textColumn: "--text-column"
        case .labelColumn: "--label-column"
        case .split, .level, .intents: "--\(stringValue)"
        case .perIntent: "--per-intent"
        case .includeOutOfScope: "--out-of-scope"
        case .seed: "--corpus-seed"
        case .minimumTopicSize: "--minimum-topic-size"
        case .maxItems: "--max-items"
        case .generator, .resample, .as: nil
        }
    }
    package var holdsWholeNumbers: Bool { [.intents, .perIntent, .seed, .minimumTopicSize, .maxItems].contains(self) }
    package var fields: (any SchemaKey.Type)? {
        switch self {
        case .generator: SyntheticVectors.CodingKeys.self
        case .resample: Resampling.Keys.self
        default: nil
        }
    }
}

extension SyntheticVectors.CodingKeys: SchemaKey {
    package var option: String? {
        switch self {
        case .dimensions: "--dims"
        case .topicSizes: "--topics"
        case .anisotropy, .noise, .seed: "--\(stringValue)"
        case .anisotropySpread: "--spread"
        case .topicStrength: "--topic-strength"
        }
    }
    package var holdsWholeNumbers: Bool { [.dimensions, .topicSizes, .seed].contains(self) }
}

extension ExperimentPlan.Encoder.CodingKeys: SchemaKey {
    package var option: String? {
        switch self {
        case .model, .embeddings: "--\(stringValue)"
        case .layers: "--layer"
        }
    }
    package var holdsWholeNumbers: Bool { self == .layers }
}

extension Resampling.Keys: SchemaKey {}

extension ReplayPlan.Keys: SchemaKey {
    package var holdsWholeNumbers: Bool { [.launch, .initial, .shuffles, .seed, .points].contains(self) }
    package var fields: (any SchemaKey.Type)? { self == .journals ? ReplayPlan.Journal.CodingKeys.self : nil }
}

extension ReplayPlan.Journal.CodingKeys: SchemaKey {
    package var holdsWholeNumbers: Bool { self == .launch || self == .initial }
    package var fields: (any SchemaKey.Type)? { self == .corpus ? CorpusSpec.CodingKeys.self : nil }
}
