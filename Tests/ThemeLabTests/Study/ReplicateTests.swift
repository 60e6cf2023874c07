import Foundation
import Testing
import ThemeLabCore
import ThemeLabCorpus
import ThemeLabMeasures
import ThemeLabMethods
import ThemeLabReport
import ThemeLabStudy

/// Replicates in experiments — bad configurations refused naming the file and field,
/// and every figure carrying its interval through JSON, CSV, Markdown, comparisons and plots.
@Suite(.serialized) struct ReplicateTests {
    func experiment(_ json: String) throws -> String {
        let path = temporaryFolder() + "/x.json"
        try AtomicFile.write(json, to: path)
        return path
    }

    /// Two generator corpora of 4 and 5 topics (re-drawn per replicate), no model needed.
    static let corpora = (0..<2).map { k in
        #"{"name": "synthetic", "generator": {"dimensions": 16, "topicSizes": \#(k == 0 ? "[6, 4, 3, 3]" : "[5, 4, 3, 3, 2]"), "#
            + #""anisotropy": 1, "anisotropySpread": 0.3, "#
            + #""topicStrength": \#(0.5 + 0.2 * Double(k)), "noise": 1, "seed": \#(k + 1)}}"#
    }.joined(separator: ", ")

    @Test(arguments: [
        (#""replicates": 1"#, "'replicates' must be a whole number from 2 to 1000, got 1"),
        (#""replicates": 5, "resample": {"fraction": 0}"#, "'resample.fraction' must be above 0 and at most 1, got 0"),
        (#""replicates": 5, "resample": {"fraction": 1.5}"#, "'resample.fraction' must be above 0 and at most 1, got 1.5"),
        (
            #""replicates": 5, "resample": {"scheme": "bootstrap", "fraction": 0.5}"#,
            "'resample.scheme' must be stratified-subsample, got 'bootstrap'"
        ),
        (
            #""replicates": 5, "resample": {"fraction": 0.5, "size": 3}"#,
            "'resample.size' is not a field of this object (expected one of fraction, scheme)"
        ),
        (#""resample": {"fraction": 0.5}"#, "'resample' has no effect without 'replicates'"),
    ])
    func badReplicateSettingsNameTheField(_ fields: String, _ message: String) throws {
        let path = try experiment(#"{"name": "x", "corpora": [{"name": "seed-12"}], \#(fields)}"#)
        let error = errorMessage { _ = try ExperimentPlan.read(path: path) }
        #expect(error == "\(path): \(message)", "\(error ?? "no error")")
    }

    @Test func aCorpusGetsTheSchemeItsKindNeedsBeforeAnythingIsEmbedded() throws {
        let cache = temporaryFolder()
        func refusal(_ json: String) throws -> String {
            let path = try experiment(json)
            let r = try CLI.launch(["ablate", path, "--out", temporaryFolder()], environment: ["THEMELAB_CACHE": cache])
            #expect(r.status == 1)
            return r.stderr.replacingOccurrences(of: path, with: "x.json")
        }
        let fixed = try refusal(#"{"name": "x", "corpora": [{"name": "seed-26"}, {"name": "seed-12"}], "replicates": 3}"#)
        #expect(
            fixed.hasPrefix("themelab: x.json: 'corpora[0].resample' is missing: 'seed-26' is fixed (every re-draw is the same items)"),
            "\(fixed)")
        let sampled = try refusal(#"{"name": "x", "corpora": [{"name": "synthetic", "resample": {"fraction": 0.5}}], "replicates": 3}"#)
        #expect(
            sampled == "themelab: x.json: 'corpora[0].resample' does not apply: 'synthetic-app-raw' is a seeded sample, so each replicate "
                + "re-draws it (seed + r)\n", "\(sampled)")
        let whole = try refusal(#"{"name": "x", "corpora": [{"name": "seed-12"}], "replicates": 10, "resample": {"fraction": 1}}"#)
        #expect(
            whole.hasPrefix(
                "themelab: x.json: 'resample.fraction' keeps every item of 'seed-12' (1.0 of each topic), so every replicate "
                    + "is the whole corpus"), "\(whole)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: cache).isEmpty, "nothing embedded")
    }

    @Test func everyFigureCarriesItsIntervalThroughEveryOutput() throws {
        let path = try experiment(
            #"{"name": "rep", "corpora": [\#(Self.corpora)], "spaces": ["centred"], "#
                + #""thresholds": ["otsu", "percentile(90)", "noise-floor(4)"], "groupings": ["components", "average"], "#
                + #""replicates": 4, "shuffles": 0}"#)
        let out = temporaryFolder()
        let r = CLI.run(["ablate", path, "--out", out])
        #expect(r.status == 0, "\(r.stderr)")
        let results = try JSONDecoder().decode(AnalysisResults.self, from: Data(contentsOf: URL(fileURLWithPath: out + "/rep/rep.json")))
        let a = results.analyses[0]
        #expect(a.replicates?.count == 4 && a.replicates?.scheme == "re-drawn with seeds 1 to 4")
        let s = try #require(a.space(.centred))
        // Replicate 0 is the experiment's own draw: its ARI is the point's.
        let row = try #require(s.outcome(rule: OtsuThreshold(bins: 256), grouping: AverageLinkageCut()))
        let aris = try #require(row.replicateARI)
        #expect(aris.count == 4 && aris[0] == row.recovery?.ari)
        // The estimate is the bootstrap of those values with the experiment's seed.
        let expected = PercentileBootstrap(count: 4, seed: 0).estimate(aris.map { $0! })
        #expect(row.replicates?[.ari] == expected)
        #expect(s.threshold(NoiseFloorThreshold(k: 4))?.replicates?.sd == 0, "a constant rule has no spread")
        #expect(s.replicateStatistics?[.unrelated]?[.median] != nil && s.ceilings?.allSatisfy { $0.replicates != nil } == true)

        let csv = try String(contentsOfFile: out + "/rep/rep.csv", encoding: .utf8).split(separator: "\n")
        let header = csv[0].split(separator: ",").map(String.init)
        #expect(header.contains("ari_replicate_low") && header.contains("threshold_replicate_high"))
        let first = csv[1].split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        #expect(first[header.firstIndex(of: "replicates")!] == "4")

        let md = try String(contentsOfFile: out + "/rep/rep.md", encoding: .utf8)
        #expect(md.contains("Replicates: 4 (re-drawn with seeds 1 to 4") && md.contains(formatInterval(expected)))

        let comparisons = try String(contentsOfFile: out + "/rep/rep-comparisons.csv", encoding: .utf8).split(separator: "\n")
        // Two corpora × two groupings × C(3, 2) pairs of rules.
        #expect(comparisons.count == 1 + 2 * 2 * 3, "\(comparisons.count)")
        let file = try JSONDecoder().decode(
            RuleComparisonFamily.File.self, from: Data(contentsOf: URL(fileURLWithPath: out + "/rep/rep-comparisons.json")))
        let family = try #require(file.families.first { $0.grouping == "average" })
        let pair = try #require(family.comparisons.first { $0.a == "otsu" && $0.b == "percentile(90)" })
        let p90 = try #require(s.outcome(rule: PercentileThreshold(percent: 90), grouping: AverageLinkageCut())?.replicateARI)
        #expect(pair.difference.mean.isApproximatelyEqual(to: zip(aris, p90).map { $0! - $1! }.reduce(0, +) / 4, absoluteTolerance: 1e-12))

        // The ablation plot draws each bar at the replicate mean with one error bar spanning its interval, and says so.
        let svg = SVGPlot.ablation(s, corpus: a.corpus.name, source: a.source, replicates: 4)
        #expect(svg.components(separatedBy: "class=\"error-bar\"").count - 1 == 6)
        let cell = "data-slot=\"otsu\" data-grouping=\"average\""
        #expect(svg.contains("\(cell) data-value=\"\(expected.mean)\""))
        #expect(svg.contains("\(cell) data-low=\"\(expected.low)\" data-high=\"\(expected.high)\""))
        #expect(expected.low <= expected.mean && expected.mean <= expected.high)
        #expect(svg.contains("bars: mean ARI over 4 replicates; error bars: 95% interval of that mean"))
    }

    @Test func regretCarriesIntervalsAndTheirBoundsPickTheDefault() throws {
        let path = try experiment(
            #"{"name": "rep", "corpora": [\#(Self.corpora)], "spaces": ["centred"], "thresholds": ["otsu", "percentile(90)"], "#
                + #""groupings": ["average"], "replicates": 3, "shuffles": 0}"#)
        let out = temporaryFolder()
        #expect(CLI.run(["ablate", path, "--out", out]).status == 0)
        let results = try JSONDecoder().decode(AnalysisResults.self, from: Data(contentsOf: URL(fileURLWithPath: out + "/rep/rep.json")))
        let table = RegretTable(analyses: results.analyses, grouping: "average", settings: results.settings)
        let row = table.rows[0]
        let s = results.analyses[0].space(.centred)!
        let ceiling = s.ceilings!.first { $0.grouping == "average" }!.replicateARI!.map { $0! }
        let rule = s.outcome(rule: OtsuThreshold(bins: 256), grouping: AverageLinkageCut())!.replicateARI!.map { $0 ?? 0 }
        #expect(row.regretEstimate[.rule("otsu")] == PercentileBootstrap(count: 3, seed: 0).estimate(zip(ceiling, rule).map { $0 - $1 }))
        // Relative regret over replicates: the bootstrap of Σ regret / Σ ceiling on the same resamples.
        let regrets = zip(ceiling, rule).map { $0 - $1 }
        let ratio = PercentileBootstrap(count: 3, seed: 0).interval { idx in
            idx.map { regrets[Int($0)] }.reduce(0, +) / idx.map { ceiling[Int($0)] }.reduce(0, +)
        }
        #expect(row.relativeInterval[.rule("otsu")]!.low.isApproximatelyEqual(to: ratio.low, absoluteTolerance: 1e-12))
        #expect(row.relativeInterval[.rule("otsu")]!.high.isApproximatelyEqual(to: ratio.high, absoluteTolerance: 1e-12))
        let worst = try #require(table.worst(.rule("otsu")))
        let bounds = table.rows.filter { $0.ceiling.ari >= RegretTable.meaningfulCeiling }.map { $0.relativeInterval[.rule("otsu")]!.high }
        #expect(worst.relativeHigh == bounds.max())
        #expect(table.markdown(subset: ("all", { _ in true })).contains(formatInterval(row.regretEstimate[.rule("otsu")])))
        #expect(table.plot().contains("class=\"band\" data-series=\"otsu\""))
    }
}

/// Analyses run two at a time, the largest first; each must give the bytes it gives alone, in the jobs' order.
@Test func analysesSideBySideEqualThemOneByOne() throws {
    var settings = AnalysisSettings()
    settings.spaces = [.raw, .centred]
    settings.shuffles = 0
    var quiet = Analysis(settings: settings)
    quiet.reruns = false
    let jobs = (0..<4).map { k in
        var g = SyntheticVectors.journalMethodRaw()
        g.seed = UInt64(k)
        g.topicSizes = Array(g.topicSizes.prefix(2 + 2 * k))  // the last job is the largest: it runs first
        let (corpus, vectors) = g.corpus(name: "g\(k)")
        return Analysis.Job(analysis: k == 0 ? Analysis(settings: settings) : quiet, corpus: corpus, vectors: vectors, source: "generator")
    }
    #expect(jobs.map(\.vectors.rows) == jobs.map(\.vectors.rows).sorted() && Set(jobs.map(\.vectors.rows)).count == 4)
    let together = try Analysis.runAll(jobs)
    for (k, job) in jobs.enumerated() {
        let alone = try job.analysis.run(corpus: job.corpus, vectors: job.vectors, source: "generator")
        #expect(try JSONOutput.encode(together[k]) == JSONOutput.encode(alone), "job \(k)")
    }
}

/// Groupings that depend on the visiting order or a seed are rerun under another of each on the corpus's own
/// analysis, and report the agreement; the others, and replicates, report none.
@Suite struct RerunAgreementTests {
    @Test func orderAndSeedDependentGroupingsReportTheirRerun() throws {
        let settings = try AnalysisSettings.named(
            spaces: ["raw"], thresholds: ["fixed(0.3)"], groupings: ["average", "leader", "leiden(5)", "kmeans-k"])
        let x = try unitRows(randomMatrix(rows: 60, cols: 6, seed: 4))
        let corpus = Corpus(name: "c", items: (0..<60).map { CorpusItem(id: "\($0)", text: nil, label: "t\($0 % 4)") })
        let rows = try Analysis(settings: settings).run(corpus: corpus, vectors: x, source: "x").spaces[0].groupings
        let row = { (name: String) in rows.first { $0.grouping == GroupingKey(name) } }
        #expect(row("average") != nil && row("average")?.rerunARI == nil)
        // The leader by hand: corpus order, then the seeded shuffle the rerun visits (seed 0 + 1).
        let first = try LeaderAlgorithm.group(x, threshold: 0.3, order: Array(0..<60))
        let second = try LeaderAlgorithm.group(x, threshold: 0.3, order: SeededRandom.permutation(count: 60, seed: 1))
        let expected = adjustedRandIndex(Contingency(classes: first, clusters: second))
        #expect(expected < 1 && row("leader")?.rerunARI == expected, "the leader depends on the order here")
        #expect(row("leiden(5)")?.rerunARI != nil && row("kmeans-k")?.rerunARI != nil)
        var replicate = Analysis(settings: settings)
        replicate.reruns = false
        let quiet = try replicate.run(corpus: corpus, vectors: x, source: "x").spaces[0].groupings
        #expect(quiet.allSatisfy { $0.rerunARI == nil })
    }
}
