import Foundation
import Testing
import ThemeLabCore
import ThemeLabCorpus
import ThemeLabMeasures
import ThemeLabMethods
import ThemeLabPairs

/// One suite over every grouping and every threshold rule (as scikit-learn's `parametrize_with_checks`
/// runs one over every estimator): the contract each must keep on ordinary and on degenerate inputs.
@Suite struct ConformanceTests {
    /// Every grouping of the registry, by its examples (both HDBSCAN selections, every Leiden and average-modularity form).
    static let groupingNames = groupingRegistry.examples
    /// Every threshold rule of the registry, by its examples.
    static let ruleNames = thresholdRuleRegistry.examples
    /// The groupings that promise the same partition whatever the order of the items, with the inputs they keep
    /// it on: HDBSCAN only up to ties, and its mutual-reachability weights tie on the random input (a core
    /// similarity is the weight of several edges), so there the tie-break by item number decides.
    static let orderFree: [(String, Input)] =
        ["components", "average", "average-k"].flatMap { [($0, .separated), ($0, .random)] }
        + ["hdbscan(3)", "hdbscan-leaf(3,2)"].map { ($0, .separated) }

    /// The inputs, in 16 dimensions (where noise-floor(4) = 4/√16 is still a similarity): two and three
    /// items (k = 3 neighbours is not below N) and six identical rows besides two ordinary ones.
    enum Input: String, CaseIterable, CustomTestStringConvertible, Sendable {
        case separated, random, twoItems, threeItems, identical

        var testDescription: String { rawValue }

        /// Unit rows and their topics.
        func vectors() throws -> (x: Matrix, topics: [Int32]) {
            switch self {
            case .separated:
                // Four topics of six along orthogonal axes, with small noise.
                var x = randomMatrix(rows: 24, cols: 16, seed: 21)
                for i in 0..<24 {
                    for k in 0..<16 { x[i, k] = (k == i / 6 ? 1 : 0) + 0.05 * x[i, k] }
                }
                return (try unitRows(x), (0..<24).map { Int32($0 / 6) })
            case .random: return (try unitRows(randomMatrix(rows: 20, cols: 16, seed: 22)), (0..<20).map { Int32($0 % 3) })
            case .twoItems: return (try unitRows(randomMatrix(rows: 2, cols: 16, seed: 23)), [0, 1])
            case .threeItems: return (try unitRows(randomMatrix(rows: 3, cols: 16, seed: 24)), [0, 0, 1])
            case .identical:
                let row = randomMatrix(rows: 1, cols: 16, seed: 25).storage
                return (try unitRows(Matrix(rows: 6, cols: 16, storage: Array((0..<6).map { _ in row }.joined()))), [0, 0, 0, 1, 1, 1])
            }
        }
    }

    /// The pass the analysis plans for `rules` and `groupings`, with the topics as labels.
    static func pass(_ x: Matrix, topics: [Int32], rules: [ThresholdRule] = [], groupings: [Grouping] = []) -> PassProducts {
        let needs = PassNeeds.of(rules: rules, groupings: groupings, items: x.rows)
        return PassPlan(needs: needs, exactHistogramPairLimit: 1 << 20).run(x, labels: topics, engine: PairEngine())
    }

    /// `g`'s cut as the analysis asks for it (`Grouping.cut`): at 0.5, into the number of topics, or at its own cuts.
    static func cut(_ g: Grouping, _ x: Matrix, topics: [Int32]) throws -> GroupingCut {
        let target: GroupingRequest.Target =
            switch g.kind {
            case .threshold: .threshold(0.5)
            case .cutsItself: .ownCuts
            case .labelInformedReference: .topics(groupCount(topics))
            }
        let request = GroupingRequest(target: target, order: Array(0..<x.rows), labels: topics, shuffles: 2, seed: 1)
        return try g.cut(request, in: pass(x, topics: topics, groupings: [g]))
    }

