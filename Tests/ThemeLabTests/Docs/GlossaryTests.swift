import Foundation
import Testing

@testable import ThemeLabReport

/// docs/glossary.md holds every term a reader meets first: each link to it names one of its entries, and each entry
/// says where the term is defined in depth, on a page and at a heading that exist.
@Suite struct GlossaryTests {
    static let glossary = "docs/glossary.md"

    /// A heading's anchor as GitHub writes it: lower case, letters, digits, spaces, `-` and `_` kept, spaces as `-`.
    static func anchor(_ heading: String) -> String {
        String(
            heading.lowercased().unicodeScalars.filter { CharacterSet.alphanumerics.contains($0) || " -_".unicodeScalars.contains($0) }
                .map { $0 == " " ? "-" : Character($0) })
    }

    /// The anchors of a page's headings.
    static func anchors(_ page: String) throws -> Set<String> {
        let text = try String(contentsOfFile: DocExample.root + "/" + page, encoding: .utf8)
        return Set(
            text.split(separator: "\n").filter { $0.hasPrefix("#") }.map {
                anchor(String($0.drop { $0 == "#" }).trimmingCharacters(in: .whitespaces))
            })
    }

    /// The Markdown link targets of `text`: `(target)` after `]`.
    static func links(_ text: String) -> [String] {
        let pattern = try! NSRegularExpression(pattern: #"\]\(([^)\s]+)\)"#)
        return pattern.matches(in: text, range: NSRange(text.startIndex..., in: text)).map {
            String(text[Range($0.range(at: 1), in: text)!])
        }
    }

    @Test func everyLinkToTheGlossaryNamesOneOfItsEntries() throws {
        let entries = try Self.anchors(Self.glossary)
        var texts = try DocExample.pages.map { ($0, try String(contentsOfFile: DocExample.root + "/" + $0, encoding: .utf8)) }
        texts.append(("REPORT.md's opening lines", try ReportTests.committedReport().openingLines().joined(separator: "\n")))
        var linked = 0
        for (page, text) in texts {
            for target in Self.links(text) where target.contains("glossary.md#") {
                linked += 1
                let entry = String(target.split(separator: "#").last!)
                #expect(entries.contains(entry), "\(page) links \(target), which is no entry of \(Self.glossary)")
            }
        }
        #expect(linked >= 20, "the README and REPORT.md link their terms to the glossary")
    }

    @Test func everyEntrySaysWhereTheTermIsDefinedInDepth() throws {
        let text = try String(contentsOfFile: DocExample.root + "/" + Self.glossary, encoding: .utf8)
        let entries = text.components(separatedBy: "\n### ").dropFirst()
        #expect(entries.count >= 40)
        #expect(entries.first?.hasPrefix("The journal method\n") == true, "the method under test is the first term")
        for entry in entries {
            let name = entry.prefix { $0 != "\n" }
            let pages = Self.links(entry).filter { !$0.hasPrefix("#") }
            #expect(!pages.isEmpty, "\(name): no link to where it is defined in depth")
            for target in pages {
                let parts = target.split(separator: "#", maxSplits: 1).map(String.init)
                let page = "docs/" + parts[0]
                #expect(FileManager.default.fileExists(atPath: DocExample.root + "/" + page), "\(name): \(target) names no file")
                if parts.count == 2 { #expect(try Self.anchors(page).contains(parts[1]), "\(name): \(page) has no heading #\(parts[1])") }
            }
        }
    }
}
