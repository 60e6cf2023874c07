import Foundation
import Testing

@testable import ThemeLabCLI
@testable import ThemeLabCore
@testable import ThemeLabMeasures
@testable import ThemeLabMethods
@testable import ThemeLabPairs
@testable import ThemeLabReport
@testable import ThemeLabStudy

/// The claims C1–C9: every verdict of each claim on hand-made analyses and replays, with its reason, and the committed
/// report's claims table and replay verdicts are what the claims decide from the committed results.
@Suite struct ClaimTests {
    // MARK: hand-made analyses

    /// An estimate over `n` replicates with this interval.
    func interval(_ low: Double, _ high: Double, n: Int = 10) -> Estimate {
        Estimate(n: n, mean: (low + high) / 2, sd: (high - low) / 4, low: low, high: high)
    }

    /// Pair statistics of one class: its count, p1, median and p99 (the claims read no other).
    func statistics(_ p1: Double, _ median: Double, _ p99: Double, count: Int = 20) -> PairStatistics {
        var pairs = PairAccumulator(bins: 1)
        pairs.count = count
        return PairStatistics(accumulator: pairs, quantile: { [0.01: p1, 0.99: p99][$0] ?? median }, errorBound: 0)
    }

    func space(
        _ space: EmbeddingSpace, _ statistics: [PairClass: PairStatistics] = [:], thresholds: [ThresholdOutcome] = [],
        groupings: [GroupingOutcome] = []
    ) -> SpaceAnalysis {
        SpaceAnalysis(
            space: space, quantileMethod: "exact", thresholdHistogram: "exact", statistics: statistics, separation: nil,
            thresholds: thresholds, groupings: groupings, ceilings: nil, histogram: [:])
    }

    /// A labeled corpus of 26 items; with `replicates`, estimates over that many (for the paired quantities).
    func analysis(_ spaces: [SpaceAnalysis], topics: Int = 6, share: Double = 0.2, replicates: Int? = nil) -> CorpusAnalysis {
        var a = CorpusAnalysis(
            corpus: .init(name: "hand-made", items: 26, topics: topics, labeled: true, relatedPairShare: share), source: "vectors",
            dimensions: 384, spaces: spaces, notes: [])
        a.replicates = replicates.map { ReplicateSet(count: $0, scheme: "by hand", items: interval(20, 20, n: $0)) }
        return a
    }

    func threshold(_ rule: ThresholdRule, _ value: Double, replicates: Estimate? = nil) -> ThresholdOutcome {
        ThresholdOutcome(rule: rule.key, value: value, labelInformed: rule.isLabelInformed, replicates: replicates)
    }

    func outcome(
        _ grouping: Grouping, _ rule: ThresholdRule, groups: Int = 4, ari: Double = 0, replicateARI: [Double?]? = nil,
        groupsInterval: Estimate? = nil
    ) -> GroupingOutcome {
        var recovery = Recovery(topics: [0, 0, 1, 1], groups: [0, 0, 1, 1])
        recovery.ari = ari
        var row = GroupingOutcome(
            grouping: grouping.key, rule: rule.key, threshold: 0.2, labelInformed: rule.isLabelInformed, groups: groups,
            recovery: recovery, spread: nil, note: nil)
        row.replicateARI = replicateARI
        row.replicates = groupsInterval.map { [.groups: $0] }
        return row
    }

    /// The claim's row on `a` has this verdict and reason.
    func expect(
        _ claim: any CorpusClaim.Type, _ a: CorpusAnalysis, _ verdict: Verdict, _ reason: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let row = claim.row(a, PairedReplicates(a, seed: 0))
        #expect(row?.verdict == verdict, sourceLocation: sourceLocation)
        #expect(row?.reason == reason, sourceLocation: sourceLocation)
    }

    // MARK: C1–C6, one corpus analysis each

