import Foundation
import Testing
import ThemeLabPairs

@testable import ThemeLabCore
@testable import ThemeLabMeasures
@testable import ThemeLabMethods
@testable import ThemeLabReport
@testable import ThemeLabRun
@testable import ThemeLabStudy

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// The regret table and line plots, on hand-made analyses whose figures are known.
@Suite struct ReportTests {
    /// One corpus: a grouping ceiling, and rules whose groups reproduce the topics (ARI 1) or
    /// put everything together (ARI 0).
    func analysis(_ name: String, topics: Int, ceiling: Double, perfect: [RuleKey], together: [RuleKey]) -> CorpusAnalysis {
        let labels = (0..<12).map { Int32($0 % 3) }
        func row(_ rule: RuleKey, _ groups: [Int32]) -> GroupingOutcome {
            GroupingOutcome(
                grouping: "average", rule: rule, threshold: 0.2, labelInformed: false, groups: Set(groups).count,
                recovery: Recovery(topics: labels, groups: groups), spread: nil, note: nil)
        }
        let rows = perfect.map { row($0, labels) } + together.map { row($0, [Int32](repeating: 0, count: 12)) }
        let space = SpaceAnalysis(
            space: .centred, quantileMethod: "exact", thresholdHistogram: "exact", statistics: [:], separation: nil,
            thresholds: [], groupings: rows,
            ceilings: [Ceiling(grouping: "average", search: "every cut", BestCut(threshold: 0.3, ari: ceiling, groups: 3))],
            histogram: [:])
        return CorpusAnalysis(
            corpus: .init(name: name, items: 12, topics: topics, labeled: true, relatedPairShare: 0.2),
            source: "vectors", dimensions: 4, spaces: [space], notes: [])
    }

