import Foundation
import Testing
import ThemeLabCore
import ThemeLabMeasures
import ThemeLabMethods
import ThemeLabStudy

/// Ceilings that do not depend on the rules asked for: each threshold grouping's best cut is searched on cuts fixed by
/// the corpus alone, so a run with every rule and a run with one give the same ceilings, and no rule's own ARI passes the
/// leader's ceiling by more than `tolerance` (the grid is that dense where rules land). Before, the leader's search took
/// in the rules' values, so its ceiling moved with the rule list and a rule could equal its own ceiling.
@Suite struct CeilingStabilityTests {
    static let tolerance = 0.002
    static let everyRule = [
        "fixed(0.55)", "noise-floor(4)", "percentile(90)", "otsu", "otsu-floored", "kittler-illingworth", "mixture", "knn-otsu(5)",
        "knn-mixture(40)", "knn-median(10)", "silhouette", "oracle",
    ]
    /// Study corpora small enough for the suite: both seeds, two of the generator's presets of `rules`, CLINC150 subsets.
    static let corpora = """
        [{"name": "seed-12"}, {"name": "seed-26"},
         {"name": "synthetic", "generator": {"dimensions": 384, "topicSizes": [10, 6, 4, 2, 10, 6, 4, 2], "anisotropy": 0,
          "anisotropySpread": 0.3, "topicStrength": 0.45, "noise": 1.0, "seed": 21}},
         {"name": "synthetic", "generator": {"dimensions": 384, "topicSizes": [12, 8, 5, 3, 12, 8, 5, 3, 12, 8, 5, 3, 12, 8, 5, 3],
          "anisotropy": 2.4, "anisotropySpread": 0.3, "topicStrength": 0.4, "noise": 1.0, "seed": 11}},
         {"name": "clinc150", "intents": 5, "seed": 1}, {"name": "clinc150", "intents": 20, "seed": 1}]
        """

    /// `rules` on the corpora above, threshold groupings only, centred space, no replicates.
    static func run(_ rules: [String], in folder: String, name: String) throws -> AnalysisResults {
        let quoted = rules.map { "\"\($0)\"" }.joined(separator: ", ")
        try AtomicFile.write(
            "{\"name\": \"\(name)\", \"corpora\": \(corpora), \"encoders\": [{\"model\": \"default\"}], \"spaces\": [\"centred\"], "
                + "\"thresholds\": [\(quoted)], \"groupings\": [\"components\", \"average\", \"leader\"], \"shuffles\": 0}",
            to: "\(folder)/\(name).json")
        let r = CLI.run(["ablate", "\(folder)/\(name).json", "--out", folder])
        try #require(r.status == 0, "\(r.stderr)")
        return try JSONOutput.read(AnalysisResults.self, path: "\(folder)/\(name)/\(name).json", expected: "results")
    }

    @Test func ceilingsAreTheSameWhateverRulesAreAskedForAndNoRulePassesThem() throws {
        let folder = temporaryFolder()
        let all = try Self.run(Self.everyRule, in: folder, name: "all")
        let one = try Self.run(["otsu"], in: folder, name: "one")
        var gaps: [String] = []
        for (a, b) in zip(all.analyses, one.analyses) {
            let (s, t) = (try #require(a.space(.centred)), try #require(b.space(.centred)))
            #expect(s.ceilings == t.ceilings, "\(a.corpus.name): the ceilings moved with the rules")
            for c in s.ceilings ?? [] {
                let best = s.groupings.filter { $0.grouping == c.grouping }.compactMap { $0.recovery?.ari }.max() ?? -1
                gaps.append("\(a.corpus.name) \(c.grouping): \(formatFigure(best - c.ari))")
                #expect(best <= c.ari + Self.tolerance, "\(a.corpus.name) \(c.grouping): a rule's ARI \(best) passes the ceiling \(c.ari)")
                if c.search == Ceiling.everyCut { #expect(best <= c.ari + 1e-12, "\(a.corpus.name) \(c.grouping): every cut") }
            }
        }
        print("largest rule ARI − ceiling:", gaps.joined(separator: "; "))
    }

    /// A corpus small enough to try every threshold at which the leader's groups change: seed-12's, where a rule's value
    /// falls between two pair similarities and gave an ARI 0.075 above the best of 256 quantile thresholds.
    @Test func theLeaderTriesEveryCutOnASmallCorpus() throws {
        let folder = temporaryFolder()
        let r = try Self.run(["otsu"], in: folder, name: "small")
        let seed = try #require(r.analyses.first { $0.corpus.name == "seed-12" }?.space(.centred))
        let leader = try #require(seed.ceilings?.first { $0.grouping == "leader" })
        #expect(leader.search == Ceiling.everyCut)
        let large = try #require(r.analyses.first { $0.corpus.items == 600 }?.space(.centred))
        #expect(large.ceilings?.first { $0.grouping == "leader" }?.search == LeaderGrouping.gridSearch)
    }

    /// The leader's groups change exactly at its breakpoints: the same groups from just above one up to the one before,
    /// other groups at it; below the last, every item in one group.
    @Test func leaderBreakpointsAreWhereItsGroupsChange() throws {
        let x = try unitRows(randomMatrix(rows: 30, cols: 8, seed: 3))
        let order = SeededRandom.permutation(count: 30, seed: 5)
        let points = try #require(try LeaderAlgorithm.breakpoints(x, order: order, limit: 1000))
        #expect(points.count >= 29 && points == points.sorted(by: >) && Set(points).count == points.count)
        func groups(_ t: Double) throws -> [Int32] { try LeaderAlgorithm.group(x, threshold: t, order: order) }
        for (above, at) in zip([2.0] + points, points) {
            #expect(try groups((above + at) / 2) == groups(above) && groups(at) != groups((above + at) / 2), "at \(at)")
        }
        #expect(try Set(groups(points.last!)).count == 1)
        #expect(try LeaderAlgorithm.breakpoints(x, order: order, limit: 5) == nil)
    }
}
