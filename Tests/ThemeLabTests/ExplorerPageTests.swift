import Foundation
import Testing

@testable import ThemeLabCLI
@testable import ThemeLabCore
@testable import ThemeLabReport
@testable import ThemeLabStudy

/// The threshold explorer page opened in a real browser (headless chromium): its numbers are the harness's, the texts it
/// shows stay text, it asks the network for nothing, and every view draws.
@Suite(.serialized, .enabled(if: HeadlessChromium.path != nil || HeadlessChromium.mustRun, HeadlessChromium.skipReason))
struct ExplorerPageTests {
    /// What the page's `#check=1` computes: per corpus and space, each rule's cuts, the leader's grid, the fixed partitions.
    struct PageCheck: Decodable {
        struct Score: Decodable {
            var groups: Int
            var singletons: Int
            var ari: Double?
            var pairF1: Double?
        }
        struct Rule: Decodable {
            var rule: String
            var value: Double
            var components: Score
            var average: Score?
        }
        struct Leader: Decodable {
            var threshold: Double
            var rule: String?
            var groups: Int
            var ari: Double?
        }
        struct Fixed: Decodable {
            var grouping: String
            var groups: Int
            var ari: Double?
        }
        struct Space: Decodable {
            var space: String
            var rules: [Rule]
            var leader: [Leader]
            var fixed: [Fixed]
        }
        var name: String
        var spaces: [Space]
    }

    /// What the page's `#state` says of the view at the cursor.
    struct PageState: Decodable {
        var space: String
        var grouping: String
        var t: Double
        var numbers: [String: PageCheck.Score]
        var sentinel: String
    }

    static let groupings = "components,average,leader,hdbscan(4),average-stability"

    /// A labelled corpus of 150 items in 11 uneven topics, its vectors, and the analysis JSON and page of it.
    static func analysed(_ folder: String) throws -> (json: AnalysisResults, page: String) {
        let synth = CLI.run([
            "synth", "--out-corpus", folder + "/c.jsonl", "--out-embeddings", folder + "/x.npy", "--dims", "48",
            "--topics", "40,30,20,15,12,10,8,6,4,3,2", "--noise", "0.9", "--seed", "5",
        ])
        try #require(synth.status == 0, "\(synth.stderr)")
        let common = ["analyze", "--corpus", folder + "/c.jsonl", "--embeddings", folder + "/x.npy", "--groupings", groupings]
        let json = CLI.run(common + ["--json"])
        try #require(json.status == 0, "\(json.stderr)")
        let page = CLI.run(common + ["--html", folder + "/page.html"])
        try #require(page.status == 0, "\(page.stderr)")
        return (try JSONOutput.decode(AnalysisResults.self, from: Data(json.stdout.utf8)), folder + "/page.html")
    }

    /// At every rule's threshold the page's components and average-linkage cuts have the CLI's group counts and ARI
    /// (within 1e-12), the leader at each grid point has the ARI of the CLI's leader ceiling curve there (and the CLI's
    /// groups at the rules' values), and each self-cutting grouping has the CLI's groups and ARI.
    @Test func thePageNumbersAreTheHarnessNumbers() throws {
        let folder = temporaryFolder()
        let (cli, page) = try Self.analysed(folder)
        let check = try HeadlessChromium.json([PageCheck].self, of: "check", in: HeadlessChromium.dumpDOM(page, fragment: "check=1"))
        let analysis = try #require(cli.analyses.first)
        let pageSpaces = try #require(check.first).spaces
        #expect(pageSpaces.map(\.space) == analysis.spaces.map(\.space.description))
        var compared = 0
        for (s, p) in zip(analysis.spaces, pageSpaces) {
            #expect(p.rules.count == s.thresholds.filter { $0.value != nil }.count)
            for rule in p.rules {
                #expect(rule.value == s.thresholds.first { $0.rule.name == rule.rule }?.value)
                for (grouping, score) in [("components", rule.components), ("average", rule.average)] {
                    let row = try #require(s.groupings.first { $0.grouping.name == grouping && $0.rule?.name == rule.rule })
                    let score = try #require(score)
                    #expect(score.groups == row.groups, "\(s.space) \(grouping) at \(rule.rule)")
                    let ari = try #require(score.ari)
                    #expect(abs(ari - row.recovery!.ari) <= 1e-12, "\(s.space) \(grouping) at \(rule.rule)")
                    compared += 1
                }
            }
            let curve = try #require(s.ceilings?.first { $0.grouping.name == "leader" }?.curve)
            #expect(Set(p.leader.map(\.threshold)) == Set(curve.map(\.threshold)))
            for point in p.leader {
                let (expected, ari) = (try #require(curve.first { $0.threshold == point.threshold }?.ari), try #require(point.ari))
                #expect(abs(ari - expected) <= 1e-12, "\(s.space) leader at \(point.threshold)")
                if let rule = point.rule, let row = s.groupings.first(where: { $0.grouping.name == "leader" && $0.rule?.name == rule }) {
                    #expect(point.groups == row.groups)
                }
                compared += 1
            }
            for fixed in p.fixed where ["hdbscan(4)", "average-stability"].contains(fixed.grouping) {
                let row = try #require(s.groupings.first { $0.grouping.name == fixed.grouping })
                let ari = try #require(fixed.ari)
                #expect(fixed.groups == row.groups && abs(ari - row.recovery!.ari) <= 1e-12, "\(fixed.grouping)")
                compared += 1
            }
            #expect(Set(p.fixed.map(\.grouping)).isSuperset(of: ["hdbscan(4)", "average-stability"]))
        }
        #expect(compared > 60)
    }

    /// The cursor set in the address: the page shows, for that threshold, the CLI's figures of each grouping.
    @Test func theCursorInTheAddressShowsTheHarnessNumbersThere() throws {
        let folder = temporaryFolder()
        let (cli, page) = try Self.analysed(folder)
        let space = try #require(cli.analyses.first?.space(.raw))
        let rule = try #require(space.thresholds.first { $0.rule.name == "otsu" })
        let t = try #require(rule.value)
        let dom = try HeadlessChromium.dumpDOM(page, fragment: "c=0&space=raw&g=average&t=\(t)")
        let state = try HeadlessChromium.json(PageState.self, of: "state", in: dom)
        #expect(state.space == "raw" && state.grouping == "average" && state.t == t && state.sentinel == "undefined")
        for grouping in ["components", "average"] {
            let row = try #require(space.groupings.first { $0.grouping.name == grouping && $0.rule == rule.rule })
            let shown = try #require(state.numbers[grouping])
            let (ari, f1) = (try #require(shown.ari), try #require(shown.pairF1))
            #expect(shown.groups == row.groups && abs(ari - row.recovery!.ari) <= 1e-12, "\(grouping)")
            #expect(abs(f1 - row.recovery!.pairF1!) <= 1e-12, "\(grouping)")
        }
        let leader = try #require(space.groupings.first { $0.grouping.name == "leader" && $0.rule == rule.rule })
        #expect(state.numbers["leader"]?.groups == leader.groups)
    }
}