    @Test func regretIsCeilingMinusARIAndTheWorstCaseSkipsHopelessCorpora() {
        let table = RegretTable(
            analyses: [
                analysis("a", topics: 3, ceiling: 1, perfect: ["good"], together: ["bad"]),
                analysis("b", topics: 30, ceiling: 0.8, perfect: ["bad"], together: ["good"]),
                analysis("c", topics: 300, ceiling: 0.05, perfect: [], together: ["good", "bad"]),
            ], grouping: "average", settings: AnalysisSettings())
        #expect(table.rules.sorted() == [.rule("bad"), .rule("good")])
        #expect(table.rows.map { $0.regret[.rule("good")]! } == [0, 0.8, 0.05])
        // c's ceiling is below 0.1: shown, but not the worst case.
        let good = table.worst(.rule("good"))!
        let bad = table.worst(.rule("bad"))!
        #expect(
            good.corpus == "b" && good.relative.isApproximatelyEqual(to: 1, absoluteTolerance: 1e-12) && bad.corpus == "a"
                && bad.regret == 1)
        #expect(table.worst(.rule("good"), where: { $0.corpus == "a" })!.regret == 0)
        let md = table.markdown(subset: ("only a", { $0.corpus == "a" }))
        #expect(
            md.contains("| a | 3 | 20.00% | 1.000 (0.300) | **0.000** | 1.000 |")
                || md.contains("| a | 3 | 20.00% | 1.000 (0.300) | 1.000 | **0.000** |"))
        #expect(md.contains("**worst, only a**"))
        // One point per topic count, the worst corpus there.
        let svg = table.plot()
        #expect(svg.contains("id=\"series-good\"") && svg.contains("id=\"series-bad\""))
        #expect((try? XMLDocument(xmlString: svg)) != nil)
    }

    /// reproduce's estimate of the time left: the last run's times for the stages left, scaled by this run's pace on the
    /// stages done (here 1.5× slower: 60 s against 40); without a last run, the mean stage so far for each stage left.
    @Test func reproduceEstimatesTheTimeLeftFromTheLastRun() {
        let plan = ["a", "b", "c", "replay"]
        let expected = Reproduction.WallClock.stageSeconds(csv: "stage,seconds\na,30\nb,10\nc,20\nreplay,100\ntotal,160\n")
        #expect(expected == ["a": 30, "b": 10, "c": 20, "replay": 100])
        let done = [(name: "a", seconds: 45.0), (name: "b", seconds: 15.0)]
        #expect(Reproduction.WallClock.secondsLeft(done: done, plan: plan, expected: expected) == 180)
        #expect(Reproduction.WallClock.secondsLeft(done: done, plan: plan, expected: [:]) == 60)
        #expect(Reproduction.WallClock.secondsLeft(done: [], plan: plan, expected: expected) == nil)
        #expect(Reproduction.WallClock.stageSeconds(csv: "stage,seconds\na,-1\nb,nan\nc\n") == [:])
        #expect(Reproduction.WallClock.duration(59.6) == "1 min 0 s" && Reproduction.WallClock.duration(42) == "42 s")
    }

    /// SVG text: entities for &, < and >, U+FFFD for the control characters XML 1.0 forbids (tab, LF and CR stay).
    @Test func svgTextIsAlwaysWellFormed() {
        #expect(SVGPlot.escape("a\u{1}\u{1b}[31m<b> & c\td") == "a\u{FFFD}\u{FFFD}[31m&lt;b&gt; &amp; c\td")
    }

    @Test func logAxesAreLabelledWithValues() throws {
        let svg = SVGPlot.lines(
            title: "t", xLabel: "N", yLabel: "s",
            series: [
                .init(label: "m", points: [(x: 1000, y: 0.5), (x: 100_000, y: 50)]),
                .init(label: "model", points: [(x: 1000, y: 0.4), (x: 100_000, y: 60)], dashed: true, colour: 0),
            ],
            logX: true, logY: true)
        for label in [">1000<", ">10000<", ">100000<", ">0.1<", ">1<", ">10<", ">100<", "(log scale)"] {
            #expect(svg.contains(label), "\(label)")
        }
        // Both series and their legend entries share colour 0.
        #expect(svg.components(separatedBy: "stroke=\"\(MethodColours.palette[0])\"").count - 1 == 4)
        _ = try XMLDocument(xmlString: svg)
    }

    // MARK: REPORT.md from the committed results

    /// The report `themelab reproduce` writes, rendered from the committed results: every experiment's JSON, the replay's,
    /// the fragility check's CSV, and C7's figures as REPORT.md states them (identical bits on the corpus and 10 of 10
    /// subsamples). With THEMELAB_RENDER_REPORT=DIR, REPORT.md and the files beside it are written there to read.
    static func committedReport() throws -> ReproductionReport {
        let root = ReproducibilityTests.root
        let layout = try ReportLayout.read(path: root + "/Experiments/report/layout.json")
        let names = try FileManager.default.contentsOfDirectory(atPath: root + "/Experiments").filter { $0.hasSuffix(".json") }.sorted()
            .map { String($0.dropLast(5)) }
        var experiments: [(String, String, AnalysisResults)] = []
        var replays: [ReplayResults] = []
        var sizes: [SizeResults] = []
        for name in names {
            let (plan, results) = (root + "/Experiments/\(name).json", root + "/results/\(name)/\(name).json")
            if SizePlan.isSize(path: plan) {
                // Until `make reproduce` has run a new size experiment, results/ and REPORT.md hold none of it.
                if FileManager.default.fileExists(atPath: results) {
                    sizes.append(try JSONOutput.read(SizeResults.self, path: results, expected: "size results"))
                }
            } else if ReplayPlan.isReplay(path: plan) {
                replays.append(try JSONOutput.read(ReplayResults.self, path: results, expected: "replay results"))
            } else {
                let description = try ExperimentPlan.read(path: plan).description ?? ""
                experiments.append((name, description, try JSONOutput.read(AnalysisResults.self, path: results, expected: "results")))
            }
        }
        let source = try #require(experiments.lazy.flatMap(\.2.analyses).first { $0.corpus.name == layout.themeSums }?.source)
        var themeSums = ThemeSumsResult(corpus: layout.themeSums, source: source, identicalBits: true, maxAbsDifference: 0)
        (themeSums.replicates, themeSums.identicalReplicates) = (Estimate(n: 10, mean: 0, sd: 0, low: 0, high: 0), 10)
        var report = ReproductionReport(experiments: experiments, themeSums: themeSums, layout: layout)
        (report.replays, report.sizes) = (replays, sizes)
        report.fragility = try committedFragility(root + "/results/fragility.csv", seed: layout.fragility?.seed ?? 0)
        return report
    }

    /// results/fragility.csv read back (fields quoted where they hold a comma).
    static func committedFragility(_ path: String, seed: UInt64) throws -> Fragility {
        func fields(_ line: Substring) -> [String] {
            var (out, field, quoted) = ([String](), "", false)
            for c in line {
                if c == "\"" {
                    quoted.toggle()
                } else if c == "," && !quoted {
                    out.append(field)
                    field = ""
                } else {
                    field.append(c)
                }
            }
            return out + [field]
        }
        var fragility = Fragility(seed: seed)
        for line in try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").dropFirst() {
            let f = fields(line)
            let kind = try #require(Fragility.Kind(rawValue: f[1]))
            fragility.verdicts.append(.init(experiment: f[0], kind: kind, key: f[2], verdict: f[3], perturbed: f[4]))
        }
        return fragility
    }

    /// The report leads with its verdicts (summary, recommendation, key figures), has a summary row per claim, is at most
    /// 300 lines, and every figure followed by a bracket lies inside it (it is the mean the bracket brackets).
    @Test func committedResultsRenderAShortReportThatLeadsWithItsVerdicts() throws {
        let report = try Self.committedReport()
        let md = report.markdown()
        let files = try report.files()
        if let folder = ProcessInfo.processInfo.environment["THEMELAB_RENDER_REPORT"] {
            try AtomicFile.write(md, to: folder + "/REPORT.md")
            for (path, text) in files { try AtomicFile.write(text, to: folder + "/" + path) }
        }
        let lines = md.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count <= 300, "REPORT.md has \(lines.count) lines")
        let sections = lines.filter { $0.hasPrefix("## ") }.map { String($0.dropFirst(3)) }
        #expect(Array(sections.prefix(3)) == ["Summary", "Recommendation", "Key figures"])
        for id in (1...9).map({ "C\($0)" }) {
            #expect(lines.contains { $0.hasPrefix("| \(id) | ") || $0.hasPrefix("| \(id) · ") }, "no summary row for \(id)")
        }
        // C1 and C2 read per encoder, the masked-LM encoder's rows among them.
        for id in ["C1", "C2"] {
            #expect(lines.filter { $0.hasPrefix("| \(id) · ") }.count >= 2 && md.contains("| \(id) · wordnet-mlm-4x256"))
        }
        #expect(md.contains("Suggested default, all corpora") && md.contains("[claims.md](claims.md)"))
        #expect(Set(files.map(\.path)).isSuperset(of: ["claims.md", "claims.csv", "claims.json", "regret.md", "ablation.md"]))
        let claims = try #require(files.first { $0.path == "claims.md" }?.text)
        #expect(claims.contains(ClaimsReport.markdown(report.claimsRows)))
        #expect(Self.bracketsHoldTheirFigures(md + claims) == [])
    }

    /// results/recommendation.json is the report's suggested default, in names `analyze` accepts, and the committed file is
    /// what the committed results render.
    @Test func recommendationFileIsTheSuggestedDefault() throws {
        let report = try Self.committedReport()
        let text = try #require(try report.files().first { $0.path == "recommendation.json" }?.text)
        let file = try JSONDecoder().decode(RecommendationFile.self, from: Data(text.utf8))
        let shown = file.rule.map { "**\($0)** with \(file.grouping)" } ?? "**\(file.grouping)** (its own cuts"
        #expect(report.markdown().contains("Suggested default, all corpora: \(shown)"))
        #expect(text.contains(file.rule == nil ? "\"rule\" : null" : "\"rule\" : \""))
        _ = try grouping(named: file.grouping)
        if let rule = file.rule { _ = try thresholdRule(named: rule) }
        #expect(try String(contentsOfFile: DocExample.root + "/results/recommendation.json", encoding: .utf8) == text)
    }

    /// Every "x [low, high]" of plain decimals whose x lies outside its bracket.
    static func bracketsHoldTheirFigures(_ text: String) -> [String] {
        let pattern = try! NSRegularExpression(pattern: #"(-?[0-9]+\.[0-9]+) \[(-?[0-9]+\.[0-9]+), (-?[0-9]+\.[0-9]+)\]"#)
        return pattern.matches(in: text, range: NSRange(text.startIndex..., in: text)).compactMap { m in
            let x = (1...3).map { Double(text[Range(m.range(at: $0), in: text)!])! }
            return x[1] <= x[0] && x[0] <= x[2] ? nil : String(text[Range(m.range, in: text)!])
        }
    }

    // MARK: REPORT.md's opening lines

    /// REPORT.md opens, under its title, with five lines a reader can quote. Each is computed from the results, and here
    /// checked against the committed files it summarises: regret.md's leader table, recommendation.json, claims.json,
    /// the replay's JSON and the study's settings.
    @Test func theReportOpensWithFiveLinesTheCommittedResultsGive() throws {
        let report = try Self.committedReport()
        let lines = report.openingLines()
        try #require(lines.count == 5)
        let md = report.markdown().split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(md[0].hasPrefix("# ") && md[1].isEmpty && Array(md[2...6]) == lines.enumerated().map { "\($0.offset + 1). \($0.element)" })
        let results = DocExample.root + "/results/"
        let journalMethod = try Self.journalMethodColumn(results + "regret.md")
        #expect(lines[0].contains(journalMethod.close) && lines[0].contains(journalMethod.worst), "\(lines[0])")

        let recommendation = try Self.json(results + "recommendation.json")
        let worst = try #require(recommendation["worstCase"] as? [String: Any])
        let bounds = String(
            format: "bounds [%.1f%%, %.1f%%]", 100 * (worst["lowerBound"] as! Double), 100 * (worst["upperBound"] as! Double))
        #expect(lines[1].hasPrefix(recommendation["targetMet"] as! Bool ? "**" : "**No rule and grouping tried meets the target**"))
        #expect(
            lines[1].contains("\(recommendation["rule"] as! String) with \(recommendation["grouping"] as! String)")
                && lines[1].contains(bounds))

        let replay = try #require(try Self.json(results + "replay/replay.json")["journals"] as? [[String: Any]])
        let rules = replay.flatMap { $0["rules"] as! [[String: Any]] }
        var verdicts = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: results + "claims.json"))) as? [[String: Any]]
        )
        .map { ($0["claim"] as! String, $0["verdict"] as! String) }
        verdicts += rules.flatMap { r in
            ["C8", "C9"].compactMap { c in (r[c.lowercased()] as? [String: Any]).map { (c, $0["verdict"] as! String) } }
        }
        #expect(lines[2].contains(Self.claimsByMostCommonVerdict(verdicts)), "\(lines[2])")

        let c9 = rules.compactMap { $0["c9"] as? [String: Any] }
        let held = c9.filter { $0["verdict"] as? String == "holds" }
        let mean = { (f: [String: Any], key: String) in (f[key] as! [String: Any])["mean"] as! Double }
        let staleness = held.map { mean($0, "meanStaleness") }.sorted()
        let work = held.map { mean($0, "workShare") }.sorted()
        #expect(lines[3].contains("holds on \(held.count) of \(c9.count) journals × rules"))
        #expect(lines[3].contains(String(format: "ARI of %.3f to %.3f", staleness.first!, staleness.last!)))
        #expect(lines[3].contains(String(format: "for %.0f%% to %.0f%% of the work", 100 * work.first!, 100 * work.last!)))

        let study = try Self.json(results + "rules/rules.json")
        let replicates = try #require((study["settings"] as? [String: Any])?["replicates"] as? Int)
        #expect(lines[4].contains("the mean over \(replicates) [replicates]"))
    }

    static func json(_ path: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])
    }

    /// From regret.md's leader table, the otsu-floored column: "on C of the N study corpora" within 10% of the ceiling
    /// (ceilings of ARI 0.1 or more, at the own draws) and its worst case as "P% of the ceiling's ARI at the own draws,
    /// bounds [L%, H%]".
    static func journalMethodColumn(_ path: String) throws -> (close: String, worst: String) {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let table = text.components(separatedBy: "\n### leader\n")[1].split(separator: "\n").filter { $0.hasPrefix("|") }
        let cells = { (row: Substring) in
            row.split(separator: "|", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
        }
        let column = try #require(cells(table[0]).firstIndex(of: "otsu-floored"))
        let number = { (cell: String, pattern: String) in
            cell.range(of: pattern, options: .regularExpression).map { Double(cell[$0].filter { "-.0123456789".contains($0) })! }
        }
        let rows = table.dropFirst(2).prefix { !$0.hasPrefix("| **worst") }.map(cells)
        // The table rounds a ceiling to three decimals (0.0996 shows as 0.100): the study's results file has it exactly.
        let study = try JSONOutput.read(
            AnalysisResults.self, path: URL(fileURLWithPath: path).deletingLastPathComponent().path + "/rules/rules.json",
            expected: "ThemeLab results file")
        let exact = Dictionary(
            study.analyses.compactMap { a in
                a.space(.centred)?.ceilings?.first { $0.grouping.name == "leader" }.map { (a.corpus.name, $0.ari) }
            }
        ) { first, _ in first }
        let scored = rows.compactMap { r -> (ceiling: Double, regret: Double)? in
            let ceiling = exact[r[1]] ?? number(r[4], #"^-?[0-9.]+"#)!
            return ceiling >= 0.1 ? (ceiling, number(r[column], #"own draw \**-?[0-9.]+"#)!) : nil
        }
        let close = scored.filter { $0.regret / $0.ceiling <= 0.1 }.count
        let worstCell = cells(try #require(table.first { $0.hasPrefix("| **worst, all corpora**") }))[column]
        let share = try #require(worstCell.range(of: #"\(([0-9]+%), (bounds \[[^\]]+\])\)"#, options: .regularExpression))
        let parts = worstCell[share].dropFirst().dropLast().components(separatedBy: ", bounds")
        return ("on \(close) of the \(scored.count) study corpora", "\(parts[0]) of the ceiling's ARI at the own draws, bounds\(parts[1])")
    }

    /// "holds C2, C3; …": each claim under the verdict its rows give most often (ties to the earlier verdict).
    static func claimsByMostCommonVerdict(_ verdicts: [(claim: String, verdict: String)]) -> String {
        let order = ["holds", "partly", "in part", "does not hold", "inconclusive"]
        var byVerdict: [String: [String]] = [:]
        for claim in (1...9).map({ "C\($0)" }) {
            let counts = order.map { v in verdicts.filter { $0.claim == claim && $0.verdict == v }.count }
            if let most = counts.max(), most > 0 { byVerdict[order[counts.firstIndex(of: most)!], default: []].append(claim) }
        }
        return order.compactMap { v in byVerdict[v].map { "\(v) \($0.joined(separator: ", "))" } }.joined(separator: "; ")
    }
}

extension ReportTests {
    /// The cost model's report predicts from its formula and its plot names the kernel the bench lines ran on.
    @Test func costModelReportPredictsAndNamesTheKernel() throws {
        let model = CostModel(flopRate: 100e9, perPair: 1e-9, base: 50 * 1_048_576, perItemDimension: 8, perItem: 200)
        // By hand: 499 999 500 000 pairs · (768 / 100e9 + 1e-9) s = 4 340 s; 50 MiB + 8 · 384e6 B + 200e6 B = 3 170 MiB.
        #expect(model.markdown([]).contains("predicted at N = 1 000 000, d = 384: 4340 s (1.2 h), peak 3170 MiB"))
        let line = try CostModel.Point(benchLine: #"{"n":"5000","d":"384","seconds":"0.12","peak_rss_mib":"64","kernel":"Zen"}"#)
        #expect(model.plot([line]).contains("(2 cores, OpenBLAS kernel Zen)"))
    }
}