    @Test func c1HoldsOnANarrowHighBandOnly() {
        func raw(_ p1: Double, _ median: Double, _ p99: Double, p1Interval: Estimate? = nil) -> CorpusAnalysis {
            var s = space(.raw, [.unrelated: statistics(p1, median, p99)])
            s.replicateStatistics = p1Interval.map { [.unrelated: [.p1: $0]] }
            return analysis([s])
        }
        let claim = C1NarrowRawBand.self
        expect(claim, raw(0.86, 0.9, 0.94), .holds, "unrelated pairs all high and within a narrow band")
        expect(claim, raw(0.6, 0.7, 0.9), .partly, "high but wide band")
        expect(claim, raw(-0.09, 0.07, 0.39), .doesNotHold, "unrelated raw cosines are not high (median 0.070)")
        expect(
            claim, raw(0.86, 0.9, 0.94, p1Interval: interval(0.75, 0.9)), .inconclusive,
            "unrelated pairs all high and within a narrow band; holds at this corpus's figures, partly inside the intervals")
        let noRaw = analysis([space(.centred)])
        #expect(claim.row(noRaw, PairedReplicates(noRaw, seed: 0)) == nil, "no raw space, no row")
    }

    @Test func c2HoldsWhenCentringCentresAndWidensTheBand() throws {
        /// Raw unrelated band 0.86–0.94; centred: the given median and band, related p99 0.5.
        func spaces(median: Double, band: Double, bandValues: (raw: [Double?], centred: [Double?])? = nil) -> [SpaceAnalysis] {
            var (raw, centred) = (
                space(.raw, [.unrelated: statistics(0.86, 0.9, 0.94)]),
                space(.centred, [.unrelated: statistics(median - band / 2, median, median + band / 2), .related: statistics(0, 0.3, 0.5)])
            )
            if let bandValues {
                raw.replicateSeparation = [.bandWidth: Estimate(n: 4, mean: 0, sd: 0, low: 0, high: 0, values: bandValues.raw)]
                centred.replicateSeparation = [.bandWidth: Estimate(n: 4, mean: 0, sd: 0, low: 0, high: 0, values: bandValues.centred)]
            }
            return [raw, centred]
        }
        let claim = C2CentringSpreads.self
        expect(claim, analysis(spaces(median: -0.036, band: 0.4)), .holds, "unrelated centred near 0; band widened")
        expect(claim, analysis(spaces(median: -0.1, band: 0.4)), .partly, "unrelated median not near 0; band widened")
        expect(claim, analysis(spaces(median: -0.1, band: 0.05)), .doesNotHold, "unrelated median not near 0; band did not widen")
        // The widening is paired per replicate: +0.1 on two, −0.05 on the other two, so its interval straddles 0.
        let paired = analysis(
            spaces(median: -0.036, band: 0.4, bandValues: ([0.1, 0.1, 0.1, 0.1], [0.2, 0.05, 0.2, 0.05])), replicates: 4)
        expect(
            claim, paired, .inconclusive,
            "unrelated centred near 0; band widened; holds at this corpus's figures, partly inside the intervals")
        let row = try #require(claim.row(paired, PairedReplicates(paired, seed: 0)))
        #expect(row.ours == "unrelated median -0.036, related p99 0.500; band 0.080 → 0.400")
        #expect(row.quantities == "centred unrelated median -0.036; band widening (centred − raw) 0.025 [-0.050, 0.100] (own draw 0.320 ‡)")
    }

    @Test func c3HoldsWhenTheFixedThresholdMakesTwiceTheTopics() {
        let claim = C3FixedThresholdOverSplits.self
        func leader(_ groups: Int, topics: Int, interval: Estimate? = nil) -> CorpusAnalysis {
            analysis(
                [space(.centred, groupings: [outcome(LeaderGrouping(), claim.rule, groups: groups, groupsInterval: interval)])],
                topics: topics)
        }
        expect(claim, leader(26, topics: 6), .holds, "more groups than topics")
        expect(claim, leader(8, topics: 6), .partly, "more groups than topics")
        expect(claim, leader(6, topics: 6), .doesNotHold, "no over-splitting")
        expect(
            claim, leader(8, topics: 8, interval: interval(8, 8.3)), .inconclusive,
            "no over-splitting; does not hold at this corpus's figures, partly inside the intervals")
    }

