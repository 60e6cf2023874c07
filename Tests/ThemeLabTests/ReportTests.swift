import Foundation
import Testing

@testable import ThemeLab

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// The regret table and line plots, on hand-made analyses whose figures are known.
@Suite struct ReportTests {
    /// One corpus: a grouping ceiling, and rules whose groups reproduce the topics (ARI 1) or
    /// put everything together (ARI 0).
    func analysis(_ name: String, topics: Int, ceiling: Double, perfect: [String], together: [String]) -> CorpusAnalysis {
        let labels = (0..<12).map { Int32($0 % 3) }
        func row(_ rule: String, _ groups: [Int32]) -> GroupingOutcome {
            GroupingOutcome(
                grouping: "average", rule: rule, threshold: 0.2, labelInformed: false, groups: Set(groups).count,
                recovery: Recovery(topics: labels, groups: groups), spread: nil, note: nil)
        }
        let rows = perfect.map { row($0, labels) } + together.map { row($0, [Int32](repeating: 0, count: 12)) }
        let space = SpaceAnalysis(
            space: "centred", quantileMethod: "exact", thresholdHistogram: "exact", statistics: [:], separation: nil,
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
        #expect(table.rules.sorted() == ["bad", "good"])
        #expect(table.rows.map { $0.regret["good"]! } == [0, 0.8, 0.05])
        // c's ceiling is below 0.1: shown, but not the worst case.
        let good = table.worst("good")!
        let bad = table.worst("bad")!
        #expect(
            good.corpus == "b" && good.relative.isApproximatelyEqual(to: 1, absoluteTolerance: 1e-12) && bad.corpus == "a"
                && bad.regret == 1)
        #expect(table.worst("good", where: { $0.corpus == "a" })!.regret == 0)
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
        #expect(svg.components(separatedBy: "stroke=\"#0072B2\"").count - 1 == 4)  // both series and their legend entries share colour 0
        _ = try XMLDocument(xmlString: svg)
    }
}
