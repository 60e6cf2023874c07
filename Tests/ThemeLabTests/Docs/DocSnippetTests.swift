import Foundation
import Testing
import ThemeLabCore
import ThemeLabMethods
import ThemeLabPairs

/// Swift shown in the docs cannot rot: every `swift` block of README.md and docs/*.md is the text between the markers
/// of a file in `DocSnippets/`, which is compiled with the tests; and the example grouping works.
@Suite struct DocSnippetTests {
    static let folder = DocExample.root + "/Tests/ThemeLabTests/Docs/DocSnippets"

    /// The text between `// snippet: begin` and `// snippet: end` of every snippet file.
    static func snippets() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder).sorted().map { name in
            let text = try String(contentsOfFile: "\(folder)/\(name)", encoding: .utf8)
            let lines = text.components(separatedBy: "\n")
            guard let b = lines.firstIndex(of: "// snippet: begin"), let e = lines.firstIndex(of: "// snippet: end"), b < e else {
                throw ThemeLabError.input("\(name): no snippet markers")
            }
            return lines[(b + 1)..<e].joined(separator: "\n")
        }
    }

    @Test func everySwiftBlockIsACompiledSnippet() throws {
        let compiled = try Self.snippets()
        var blocks = 0
        for page in DocExample.pages {
            for block in DocExample.blocks(of: page) where block.info == "swift" {
                blocks += 1
                let indent = block.body.first.map { $0.prefix { $0 == " " }.count } ?? 0
                let text = block.body.map { String($0.dropFirst(min(indent, $0.prefix { $0 == " " }.count))) }.joined(separator: "\n")
                #expect(compiled.contains(text), "\(page):\(block.line): a swift block that is not a snippet in DocSnippets/")
            }
        }
        #expect(blocks > 0)
    }

    @Test func theExampleGroupingGivesSingleLinkagesGroups() throws {
        var x = randomMatrix(rows: 12, cols: 8, seed: 3)
        for i in 0..<12 {
            for k in 0..<8 { x[i, k] *= 0.1 }
            x[i, i % 3] += 1
        }
        let unit = try EmbeddingSpace.raw.transform(x)
        let example = try ThresholdComponents.entry.make(RuleName("threshold-components"))
        let products = PassPlan(needs: example.needs(items: 12), exactHistogramPairLimit: 0).run(unit, labels: nil, engine: PairEngine())
        let request = GroupingRequest(target: .threshold(0.5), order: [], seed: 0)
        let labels = try example.groups(request, in: products).labels
        #expect(labels == (try SingleLinkageComponents().groups(request, in: products).labels))
        #expect(Set(try #require(labels)).count == 3)
    }
}