    @Test func c4HoldsWhenTheFloorIsBelowP90AndComponentsUnderSplit() throws {
        let claim = C4NoiseFloorUnderSplits.self
        func centred(floor: Double, p90: Double, groups: Int, topics: Int, p90Interval: Estimate? = nil) -> CorpusAnalysis {
            analysis(
                [
                    space(
                        .centred, thresholds: [threshold(claim.rule, floor), threshold(claim.percentile, p90, replicates: p90Interval)],
                        groupings: [outcome(SingleLinkageComponents(), claim.rule, groups: groups)])
                ], topics: topics)
        }
        expect(claim, centred(floor: 0.177, p90: 0.3, groups: 2, topics: 6), .holds, "floor below p90; fewer groups than topics")
        expect(claim, centred(floor: 0.204, p90: 0.166, groups: 2, topics: 10), .partly, "floor above p90; fewer groups than topics")
        expect(
            claim, centred(floor: 0.204, p90: 0.1, groups: 11, topics: 4), .doesNotHold, "floor above p90; not fewer groups than topics")
        let unsure = centred(floor: 0.204, p90: 0.25, groups: 2, topics: 6, p90Interval: interval(0.19, 0.26))
        expect(
            claim, unsure, .inconclusive,
            "floor below p90; fewer groups than topics; holds at this corpus's figures, partly inside the intervals")
        let row = try #require(claim.row(unsure, PairedReplicates(unsure, seed: 0)))
        #expect(row.ours == "4/√d 0.204 vs p90 0.250; components 2 groups (6 topics)")
        #expect(row.quantities == "p90 − 4/√d 0.021 [-0.014, 0.056] (own draw 0.046); components groups at 4/√d 2.000")
    }

    @Test func c5HoldsWhereP90LosesToTheOracleAndTheShareIsNotATenth() throws {
        let claim = C5PercentileNeedsATenth.self
        func average(share: Double, oracle: Double, p90: Double, replicates: ([Double?], [Double?])? = nil) -> CorpusAnalysis {
            analysis(
                [
                    space(
                        .centred,
                        groupings: [
                            outcome(AverageLinkageCut(), claim.rule, ari: p90, replicateARI: replicates?.1),
                            outcome(AverageLinkageCut(), claim.oracle, ari: oracle, replicateARI: replicates?.0),
                        ])
                ], share: share, replicates: replicates?.0.count)
        }
        expect(claim, average(share: 0.2, oracle: 0.9, p90: 0.5), .holds, "p90 loses 0.400 ARI")
        expect(claim, average(share: 0.02, oracle: 0.6, p90: 0.55), .doesNotHold, "p90 within 0.1 ARI of the oracle")
        expect(claim, average(share: 0.12, oracle: 0.9, p90: 0.1), .shareNearTenth, "share close to the assumed tenth")
        // The loss is paired per replicate: 0 on two, 0.3 on the other two.
        let unsure = average(share: 0.2, oracle: 0.9, p90: 0.7, replicates: ([0.9, 0.9, 0.9, 0.9], [0.9, 0.6, 0.9, 0.6]))
        expect(claim, unsure, .inconclusive, "p90 loses 0.200 ARI; holds at this corpus's figures, does not hold inside the intervals")
        let row = try #require(claim.row(unsure, PairedReplicates(unsure, seed: 0)))
        #expect(row.verdict.description == "inconclusive" && Verdict.shareNearTenth.description == "n/a (share ≈ 10%)")
        #expect(row.quantities == "oracle ARI − p90 ARI (average) 0.150 [0.000, 0.300] (own draw 0.200)")
    }

