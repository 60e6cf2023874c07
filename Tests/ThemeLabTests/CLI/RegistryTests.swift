import Foundation
import Testing
import ThemeLabCore
import ThemeLabCorpus
import ThemeLabMethods
import ThemeLabReport
import ThemeLabStudy

@testable import ThemeLabCLI

/// The registries are the one list of each extension point: every name they hold is in the help and the docs, every
/// example parses to a value that names itself the same way, and an unknown name is refused with the registry's forms.
@Suite struct RegistryTests {
    /// Every form of every space, rule and grouping, and every corpus name.
    static let registered: [String] =
        EmbeddingSpace.registry.forms + thresholdRuleRegistry.forms + groupingRegistry.forms + DatasetRegistry.entries.map(\.name)

    @Test func everyRegisteredNameIsInTheAnalyzeHelp() throws {
        let help = AnalyzeCommand.help(path: ["analyze"])
        for name in Self.registered {
            let listed = [" ", "(", "\n"].contains { before in
                [",", ")", " ", "\n", ".", ";"].contains { help.contains(before + name + $0) }
            }
            #expect(listed, "analyze --help does not list \(name)")
        }
    }

    @Test func docsMethodHoldsTheRegistryTables() throws {
        let page = try String(contentsOfFile: DocExample.root + "/docs/method.md", encoding: .utf8)
        let begin = "<!-- registry tables: begin -->\n"
        let end = "<!-- registry tables: end -->"
        let start = try #require(page.range(of: begin)?.upperBound, "docs/method.md has no registry tables")
        let stop = try #require(page.range(of: end, range: start..<page.endIndex)?.lowerBound)
        let expected = RegistryTables.markdown()
        if String(page[start..<stop]) != expected {
            try expected.write(toFile: "/tmp/registry-tables.md", atomically: true, encoding: .utf8)
        }
        #expect(String(page[start..<stop]) == expected, "docs/method.md's tables are not the registries' (see /tmp/registry-tables.md)")
    }

    @Test(arguments: EmbeddingSpace.registry.examples) func everySpaceExampleParsesAndNamesItself(_ name: String) throws {
        let space = try EmbeddingSpace(name: name)
        #expect(try EmbeddingSpace(name: space.description) == space)
    }

    @Test(arguments: thresholdRuleRegistry.examples) func everyRuleExampleParsesAndNamesItself(_ name: String) throws {
        let rule = try thresholdRule(named: name)
        #expect(try thresholdRule(named: rule.name).name == rule.name)
    }

    @Test(arguments: groupingRegistry.examples) func everyGroupingExampleParsesAndNamesItself(_ name: String) throws {
        let g = try grouping(named: name)
        #expect(try grouping(named: g.name).name == g.name)
    }

    @Test(arguments: regroupPolicyRegistry.examples) func everyPolicyExampleParsesAndNamesItself(_ name: String) throws {
        let policy = try regroupPolicy(named: name)
        #expect(try regroupPolicy(named: policy.name).name == policy.name)
    }

    /// The validator's wording, and a required parameter left out (`SettingsTests` generates the values outside each
    /// parameter).
    @Test(arguments: [
        ("percentile(120)", "percentile(120): p must be a number from 0 to 100, got 120"),
        ("hdbscan", "hdbscan: give the minimum cluster size m, hdbscan(m)"),
        ("leiden-sqrt(1,1001)", "leiden-sqrt(1,1001): the resolution γ must be above 0 and at most 1000, got 1001"),
    ])
    func argumentsOutsideTheirParametersAreRefusedNamingThem(_ text: String, _ message: String) {
        let parsers: [(String) throws -> Any] = [
            { try thresholdRule(named: $0) }, { try grouping(named: $0) }, { try regroupPolicy(named: $0) },
            { try EmbeddingSpace(name: $0) },
        ]
        let messages = parsers.compactMap { parse in errorMessage { _ = try parse(text) } }
        #expect(messages.contains(message), "\(messages)")
    }

    @Test func unknownNamesAreRefusedWithTheForms() {
        #expect(throws: ThemeLabError.invalid("unknown grouping 'nope' (expected \(groupingRegistry.forms.joined(separator: ", ")))")) {
            try grouping(named: "nope")
        }
        #expect(throws: ThemeLabError.invalid("mixture(3): takes no arguments")) { try thresholdRule(named: "mixture(3)") }
        let spaces = "raw, centred, centred-unnormalised, abtt, abtt(D), whiten, whiten(k), standardised"
        #expect(throws: ThemeLabError.invalid("unknown space 'raw2' (expected \(spaces))")) {
            try EmbeddingSpace(name: "raw2")
        }
    }
}

