import Foundation
import Testing

@testable import ThemeLabCLI
@testable import ThemeLabCore
@testable import ThemeLabPairs
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
        struct AtHeight: Decodable {
            var threshold: Double
            var groups: Int
            var ari: Double?
        }
        struct Space: Decodable {
            var space: String
            var atHeights: [String: [AtHeight]]
            /// The ARI-against-threshold curves the page draws: [height, ARI] pairs.
            var curves: [String: [[Double]]]
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
        /// Each listed group's words, with the id of its first entry.
        var words: [GroupWords]
        struct GroupWords: Decodable {
            var first: String
            var words: [String]
        }
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
            compared += try Self.compareAtMergeHeights(s, p)
            // The page's leader grid (24 quantiles and the rules' values) is not the ceiling's (every breakpoint, or 256
            // quantiles): where they meet the ARIs agree, and at a rule's value the page's cut is the analysis's row.
            let curve = try #require(s.ceilings?.first { $0.grouping.name == "leader" }?.curve)
            for point in p.leader {
                let ari = try #require(point.ari)
                if let expected = curve.first(where: { $0.threshold == point.threshold })?.ari {
                    #expect(abs(ari - expected) <= 1e-12, "\(s.space) leader at \(point.threshold)")
                }
                if let rule = point.rule, let row = s.groupings.first(where: { $0.grouping.name == "leader" && $0.rule?.name == rule }) {
                    #expect(point.groups == row.groups && abs(ari - row.recovery!.ari) <= 1e-12, "\(s.space) leader at \(rule)")
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

    /// At each merge height the CLI's components and average-linkage ceiling curves trace (a pair at the threshold
    /// joins), the page's cut there and the curve it draws have the CLI's ARI; returns how many points were compared.
    static func compareAtMergeHeights(_ s: SpaceAnalysis, _ p: PageCheck.Space) throws -> Int {
        var compared = 0
        for grouping in ["components", "average"] {
            let curve = try #require(s.ceilings?.first { $0.grouping.name == grouping }?.curve)
            let cuts = try #require(p.atHeights[grouping])
            let drawn = try #require(p.curves[grouping])
            for point in curve {
                let cut = try #require(cuts.first { $0.threshold == point.threshold }, "\(grouping) at \(point.threshold)")
                let line = try #require(drawn.first { $0[0] == point.threshold })
                let ari = try #require(cut.ari)
                #expect(abs(ari - point.ari) <= 1e-12 && abs(line[1] - point.ari) <= 1e-12, "\(s.space) \(grouping) at \(point.threshold)")
                compared += 1
            }
        }
        return compared
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

    /// The words the page gives each group at the cursor are the harness's (`ClassTFIDF`, as the assignments carry them):
    /// the synthetic corpus's texts rewritten from topic words, shared words and stop words, cut at each rule's threshold.
    @Test func eachGroupsWordsAreTheHarnessWords() throws {
        let folder = temporaryFolder()
        _ = try Self.analysed(folder)
        let (topicWords, shared) = (["river", "orbit", "violin", "harvest", "glacier", "ledger", "pollen", "circuit"], ["today", "quiet"])
        let lines = try String(contentsOfFile: folder + "/c.jsonl", encoding: .utf8).split(separator: "\n").enumerated().map { i, line in
            var item = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            let topic = Int((item["label"] as? String ?? "").split(separator: "-").last ?? "")! % topicWords.count
            item["text"] =
                "The \(topicWords[topic]) and the \(topicWords[(topic + i % 3) % topicWords.count]) were \(shared[i % 2]) again, \(i % 5)x"
            return String(decoding: try JSONSerialization.data(withJSONObject: item, options: [.sortedKeys]), as: UTF8.self)
        }
        try AtomicFile.write(lines.joined(separator: "\n") + "\n", to: folder + "/c.jsonl")
        let common = ["analyze", "--corpus", folder + "/c.jsonl", "--embeddings", folder + "/x.npy", "--groupings", "components,average"]
        let json = CLI.run(common + ["--json"])
        try #require(json.status == 0, "\(json.stderr)")
        let written = CLI.run(common + ["--html", folder + "/words.html", "--assignments", folder + "/a.jsonl"])
        try #require(written.status == 0, "\(written.stderr)")
        let space = try #require(try JSONOutput.decode(AnalysisResults.self, from: Data(json.stdout.utf8)).analyses.first?.space(.centred))
        let rows = try String(contentsOfFile: folder + "/a.jsonl", encoding: .utf8).split(separator: "\n").map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        var compared = 0
        for rule in space.thresholds.compactMap({ r in r.value.map { (r.rule.name, $0) } }) {
            for grouping in ["components", "average"] {
                let cell = rows.filter {
                    $0["space"] as? String == "centred" && $0["rule"] as? String == rule.0 && $0["grouping"] as? String == grouping
                }
                let words = Dictionary(cell.map { ($0["id"] as? String ?? "", $0["keywords"] as? [String] ?? []) }) { a, _ in a }
                let state = try HeadlessChromium.json(
                    PageState.self, of: "state",
                    in: HeadlessChromium.dumpDOM(folder + "/words.html", fragment: "space=centred&g=\(grouping)&t=\(rule.1)"))
                for group in state.words {
                    #expect(group.words == words[group.first], "\(rule.0) \(grouping): group of \(group.first)")
                    compared += group.words.isEmpty ? 0 : 1
                }
            }
        }
        #expect(compared > 20)
    }

    /// Payloads that would run script or make markup if a text were set as HTML; the page shows them as text.
    static let payloads = [
        "<script>window.themelabSentinel=1</script>", "</script><script>window.themelabSentinel=2</script>",
        "\"><img src=x onerror=\"window.themelabSentinel=3\">", "javascript:window.themelabSentinel=4",
        "left \u{202E}thgir\u{202C} and \u{2066}isolated\u{2069}",
    ]

    /// Entry texts, ids and labels that are markup, script, links or bidi controls are rendered literally: the page's
    /// DOM holds them as text (escaped in the dump), holds no element or link they would make, shows each bidi control
    /// as ⟨U+XXXX⟩, and the global they would set stays unset.
    @Test func hostileTextsAreShownAsText() throws {
        let folder = temporaryFolder()
        var lines: [String] = []
        for i in 0..<15 {
            let p = Self.payloads[i % Self.payloads.count]
            let item: [String: String] = ["id": "\(p) #\(i)", "text": "entry \(i): \(p)", "label": i < 8 ? p : "plain <b>label</b>"]
            lines.append(String(decoding: try JSONSerialization.data(withJSONObject: item, options: [.sortedKeys]), as: UTF8.self))
        }
        try (lines.joined(separator: "\n") + "\n").write(toFile: folder + "/hostile.jsonl", atomically: true, encoding: .utf8)
        try NPY.write(randomMatrix(rows: 15, cols: 6, seed: 9), to: folder + "/x.npy")
        let run = CLI.run([
            "analyze", "--corpus", folder + "/hostile.jsonl", "--embeddings", folder + "/x.npy", "--html", folder + "/page.html",
        ])
        try #require(run.status == 0, "\(run.stderr)")
        let dom = try HeadlessChromium.dumpDOM(folder + "/page.html", fragment: "t=-1&q=entry")
        let state = try HeadlessChromium.json(PageState.self, of: "state", in: dom)
        #expect(state.sentinel == "undefined")
        // The embedded data is the one script element with the payloads in it, every < escaped; the rest is the DOM.
        let start = try #require(dom.range(of: "<script type=\"application/json\" id=\"data\">"))
        let end = try #require(dom[start.upperBound...].range(of: "</script>"))
        let data = String(dom[start.upperBound..<end.lowerBound])
        #expect(!data.contains("<") && data.contains("\\u003cscript\\u003ewindow.themelabSentinel=1"))
        let shown = String(dom[..<start.lowerBound]) + String(dom[end.upperBound...])
        #expect(shown.contains("entry 0: &lt;script&gt;window.themelabSentinel=1&lt;/script&gt;"))
        #expect(shown.contains("&lt;/script&gt;&lt;script&gt;window.themelabSentinel=2&lt;/script&gt;"))
        #expect(shown.contains("\"&gt;&lt;img src=x onerror=\"window.themelabSentinel=3\"&gt;"))
        #expect(shown.contains("javascript:window.themelabSentinel=4") && shown.contains("plain &lt;b&gt;label&lt;/b&gt;"))
        #expect(shown.contains("left ⟨U+202E⟩thgir⟨U+202C⟩ and ⟨U+2066⟩isolated⟨U+2069⟩"))
        for made in ["<img", "<b>", "href=", "\u{202E}", "\u{2066}"] { #expect(!shown.contains(made), "\(made)") }
        #expect(shown.components(separatedBy: "<script").count == 2, "the page's one script")
    }

    /// The page asks for nothing: its policy allows no source but its own script and style blocks, by hash (the browser
    /// running the script proves the hash is right), and no URL of any scheme a request could use appears in it.
    @Test func thePageMakesNoRequest() throws {
        let folder = temporaryFolder()
        let (_, page) = try Self.analysed(folder)
        let html = try String(contentsOfFile: page, encoding: .utf8)
        let meta = try #require(html.range(of: "<meta http-equiv=\"Content-Security-Policy\" content=\""))
        let policy = html[meta.upperBound...].prefix { $0 != "\"" }
        let directives = policy.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
        #expect(directives.first == "default-src 'none'")
        #expect(directives.contains { $0.hasPrefix("script-src 'sha256-") && !$0.contains("unsafe") && !$0.contains(" http") })
        #expect(directives.contains { $0.hasPrefix("style-src 'sha256-") && !$0.contains("unsafe") })
        for scheme in ["http:", "https:", "ws:", "wss:", "ftp:", "src=", "href=", "url(", "@import"] {
            #expect(!html.lowercased().contains(scheme), "\(scheme)")
        }
        #expect(html.range(of: #"//[A-Za-z0-9-]+\.[A-Za-z]{2,}"#, options: .regularExpression) == nil, "a scheme-relative URL")
        let state = try HeadlessChromium.json(PageState.self, of: "state", in: HeadlessChromium.dumpDOM(page, fragment: ""))
        #expect(state.grouping == "components" && !state.numbers.isEmpty, "the script ran under the policy")
    }

    /// Same inputs → the same page, but for provenance's time stamp.
    @Test func thePageIsTheSameBytesForTheSameInputs() throws {
        let folder = temporaryFolder()
        let (_, page) = try Self.analysed(folder)
        let again = CLI.run([
            "analyze", "--corpus", folder + "/c.jsonl", "--embeddings", folder + "/x.npy", "--groupings", Self.groupings,
            "--html", folder + "/again.html",
        ])
        try #require(again.status == 0)
        func stamped(_ path: String) throws -> String {
            try String(contentsOfFile: path, encoding: .utf8).replacingOccurrences(
                of: #""createdAt":"[^"]*""#, with: "", options: .regularExpression
            ).replacingOccurrences(of: "again.html", with: "page.html")
        }
        #expect(try stamped(page) == stamped(folder + "/again.html"))
    }

    /// Colours and the share of non-white pixels of a PNG (scripts/png-colours, zlib from Python's standard library).
    struct PNGColours: Decodable {
        var width: Int
        var height: Int
        var colours: Int
        var nonWhite: Double

        init(_ png: String) throws {
            let script = try #require(ProjectFiles.locate("scripts/png-colours"))
            let r = try CLI.launch(executable: "/usr/bin/env", ["python3", script, png], environment: ProcessInfo.processInfo.environment)
            guard r.status == 0 else { throw HeadlessChromium.Failure("png-colours: \(r.stderr)") }
            self = try JSONDecoder().decode(Self.self, from: Data(r.stdout.utf8))
        }
    }

    /// Every kind of view (each space, each grouping at the cursor, a self-cutting grouping, a search) renders to a
    /// PNG that is not blank: many colours, and ink on more than 3% of it; an empty page gives one colour and no ink.
    @Test func everyViewRendersToAPictureThatIsNotBlank() throws {
        let folder = temporaryFolder()
        let (_, page) = try Self.analysed(folder)
        let views = [
            "space=centred&g=components", "space=raw&g=average&t=0.3", "space=centred&g=leader&q=synthetic-1",
            "space=centred&g=fixed:hdbscan(4)", "space=raw&g=fixed:average-stability",
        ]
        for (k, view) in views.enumerated() {
            let png = "\(folder)/view-\(k).png"
            try HeadlessChromium.screenshot(page, fragment: view, to: png, width: 1000, height: 900)
            let picture = try PNGColours(png)
            #expect(picture.width == 1000 && picture.colours > 50 && picture.nonWhite > 0.03, "\(view): \(picture)")
        }
        try "<!DOCTYPE html><title>empty</title>".write(toFile: folder + "/empty.html", atomically: true, encoding: .utf8)
        try HeadlessChromium.screenshot(folder + "/empty.html", fragment: "", to: folder + "/empty.png", width: 1000, height: 900)
        let empty = try PNGColours(folder + "/empty.png")
        #expect(empty.colours == 1 && empty.nonWhite == 0)
    }
}

/// What the explorer page is built from, without a browser.
@Suite struct ExplorerDataTests {
    /// The central entries kept per merge are those `centralEntries` (GroupMembers) finds in the group the merge makes,
    /// cut from scratch: 40 seeded merges on 30 items.
    @Test func eachMergesCentralEntriesAreThoseOfItsGroup() {
        let x = try! EmbeddingSpace.raw.transform(randomMatrix(rows: 30, cols: 6, seed: 4)) { "item \($0)" }
        var rng = SeededRandom(seed: 8)
        let merges = (0..<40).map { _ in (a: Int(rng.next() % 30), b: Int(rng.next() % 30)) }
        let kept = centralEntries(alongMerges: merges, vectors: x, count: 3)
        var sets = UnionFind(count: 30)
        var checked = 0
        for (k, m) in merges.enumerated() {
            guard sets.union(m.a, m.b) else {
                #expect(kept[k].isEmpty)
                continue
            }
            let labels = UnionFind.groups(of: 30, joining: merges[...k].map { ($0.a, $0.b) })
            let group = labels[m.a]
            let members = labels.indices.filter { labels[$0] == group }
            let expected = members.count > 3 ? centralEntries(labels, vectors: x, count: 3)[group]! : members
            #expect(kept[k].map(Int.init) == expected, "merge \(k)")
            checked += 1
        }
        #expect(checked > 15)
    }

    /// An experiment that asks for the page gets NAME.html beside NAME.json, whose settings say so; `ablate --html` does
    /// the same for a file that does not ask; a shard refuses it (the page needs the whole run).
    @Test func ablateWritesThePageWhenAsked() throws {
        let folder = temporaryFolder()
        try NPY.write(randomMatrix(rows: 20, cols: 5, seed: 2), to: folder + "/x.npy")
        let items = (0..<20).map { #"{"id":"i\#($0)","text":"entry \#($0)","label":"t\#($0 % 3)"}"# }
        try (items.joined(separator: "\n") + "\n").write(toFile: folder + "/c.jsonl", atomically: true, encoding: .utf8)
        for (name, tail) in [("page", #","html":true}"#), ("plain", "}")] {
            let plan = #"{"name":"\#(name)","corpora":[{"name":"file","path":"c.jsonl"}],"encoders":[{"embeddings":"x.npy"}],"shuffles":0"#
            try (plan + tail).write(toFile: "\(folder)/\(name).json", atomically: true, encoding: .utf8)
        }
        #expect(CLI.run(["ablate", folder + "/page.json", "--out", folder + "/out"]).status == 0)
        #expect(CLI.run(["ablate", folder + "/plain.json", "--out", folder + "/out"]).status == 0)
        #expect(CLI.run(["ablate", folder + "/plain.json", "--html", "--out", folder + "/flag"]).status == 0)
        for (root, name, page) in [("out", "page", true), ("out", "plain", false), ("flag", "plain", true)] {
            let stem = "\(folder)/\(root)/\(name)/\(name)"
            #expect(FileManager.default.fileExists(atPath: stem + ".html") == page, "\(root)/\(name)")
            let results = try JSONOutput.read(AnalysisResults.self, path: stem + ".json", expected: "results")
            #expect((results.settings.html == true) == page)
        }
        let shard = CLI.run(["ablate", folder + "/page.json", "--shard", "0/1", "--out", folder + "/part.json"])
        #expect(shard.status != 0 && shard.stderr.contains("'html' is written by a whole run"), "\(shard.stderr)")
    }
}