    @Test func c6HoldsWhenOtsuSeparatesTheClassesExactly() {
        let claim = C6OtsuFindsTheValley.self
        func otsu(above: Int, relatedAbove: Int, components: Int, ari: Double, groupsInterval: Estimate? = nil) -> CorpusAnalysis {
            var t = threshold(claim.rule, 0.333)
            (t.pairsAbove, t.relatedAbove) = (above, relatedAbove)
            return analysis(
                [
                    space(
                        .centred, [.related: statistics(0.2, 0.4, 0.6, count: 13)], thresholds: [t],
                        groupings: [
                            outcome(SingleLinkageComponents(), claim.rule, groups: components, ari: ari, groupsInterval: groupsInterval),
                            outcome(AverageLinkageCut(), claim.rule, groups: 4, ari: ari),
                        ])
                ], topics: 4)
        }
        expect(claim, otsu(above: 13, relatedAbove: 13, components: 4, ari: 1), .holds, "separates related from unrelated exactly")
        expect(claim, otsu(above: 14, relatedAbove: 7, components: 2, ari: 0.93), .partly, "related and unrelated overlap at Otsu's cut")
        expect(
            claim, otsu(above: 14, relatedAbove: 7, components: 1, ari: 0.06), .doesNotHold, "related and unrelated overlap at Otsu's cut")
        expect(
            claim, otsu(above: 13, relatedAbove: 13, components: 4, ari: 1, groupsInterval: interval(4, 5)), .inconclusive,
            "separates related from unrelated exactly; holds at this corpus's figures, partly inside the intervals")
    }

    // MARK: C7, on theme sums

