import Foundation
import Testing
import ThemeLabCore
import ThemeLabCorpus
import ThemeLabMethods
import ThemeLabPairs
import ThemeLabStudy

/// The analysis of one corpus (`Analysis`): its thresholds, its notes and its refusals.
@Suite struct AnalysisTests {
    /// Every data-derived rule's value in an analysis sits in the middle of the gap between the pair
    /// similarities around it, and the pairs above it are the ones above the rule's own value.
    @Test func dataDerivedThresholdsSitMidGapInAnAnalysis() throws {
        let x = randomMatrix(rows: 30, cols: 8, seed: 11)
        let labels = (0..<30).map { "t\($0 % 4)" }
        let corpus = Corpus(
            name: "mid-gap", items: labels.enumerated().map { CorpusItem(id: "\($0.offset)", text: nil, label: $0.element) })
        let settings = try AnalysisSettings.named(
            spaces: ["raw"], thresholds: ["percentile(50)", "percentile(100)", "oracle", "knn-median(3)", "silhouette", "fixed(0.25)"],
            groupings: ["components", "average"])
        let space = try Analysis(settings: settings).run(corpus: corpus, vectors: x, source: "test").spaces[0]
        let dist = PairEngine(bins: 65_536, tileSize: 64, exactPairLimit: 10_000_000).run(try unitRows(x), labels: corpus.labelIndices())
        let c = ThresholdContext(distribution: dist, dimensions: x.cols)
        let sims = c.distribution.sortedValues(.all)!.map(Double.init)
        for t in space.thresholds where t.rule != "fixed(0.25)" {
            let value = try #require(t.value)
            let rule = try thresholdRule(named: t.rule.name)
            #expect(rule.isDataDerived && !sims.contains(value), "\(t.rule) sits on an observed similarity")
            if t.rule.name.hasPrefix("percentile") || t.rule == "oracle" {
                let raw = try #require(rule.threshold(in: c))
                #expect(
                    sims.filter { $0 >= raw }.count == sims.filter { $0 >= value }.count, "\(t.rule): placement changed the pairs above")
            }
            if let a = sims.last(where: { $0 < value }), let b = sims.first(where: { $0 > value }), t.rule != "silhouette" {
                #expect(value == (a + b) / 2, "\(t.rule): \(value) is not mid-gap in (\(a), \(b))")
            }
        }
        #expect(space.thresholds.first { $0.rule == "fixed(0.25)" }?.value == 0.25, "a fixed threshold is not moved")
    }

    /// An analysis with k far above N gives that grouping's cells a note and the grouping with k below N beside it its
    /// groups.
    @Test func aHugeKIsANoteBesideASmallerK() throws {
        var settings = try AnalysisSettings.named(spaces: ["raw"], thresholds: ["fixed(0.5)"], groupings: ["leiden(1000000)", "leiden(3)"])
        settings.shuffles = 0
        let x = randomMatrix(rows: 40, cols: 6, seed: 2)
        let corpus = Corpus(name: "c", items: (0..<40).map { CorpusItem(id: "\($0)", text: nil, label: "t\($0 % 4)") })
        let a = try Analysis(settings: settings).run(corpus: corpus, vectors: x, source: "x")
        let rows = a.spaces[0].groupings
        #expect(rows.first { $0.grouping == "leiden(1000000)" }?.note?.contains("needs more than 1000000 items") == true)
        #expect(rows.first { $0.grouping == "leiden(3)" }?.recovery != nil)
    }

    /// Fewer than two items: a one-line error before any rule or grouping runs.
    @Test(arguments: [0, 1])
    func analysisRefusesFewerThanTwoItems(_ n: Int) {
        let corpus = Corpus(name: "tiny", items: (0..<n).map { CorpusItem(id: "\($0)") })
        let message = errorMessage {
            _ = try Analysis(settings: AnalysisSettings()).run(
                corpus: corpus, vectors: randomMatrix(rows: n, cols: 16, seed: 1), source: "test")
        }
        #expect(message?.hasSuffix("pairs need at least 2") == true && message?.contains("\n") == false, "\(message ?? "no error")")
    }

    /// `analyze`'s direct path gives the analysis the grid gives for the same plan of one corpus, byte for byte: the
    /// generator's own vectors, and a file's given as embeddings.
    @Test(arguments: ["generator", "embeddings"]) func theSingleAnalysisIsTheGridOfOneCorpus(_ vectors: String) throws {
        let folder = temporaryFolder()
        var spec = CorpusSpec(name: "synthetic")
        var encoder = ExperimentPlan.Encoder()
        if vectors == "embeddings" {
            let lines = (0..<24).map { #"{"id": "i\#($0)", "text": "t", "label": "topic \#($0 % 3)"}"# }
            try AtomicFile.write(lines.joined(separator: "\n") + "\n", to: folder + "/c.jsonl")
            try NPY.write(randomMatrix(rows: 24, cols: 6, seed: 5), to: folder + "/x.npy")
            (spec, encoder.embeddings) = (CorpusSpec(name: "file"), folder + "/x.npy")
            spec.path = folder + "/c.jsonl"
        }
        let settings = try AnalysisSettings.named(
            spaces: ["raw", "centred"], thresholds: ["otsu", "oracle"], groupings: ["components", "leader", "hdbscan(3)"])
        let plan = ExperimentPlan(name: "analysis", corpora: [spec], encoders: [encoder], settings: settings)
        try plan.validate(source: .commandLine)
        var environment = RunEnvironment(command: ["test"], startedAt: Date(timeIntervalSince1970: 0))
        environment.keepsMembers = true
        let single = try SingleAnalysis(plan).run(in: environment)
        let grid = try plan.run(in: environment)
        #expect(try JSONOutput.encode(single) == (try JSONOutput.encode(grid)))
        #expect(single.analyses.first?.spaces.count == 2 && single.provenance.inputs.count == (vectors == "embeddings" ? 2 : 0))
    }
}