    /// `rule`'s threshold, and why there is none, in the context the analysis builds from its pass.
    static func threshold(_ rule: ThresholdRule, _ x: Matrix, topics: [Int32]) throws -> (value: Double?, why: String?) {
        let pass = pass(x, topics: topics, rules: [rule])
        let tree = pass.gathered.averageLinkage ? try pass.dendrogram().get() : nil
        let context = ThresholdContext(
            distribution: pass.distribution, dimensions: x.cols, exactCoarse: pass.exactCoarse,
            neighbours: pass.gathered.neighbours > 0 ? try pass.nearestNeighbours() : nil,
            silhouettes: tree.map { CriterionCurve.silhouettes(vectors: x, dendrogram: $0) })
        let answer = rule.answer(in: context)
        #expect(disagreement(rule, context) == nil)
        return (answer.value, answer.reason)
    }

    /// How `rule`'s two ways of answering disagree in `context` (`answer(in:)` against `threshold(in:)` and
    /// `whyNoThreshold(in:)`), or nil when they agree.
    static func disagreement(_ rule: ThresholdRule, _ context: ThresholdContext) -> String? {
        let answer = rule.answer(in: context)
        if rule.threshold(in: context) != answer.value {
            return "\(rule.name): answer(in:) gives \(answer), threshold(in:) \(String(describing: rule.threshold(in: context)))"
        }
        if answer.value == nil && rule.whyNoThreshold(in: context) != answer.reason {
            return "\(rule.name): answer(in:) and whyNoThreshold(in:) give two reasons"
        }
        return nil
    }

    /// A rule that answers one thing and thresholds another, and one with two reasons: `disagreement` catches both.
    @Test func aRuleWhoseAnswerAndThresholdDisagreeIsCaught() throws {
        struct Broken: ThresholdRule {
            var name: String
            var threshold: Double?
            var said: RuleAnswer
            func threshold(in context: ThresholdContext) -> Double? { threshold }
            func whyNoThreshold(in context: ThresholdContext) -> String { "one reason" }
            func answer(in context: ThresholdContext) -> RuleAnswer { said }
        }
        let x = try unitRows(randomMatrix(rows: 12, cols: 4, seed: 1))
        let context = ThresholdContext(distribution: Self.pass(x, topics: Array(repeating: 0, count: 12)).distribution, dimensions: 4)
        let values = Broken(name: "values", threshold: 0.3, said: .threshold(0.4))
        #expect(Self.disagreement(values, context) == "values: answer(in:) gives threshold(0.4), threshold(in:) Optional(0.3)")
        let reasons = Broken(name: "reasons", threshold: nil, said: .none(reason: "another reason"))
        #expect(Self.disagreement(reasons, context) == "reasons: answer(in:) and whyNoThreshold(in:) give two reasons")
        #expect(Self.disagreement(Broken(name: "agrees", threshold: 0.3, said: .threshold(0.3)), context) == nil)
    }

    /// Rows in a seeded random order, their topics with them, and the permutation (row r is item `order[r]`).
    static func shuffled(_ x: Matrix, topics: [Int32]) -> (x: Matrix, topics: [Int32], order: [Int]) {
        let order = SeededRandom.permutation(count: x.rows, seed: 31)
        return (x.rows(order), order.map { topics[$0] }, order)
    }

    /// Labels numbered 0..<groups without gaps, one per item; −1 (noise) only from HDBSCAN; a note when there
    /// are none; the same cut when asked twice.
    @Test(arguments: groupingNames, Input.allCases)
    func groupingGivesNumberedRepeatableLabels(_ name: String, _ input: Input) throws {
        let g = try grouping(named: name)
        let (x, topics) = try input.vectors()
        let cut = try Self.cut(g, x, topics: topics)
        let again = try Self.cut(g, x, topics: topics)
        #expect(cut.labels == again.labels && cut.note == again.note, "not the same cut twice")
        guard let labels = cut.labels else {
            #expect(cut.note?.isEmpty == false, "no labels and no note")
            return
        }
        #expect(labels.count == x.rows)
        #expect(Set(labels.filter { $0 >= 0 }) == Set(0..<Int32(groupCount(labels))), "groups are not numbered 0..<groups: \(labels)")
        #expect(labels.allSatisfy { $0 >= (g is HDBSCANGrouping ? -1 : 0) }, "labels below the noise label or noise where none may be")
    }