/// Each corpus's options are declared on its registry entry; the one validator refuses a value outside them and a field
/// the corpus does not take, naming the field, for every entry (as the conformance suite runs every rule and grouping).
@Suite struct CorpusRegistryTests {
    static let names = ([DatasetRegistry.file] + DatasetRegistry.entries).map(\.name)

    /// The refusal of `{"name": corpus, field: value}` in an experiment file by the validator of settings, or nil when it
    /// is accepted.
    static func refusal(_ corpus: String, _ field: String, _ value: Any) throws -> String? {
        var object: [String: Any] = ["name": corpus, field: value]
        if corpus == "file" && field != "path" { object["path"] = "x.jsonl" }
        return errorMessage {
            try ExperimentSchema.check(object, CorpusSpec.CodingKeys.self, at: "corpora[0]", topLevel: "", source: .experiment("x.json"))
        }
    }

    @Test(arguments: names) func everyDeclaredOptionIsCheckedAndEveryOtherRefused(_ name: String) throws {
        let entry = try #require(DatasetRegistry.entry(name))
        for key in CorpusSpec.CodingKeys.allCases where ![.name, .resample, .generator, .as].contains(key) {
            let field = "'corpora[0].\(key.stringValue)'"
            switch entry.options[key] {
            case nil:
                let words: [CorpusSpec.CodingKeys] = [.split, .level, .path, .idColumn, .textColumn, .labelColumn]
                let value: Any = words.contains(key) ? "test" : key == .includeOutOfScope ? true : 3
                let message = try #require(try Self.refusal(name, key.stringValue, value), "\(name) accepts \(key)")
                #expect(message.hasPrefix("x.json: \(field) does not apply to corpus '\(name)' (only to "), "\(message)")
            case .count(let r)?:
                #expect(try Self.refusal(name, key.stringValue, r.upperBound) == nil)
                #expect(
                    try Self.refusal(name, key.stringValue, r.upperBound + 1)
                        == "x.json: \(field) must be a whole number from \(r.lowerBound) to \(r.upperBound), got \(r.upperBound + 1)")
            case .oneOf(let words)?:
                #expect(try Self.refusal(name, key.stringValue, words[0]) == nil)
                #expect(try Self.refusal(name, key.stringValue, "nope")?.hasSuffix(", got 'nope'") == true)
            case .columnName?:
                #expect(try Self.refusal(name, key.stringValue, "body")?.contains("must be a column name") != true)
                #expect(
                    try Self.refusal(name, key.stringValue, "bo\ndy")
                        == "x.json: \(field) must be a column name: not empty, no control characters")
            default:
                continue
            }
        }
    }

    @Test func theCorporaTableNamesEveryOption() {
        let table = RegistryTables.corpora()
        #expect(
            table.contains(
                "| `clinc150` | intent utterances, 150 intents in 10 domains (intent or domain level) | `split` (train, val, test), "))
        #expect(table.contains("`maxItems` (2…10000000)"))
    }
}

/// The memory preflight reads what each rule and grouping declares it needs (hand-worked bytes).
@Suite struct MemoryNeedTests {
    @Test func eachRuleAndGroupingCountsWhatItAsksThePassToGather() throws {
        var settings = AnalysisSettings()
        settings.spaces = [.centred, .whiten(components: nil)]
        settings.rules = [try thresholdRule(named: "knn-median(10)"), try thresholdRule(named: "otsu")]
        settings.groupings = [try grouping(named: "leiden(10)"), try grouping(named: "average")]
        let needs = Validation.memoryNeeds(settings, items: 1000, dimensions: 384, corpus: "c")
        let byField = Dictionary(uniqueKeysWithValues: needs.map { ($0.field, ($0.bytes, $0.what)) })
        #expect(byField["spaces[1]"]?.0 == Double(3 * 8 * 384 * 384))
        // 10 similarities and item numbers per item, in two workers and the merge: 24 · 10 · 1000 bytes.
        #expect(byField["thresholds[0]"]?.0 == 240_000 && byField["thresholds[1]"] == nil)
        #expect(byField["groupings[0]"]?.0 == 480_000)
        #expect(byField["groupings[0]"]?.1 == "leiden(10)'s 10 neighbours of each of 1000 items and the 10-nearest-neighbour graph")
        // The condensed matrix: N(N − 1)/2 Float32s.
        #expect(byField["groupings[1]"]?.0 == Double(4 * 1000 * 999 / 2))
    }
}