    @Test func c7HoldsWhenThemeSumsGiveTheSameBits() {
        func sums(_ difference: Double, replicates: Estimate? = nil) -> ClaimsReport.Row {
            var r = ThemeSumsResult(
                corpus: "seed-26", source: "vectors", identicalBits: difference == 0, maxAbsDifference: difference)
            r.replicates = replicates
            return C7ThemeSumsGiveTheMean.row(r)
        }
        let reason = "Float64 sums of Float32 vectors"
        #expect(sums(0).verdict == .holds && sums(0).reason == reason)
        #expect(sums(2.2e-16).verdict == .partly && sums(2.2e-16).reason == reason)
        #expect(sums(1e-6).verdict == .doesNotHold && sums(1e-6).reason == reason)
        let unsure = sums(0, replicates: Estimate(n: 10, mean: 1e-16, sd: 1e-16, low: 0, high: 4.4e-16))
        #expect(
            unsure.verdict == .inconclusive && unsure.reason == reason + "; holds at this corpus's figures, partly inside the intervals")
        #expect(
            sums(2.2e-16).ours == "largest absolute difference 2.2e-16"
                && unsure.quantities.hasSuffix("1.0e-16 [0.0e+00, 4.4e-16] (own draw 0.0e+00)"))
    }

    // MARK: C8 and C9, on hand-made replays

    /// A timeline over five saves: ARI against the labels, largest-group share, staleness and work per save.
    func timeline(
        ari: [Double], largest: [Double] = [0.2, 0.2, 0.2, 0.2, 0.2], staleness: Double = 1, work: Double = 10
    )
        -> JournalReplay.Timeline
    {
        var t = JournalReplay.Timeline()
        (t.ari, t.largestShare) = (ari, largest)
        (t.staleness, t.groups, t.regroups) = ([Double](repeating: staleness, count: 5), [2, 2, 3, 3, 4], [1, 1, 2, 2, 3])
        (t.work, t.seconds) = ((1...5).map { Double($0) * work }, [0, 0, 0, 0, 0])
        return t
    }

    /// One rule's results over orders: always-regroup (ARI 1 throughout), then per order never's and the journal method's timelines.
    func replay(never: [JournalReplay.Timeline], journalMethod: [JournalReplay.Timeline]? = nil) -> RuleResult {
        let always = timeline(ari: [1, 1, 1, 1, 1])
        let journalMethod = journalMethod ?? never.map { _ in timeline(ari: [1, 1, 1, 1, 1], work: 1) }
        return RuleResult(
            rule: "otsu", policies: ["always", "never", C9JournalMethodPolicySuffices.policy.name],
            timelines: zip(never, journalMethod).map { [always, $0, $1] }, initial: 2, points: 5, seed: 0)
    }

    @Test func c8HoldsWhenNeverFallsFurtherBehindAndItsLargestGroupGrows() throws {
        let falling = [1, 0.9, 0.8, 0.7, 0.5]
        let growing = [0.2, 0.2, 0.3, 0.4, 0.6]
        let holds = try #require(replay(never: .init(repeating: timeline(ari: falling, largest: growing), count: 3)).c8)
        #expect(holds.verdict == .holds)
        #expect(holds.gapFinal.mean.isApproximatelyEqual(to: 0.5, absoluteTolerance: 1e-12))
        #expect(holds.gapGrowth.mean.isApproximatelyEqual(to: 0.4, absoluteTolerance: 1e-12))
        #expect(holds.magnetGrowth.mean.isApproximatelyEqual(to: 0.4, absoluteTolerance: 1e-12))
        #expect(replay(never: .init(repeating: timeline(ari: falling), count: 3)).c8?.verdict == .inPart)
        #expect(replay(never: .init(repeating: timeline(ari: [1, 1, 1, 1, 1], largest: growing), count: 3)).c8?.verdict == .inPart)
        let catchingUp = timeline(ari: [1, 0.5, 0.6, 0.7, 0.8], largest: [0.2, 0.5, 0.4, 0.3, 0.3])
        #expect(replay(never: .init(repeating: catchingUp, count: 3)).c8?.verdict == .doesNotHold)
        // The gap grows by 0.2 on two orders and shrinks by 0.2 on the third.
        let mixed = [timeline(ari: [1, 1, 1, 1, 0.8]), timeline(ari: [1, 0.8, 1, 1, 1]), timeline(ari: [1, 1, 1, 1, 0.8])]
        #expect(replay(never: mixed).c8?.verdict == .inconclusive)
        #expect(Verdict.inPart.description == "in part")
    }

    @Test func c9HoldsWhenTheJournalMethodPolicyStaysFreshAtAFractionOfTheWork() throws {
        let never = [JournalReplay.Timeline](repeating: timeline(ari: [1, 1, 1, 1, 1]), count: 3)
        func journalMethod(staleness: [Double], work: Double) -> [JournalReplay.Timeline] {
            staleness.map { timeline(ari: [1, 1, 1, 1, 0.9], staleness: $0, work: work) }
        }
        let holds = try #require(replay(never: never, journalMethod: journalMethod(staleness: [0.95, 0.95, 0.95], work: 1)).c9)
        #expect(holds.verdict == .holds && holds.policy == "app(1.5,0.01)")
        #expect(holds.workShare.mean.isApproximatelyEqual(to: 0.1, absoluteTolerance: 1e-12))
        #expect(holds.finalAriLoss.mean.isApproximatelyEqual(to: 0.1, absoluteTolerance: 1e-12))
        #expect(
            replay(never: never, journalMethod: journalMethod(staleness: [0.95, 0.95, 0.95], work: 5)).c9?.verdict == .doesNotHold,
            "half the work")
        #expect(
            replay(never: never, journalMethod: journalMethod(staleness: [0.5, 0.5, 0.5], work: 1)).c9?.verdict == .doesNotHold, "stale")
        #expect(replay(never: never, journalMethod: journalMethod(staleness: [0.85, 0.95, 0.95], work: 1)).c9?.verdict == .inconclusive)
    }

    // MARK: the committed results

    /// The claims table of results/claims.md, verbatim, from the committed results of the experiments it tabulates (those
    /// of Experiments/ in file-name order, less the replays and the layout's `notTabulated`, as `themelab reproduce` runs
    /// them), and C7's row from the figures REPORT.md states (the run keeps them nowhere else).
    @Test func committedClaimsTableIsWhatTheClaimsDecide() throws {
        let root = ReproducibilityTests.root
        let layout = try ReportLayout.read(path: root + "/Experiments/report/layout.json")
        let names = try FileManager.default.contentsOfDirectory(atPath: root + "/Experiments").filter { $0.hasSuffix(".json") }.sorted()
            .map { String($0.dropLast(5)) }
            .filter { !layout.notTabulated.contains($0) && !ReplayPlan.isReplay(path: root + "/Experiments/\($0).json") }
            .filter { !SizePlan.isSize(path: root + "/Experiments/\($0).json") }
        #expect(names == ["clinc150", "rules-tuning", "rules", "seeds", "synthetic", "wordnet"])
        let experiments = try names.map {
            try JSONOutput.read(AnalysisResults.self, path: root + "/results/\($0)/\($0).json", expected: "results")
        }
        let source = try #require(experiments.lazy.flatMap(\.analyses).first { $0.corpus.name == layout.themeSums }?.source)
        var themeSums = ThemeSumsResult(corpus: layout.themeSums, source: source, identicalBits: true, maxAbsDifference: 0)
        (themeSums.replicates, themeSums.identicalReplicates) = (Estimate(n: 10, mean: 0, sd: 0, low: 0, high: 0), 10)
        let rows = ClaimsReport.rows(experiments) + [C7ThemeSumsGiveTheMean.row(themeSums)]
        #expect(Set(rows.map(\.claim)) == ["C1", "C2", "C3", "C4", "C5", "C6", "C7"] && rows.count > 100)
        let claims = try String(contentsOfFile: root + "/results/claims.md", encoding: .utf8)
        #expect(claims.contains(ClaimsReport.markdown(rows)), "the claims table differs from results/claims.md")
    }

    /// The C8 and C9 verdicts of the committed replay are what the claims decide from its committed figures.
    @Test func committedReplayVerdictsAreWhatTheClaimsDecide() throws {
        let path = ReproducibilityTests.root + "/results/replay/replay.json"
        let replay = try JSONOutput.read(ReplayResults.self, path: path, expected: "replay results")
        let rules = replay.journals.flatMap(\.rules)
        #expect(rules.count > 10 && rules.allSatisfy { $0.c8 != nil && $0.c9 != nil })
        for rule in rules {
            let (c8, c9) = (rule.c8!, rule.c9!)
            #expect(C8IncrementalDrifts.verdict(gapGrowth: c8.gapGrowth, magnetGrowth: c8.magnetGrowth) == c8.verdict)
            #expect(C9JournalMethodPolicySuffices.verdict(meanStaleness: c9.meanStaleness, workShare: c9.workShare) == c9.verdict)
        }
    }
}

extension ClaimTests {
    /// A verdict that flips inside a figure's interval is inconclusive; without replicates the point decides.
    @Test func claimVerdictsThatFlipInsideTheIntervalAreInconclusive() {
        let verdict = { (x: [Double]) -> Verdict in x[0] > 0.1 ? .holds : .doesNotHold }
        let sure = ClaimsReport.decide([.init("loss", 0.3, Estimate(n: 10, mean: 0.3, sd: 0.05, low: 0.2, high: 0.4))], verdict)
        #expect(sure.verdict == .holds && sure.flips == nil)
        let unsure = ClaimsReport.decide([.init("loss", 0.15, Estimate(n: 10, mean: 0.15, sd: 0.1, low: 0.05, high: 0.25))], verdict)
        #expect(unsure.verdict == .inconclusive && unsure.flips == "holds at this corpus's figures, does not hold inside the intervals")
        #expect(ClaimsReport.decide([.init("loss", 0.15)], verdict).verdict == .holds, "no replicates: the point decides")
    }
}