    /// 20 identical vectors (no spread at all) are one group under every grouping, whatever the order of its candidates:
    /// threshold groupings at 0.5 and at 1 (the largest threshold a rule gives, which float rounding can put above the
    /// similarities) as the analysis asks for them, references told there are two topics, selectors whose every score
    /// ties (they once split such a corpus into 2 to 20 groups).
    @Test(arguments: groupingNames)
    func identicalEntriesAreOneGroup(_ name: String) throws {
        let g = try grouping(named: name)
        let row = randomMatrix(rows: 1, cols: 16, seed: 26).storage
        let x = try unitRows(Matrix(rows: 20, cols: 16, storage: Array(repeating: row, count: 20).flatMap { $0 }))
        let topics = (0..<20).map { Int32($0 % 2) }
        let request = GroupingRequest(target: .ownCuts, order: Array(0..<20), labels: topics, shuffles: 2, seed: 1)
        let cuts =
            g.kind == .threshold
            ? try g.cuts(at: [0.5, 1], request, in: Self.pass(x, topics: topics, groupings: [g])) : [try Self.cut(g, x, topics: topics)]
        for cut in cuts { #expect(cut.labels == [Int32](repeating: 0, count: 20), "\(cut.labels ?? []) \(cut.note ?? "")") }
    }

    /// The same partition, up to renaming, when the rows come in another order.
    @Test(arguments: orderFree)
    func partitionIsInvariantToItemOrder(_ name: String, _ input: Input) throws {
        let g = try grouping(named: name)
        let (x, topics) = try input.vectors()
        let labels = try #require(try Self.cut(g, x, topics: topics).labels)
        let moved = Self.shuffled(x, topics: topics)
        let movedLabels = try #require(try Self.cut(g, moved.x, topics: moved.topics).labels)
        var back = [Int32](repeating: 0, count: x.rows)
        for (r, i) in moved.order.enumerated() { back[i] = movedLabels[r] }
        #expect(renumbered(back) == renumbered(labels))
    }

    /// The leader is order-dependent by design: it visits the items in `request.order`. At 0°, 40° and 80°
    /// with t = cos 50°, 40° joins whichever end comes first, and 80° (or 0°) is 60° from that centroid.
    @Test func leaderVisitsItemsInTheRequestedOrder() throws {
        let angles: [Double] = [0, 40, 80]
        let x = Matrix(rows: 3, cols: 2, storage: angles.flatMap { [Float(cos($0 * .pi / 180)), Float(sin($0 * .pi / 180))] })
        let leader = LeaderGrouping()
        func labels(_ order: [Int]) throws -> [Int32]? {
            try leader.groups(GroupingRequest(target: .threshold(cos(50 * .pi / 180)), order: order), in: Self.pass(x, topics: [0, 0, 1]))
                .labels
        }
        #expect(try labels([0, 1, 2]) == [0, 0, 1])
        #expect(try labels([2, 1, 0]) == [1, 0, 0])
        #expect(try labels([2, 1, 0]) == labels([2, 1, 0]))
    }

    /// A finite threshold within [−1, 1] or none with a reason, the same twice.
    @Test(arguments: ruleNames, Input.allCases)
    func ruleGivesARepeatableThresholdInRange(_ name: String, _ input: Input) throws {
        let rule = try thresholdRule(named: name)
        let (x, topics) = try input.vectors()
        let (value, why) = try Self.threshold(rule, x, topics: topics)
        let again = try Self.threshold(rule, x, topics: topics)
        #expect(value == again.value && why == again.why, "not the same threshold twice")
        if let value {
            #expect(value.isFinite && abs(value) <= 1 + 1e-6, "threshold \(value) is not a similarity")
        } else {
            #expect(why?.isEmpty == false, "no threshold and no reason")
        }
    }

    /// Rules read pair statistics or neighbour lists only: the same threshold whatever the order of the rows.
    @Test(arguments: ruleNames, [Input.separated, .random])
    func thresholdIsInvariantToItemOrder(_ name: String, _ input: Input) throws {
        let rule = try thresholdRule(named: name)
        let (x, topics) = try input.vectors()
        let moved = Self.shuffled(x, topics: topics)
        #expect(try Self.threshold(rule, x, topics: topics).value == Self.threshold(rule, moved.x, topics: moved.topics).value)
    }
}
