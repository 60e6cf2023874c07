import Foundation
import Testing
import ThemeLabCore
import ThemeLabCorpus
import ThemeLabMethods
import ThemeLabReport

@testable import ThemeLabCLI

/// The registries are the one list of each extension point: every name they hold is in the help and the docs, every
/// example parses to a value that names itself the same way, and an unknown name is refused with the registry's forms.
@Suite struct RegistryTests {
    /// Every form of every space, rule and grouping, and every corpus name.
    static let registered: [String] =
        EmbeddingSpace.registry.forms + thresholdRuleRegistry.forms + groupingRegistry.forms + DatasetRegistry.entries.map(\.name)

    @Test func everyRegisteredNameIsInTheAnalyzeHelp() throws {
        let help = try #require(ThemeLabCLI.commands["analyze"]).help
        let listed = Set(
            help.split(whereSeparator: { " \n".contains($0) }).map { $0.trimmingCharacters(in: CharacterSet(charactersIn: ",;")) })
        for name in Self.registered { #expect(listed.contains(name), "analyze --help does not list \(name)") }
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

    @Test func unknownNamesAreRefusedWithTheForms() {
        #expect(throws: ThemeLabError.usage("unknown grouping 'nope' (expected \(groupingRegistry.forms.joined(separator: ", ")))")) {
            try grouping(named: "nope")
        }
        #expect(throws: ThemeLabError.usage("mixture(3): takes no arguments")) { try thresholdRule(named: "mixture(3)") }
        let spaces = "raw, centred, centred-unnormalised, abtt, abtt(D), whiten, whiten(k)"
        #expect(throws: ThemeLabError.usage("unknown space 'raw2' (expected \(spaces))")) {
            try EmbeddingSpace(name: "raw2")
        }
    }
}
