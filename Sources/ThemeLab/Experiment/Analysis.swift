import Foundation

/// What to compute for one corpus and one set of vectors.
public struct AnalysisSettings: Codable, Sendable, Equatable {
    public var spaces: [String] = ["raw", "centred"]
    public var thresholds: [String] = standardThresholdRules
    public var groupings: [String] = GroupingMethod.allCases.map(\.rawValue)
    /// Seeded shuffles for the leader grouping's spread.
    public var shuffles: Int = 10
    public var seed: UInt64 = 0
    /// Above this many pairs Otsu and Kittler–Illingworth read their histogram off the fine
    /// one (a pair within 3.1e-5 of a bin edge may land one bin off) instead of a second pass.
    public var exactHistogramPairLimit: Int = 1_250_000_000

    public init() {}
}

/// The harness's answer for one corpus × vector source: per space, the distribution,
/// separation, every threshold and every grouping's recovery.
public struct CorpusAnalysis: Codable, Sendable {
    public struct CorpusSummary: Codable, Sendable, Equatable {
        public var name: String
        public var items: Int
        public var topics: Int?
        public var labeled: Bool
        /// Same-topic pairs / all pairs.
        public var relatedPairShare: Double?
    }
    public var corpus: CorpusSummary
    /// The encoder and layer, or the embeddings file, the vectors came from.
    public var source: String
    public var dimensions: Int
    public var spaces: [SpaceAnalysis]
    public var notes: [String]
}

public struct SpaceAnalysis: Codable, Sendable {
    public var space: String
    public var quantileMethod: String
    /// How the 256-bin histogram Otsu and Kittler–Illingworth read was counted (optional, so
    /// results and baselines written before it still load).
    public var thresholdHistogram: String?
    public var statistics: [String: PairStatistics]
    public var separation: Separation?
    public var thresholds: [ThresholdOutcome]
    public var groupings: [GroupingOutcome]
    /// Per threshold grouping, the best ARI any threshold gives (labeled corpora only; optional
    /// for the same reason).
    public var ceilings: [Ceiling]?
    /// Counts per class over 200 equal bins on [-1, 1], for plots.
    public var histogram: [String: [Int]]
}

public struct ThresholdOutcome: Codable, Sendable, Equatable {
    public var rule: String
    public var value: Double?
    public var labelInformed: Bool
    /// Pairs with similarity ≥ the threshold, and how many of them are related.
    public var pairsAbove: Int?
    public var relatedAbove: Int?
    /// Why there is no value.
    public var note: String?
}

public struct GroupingOutcome: Codable, Sendable, Equatable {
    public var grouping: String
    /// The threshold rule and its value (nil for the k = topics references).
    public var rule: String?
    public var threshold: Double?
    public var labelInformed: Bool
    public var groups: Int?
    public var recovery: Recovery?
    /// Leader only: the metrics over seeded shuffles of the visiting order.
    public var spread: LeaderSpread?
    /// Why a cell is N/A.
    public var note: String?
}

/// The best ARI any threshold gives a grouping (label-informed): what a rule's regret is
/// measured against.
public struct Ceiling: Codable, Sendable, Equatable {
    public var grouping: String
    /// Which thresholds were tried.
    public var search: String
    public var threshold: Double
    public var ari: Double
    public var groups: Int

    init(grouping: String, search: String, _ cut: BestCut) {
        self.grouping = grouping
        self.search = search
        threshold = cut.threshold
        ari = cut.ari
        groups = cut.groups
    }
}

public struct LeaderSpread: Codable, Sendable, Equatable {
    public struct Summary: Codable, Sendable, Equatable {
        public var mean: Double, std: Double, min: Double, max: Double
        init(_ v: [Double]) {
            mean = v.reduce(0, +) / Double(v.count)
            let m = mean
            std = (v.reduce(0) { $0 + ($1 - m) * ($1 - m) } / Double(v.count)).squareRoot()
            min = v.min()!
            max = v.max()!
        }
    }
    public var shuffles: Int
    public var groups: Summary
    public var ari: Summary?
    public var nmi: Summary?
    public var pairF1: Summary?
}

/// Runs every space × threshold × grouping on one corpus and its raw vectors.
public struct Analysis {
    public var settings: AnalysisSettings
    public var engine = PairEngine()
    public var log: (String) -> Void = { _ in }

    public init(settings: AnalysisSettings) { self.settings = settings }

    public func run(corpus: Corpus, vectors: Matrix, source: String) throws -> CorpusAnalysis {
        guard corpus.count == vectors.rows else {
            throw ThemeLabError.input("corpus '\(corpus.name)' has \(corpus.count) items but the vectors have \(vectors.rows) rows")
        }
        guard vectors.rows >= 2 else { throw ThemeLabError.input("corpus '\(corpus.name)' has \(vectors.rows) item; pairs need at least 2") }
        let spaces = try settings.spaces.map(EmbeddingSpace.init(name:))
        let rules = try settings.thresholds.map(thresholdRule(named:))
        let groupings = try settings.groupings.map(GroupingMethod.init(name:))
        let labels = corpus.labelIndices()
        var notes: [String] = []
        if labels == nil { notes.append("no labels: distributions and thresholds only; no recovery metrics, no label-informed rules") }
        let topics = labels.map { Int($0.max()!) + 1 }
        if topics == 1 { notes.append("one topic: every pair is related; unrelated statistics and AUC are N/A") }
        let n = vectors.rows
        let order = corpus.items.indices.sorted { (corpus.items[$0].order ?? $0, $0) < (corpus.items[$1].order ?? $1, $1) }
        // Bad vectors fail the run; a space that cannot be built for this corpus (whitening with
        // fewer items than dimensions) is skipped with a note.
        _ = try EmbeddingSpace.raw.transform(vectors) { "\(corpus.name): item '\(corpus.items[$0].id)'" }
        var results: [SpaceAnalysis] = []
        for space in spaces {
            log("\(corpus.name): \(space) space")
            let x: Matrix
            do {
                x = try space.transform(vectors) { "\(corpus.name): item '\(corpus.items[$0].id)'" }
            } catch {
                notes.append("\(space) space skipped: \(error)")
                continue
            }
            results.append(try analyzeSpace(space, x, labels: labels, topics: topics, rules: rules, groupings: groupings, order: order))
        }
        return CorpusAnalysis(
            corpus: .init(name: corpus.name, items: n, topics: topics, labeled: labels != nil, relatedPairShare: corpus.relatedPairShare),
            source: source, dimensions: vectors.cols, spaces: results, notes: notes)
    }

    func analyzeSpace(_ space: EmbeddingSpace, _ x: Matrix, labels: [Int32]?, topics: Int?, rules: [ThresholdRule],
                      groupings: [GroupingMethod], order: [Int]) throws -> SpaceAnalysis {
        // One pass: the distribution, the spanning forest (components at any threshold), the
        // average-linkage matrix and the nearest neighbours the rules read.
        let forest = groupings.contains(.components) ? SpanningForest(items: x.rows) : nil
        var linkage: AverageLinkage?
        var linkageNote: String?
        if groupings.contains(.average) || groupings.contains(.averageK) || rules.contains(where: \.needsDendrogram) {
            do { linkage = try AverageLinkage(items: x.rows) } catch { linkageNote = "\(error)" }
        }
        // A rule reading k neighbours needs k < N; on a smaller corpus its cells are N/A (below).
        let k = rules.map(\.neighbours).filter { $0 < x.rows }.max() ?? 0
        let neighbours = k > 0 ? NearestNeighbours(items: x.rows, k: k) : nil
        let consumers = [forest as PairConsumer?, linkage, neighbours].compactMap { $0 }
        let distribution = engine.run(x, labels: labels, consumers: consumers)
        let tree = linkage?.dendrogram()
        // Otsu and Kittler–Illingworth read numpy's 256-bin histogram; counting it exactly takes a
        // second pass, which large corpora skip (the fine histogram then places it, see `thresholdHistogram`).
        var exactCoarse: CoarseHistogram?
        if distribution.sortedValues(.all) == nil, distribution.all.count > 0, distribution.all.count <= settings.exactHistogramPairLimit {
            let counting = CoarseHistogramPass(minimum: Double(distribution.all.min), maximum: Double(distribution.all.max), bins: 256)
            _ = engine.run(x, labels: labels, consumers: [counting])
            exactCoarse = counting.histogram
        }
        let context = ThresholdContext(distribution: distribution, dimensions: x.cols, exactCoarse: exactCoarse, neighbours: neighbours,
                                       vectors: x, dendrogram: tree)
        let usable = rules.filter { !$0.isLabelInformed || labels != nil }
        let observed = usable.contains(where: \.isDataDerived)
            ? ThresholdPlacement.observedValues(pairs: distribution.sortedValues(.all), forest: forest?.edges.map(\.w) ?? [],
                                                merges: tree?.merges.map(\.similarity) ?? []) : []
        let thresholds = usable.map { rule in
            guard rule.neighbours < x.rows else {
                return ThresholdOutcome(rule: rule.name, value: nil, labelInformed: rule.isLabelInformed,
                                        note: "k = \(rule.neighbours) neighbours needs more than \(rule.neighbours) items; this corpus has \(x.rows)")
            }
            let value = rule.threshold(in: context).map { rule.isDataDerived ? ThresholdPlacement.midGap($0, observed: observed) : $0 }
            return ThresholdOutcome(rule: rule.name, value: value, labelInformed: rule.isLabelInformed,
                                    pairsAbove: value.map { distribution.count(.all, atLeast: $0) },
                                    relatedAbove: value.flatMap { distribution.isLabeled ? distribution.count(.related, atLeast: $0) : nil },
                                    note: value == nil ? rule.whyNoThreshold(in: context) : nil)
        }

        func outcome(_ grouping: GroupingMethod, _ t: ThresholdOutcome?, _ assignment: [Int32]?, note: String? = nil, spread: LeaderSpread? = nil) -> GroupingOutcome {
            GroupingOutcome(grouping: grouping.rawValue, rule: t?.rule, threshold: t?.value,
                            labelInformed: grouping.isLabelInformed || (t?.labelInformed ?? false),
                            groups: assignment.map { Set($0).count },
                            recovery: assignment.flatMap { a in labels.map { Recovery(topics: $0, groups: a) } },
                            spread: spread, note: note)
        }
        var rows: [GroupingOutcome] = []
        for grouping in groupings where !grouping.isLabelInformed {
            for t in thresholds {
                guard let value = t.value else {
                    rows.append(outcome(grouping, t, nil, note: t.note))
                    continue
                }
                switch grouping {
                case .components:
                    rows.append(outcome(grouping, t, forest!.labels(atLeast: value)))
                case .average:
                    rows.append(tree.map { outcome(grouping, t, $0.cut(atSimilarity: value)) } ?? outcome(grouping, t, nil, note: linkageNote))
                case .leader:
                    let base = try LeaderGrouping.group(x, threshold: value, order: order)
                    rows.append(outcome(grouping, t, base, spread: try leaderSpread(x, value, labels: labels)))
                default: break
                }
            }
        }
        if let k = topics {
            if groupings.contains(.kmeansK) {
                rows.append(outcome(.kmeansK, nil, SphericalKMeans.cluster(x, k: k, seed: settings.seed)))
            }
            if groupings.contains(.averageK) {
                rows.append(tree.map { outcome(.averageK, nil, $0.cut(groups: k)) } ?? outcome(.averageK, nil, nil, note: linkageNote))
            }
        }

        var ceilings: [Ceiling] = []
        if let labels {
            if let forest {
                ceilings.append(Ceiling(grouping: GroupingMethod.components.rawValue, search: "every cut",
                                        BestCut(items: x.rows, merges: forest.edges.map { (Int($0.i), Int($0.j), $0.w) }, topics: labels)))
            }
            if let tree, groupings.contains(.average) {
                ceilings.append(Ceiling(grouping: GroupingMethod.average.rawValue, search: "every cut",
                                        BestCut(items: x.rows, merges: tree.merges.map { ($0.a, $0.b, $0.similarity) }, topics: labels)))
            }
            if groupings.contains(.leader) {
                // The rules' values were grouped above; only the grid is new.
                let ruled = rows.compactMap { g -> BestCut? in
                    guard g.grouping == GroupingMethod.leader.rawValue, let t = g.threshold, let r = g.recovery else { return nil }
                    return BestCut(threshold: t, ari: r.ari, groups: r.groups)
                }
                ceilings.append(try leaderCeiling(x, distribution, ruled: ruled, labels: labels, order: order))
            }
        }

        var statistics: [String: PairStatistics] = [:]
        for c in PairClass.allCases { if let s = distribution.statistics(c) { statistics[c.rawValue] = s } }
        var separation: Separation?
        if let (auc, bound) = areaUnderCurve(distribution), let dp = dPrime(distribution), let u = statistics["unrelated"] {
            let bands = topicBands(x, labels: labels!)
            separation = Separation(auc: auc, dPrime: dp, bandWidth: u.p99 - u.p1, topicBandMedian: median(bands),
                                    topicBandMax: bands.max()!, aucErrorBound: bound)
        }
        return SpaceAnalysis(space: space.description,
                             quantileMethod: distribution.sortedValues(.all) != nil ? "exact" : "fine histogram (error < \(2 / Double(engine.bins)))",
                             thresholdHistogram: exactCoarse != nil || distribution.sortedValues(.all) != nil ? "exact" : "placed from the fine histogram",
                             statistics: statistics, separation: separation, thresholds: thresholds, groupings: rows,
                             ceilings: ceilings, histogram: plotHistogram(distribution))
    }

    /// Leader has no nested cuts to sweep: the best ARI over 24 thresholds at all-pair quantiles
    /// 1 − 10^−x (x from 0.3 to 5, dense in the upper tail) and every rule's value.
    func leaderCeiling(_ x: Matrix, _ d: PairDistribution, ruled: [BestCut], labels: [Int32], order: [Int]) throws -> Ceiling {
        let grid = Set((0..<24).compactMap { d.quantile(.all, 1 - pow(10, -(0.3 + Double($0) * 4.7 / 23))) }).subtracting(ruled.map(\.threshold))
        var cuts = ruled
        for t in grid {
            let groups = try LeaderGrouping.group(x, threshold: t, order: order)
            cuts.append(BestCut(threshold: t, ari: Recovery(topics: labels, groups: groups).ari, groups: Set(groups).count))
        }
        // The first of the lowest thresholds among equal ARIs, as a sweep from the bottom finds it.
        let best = cuts.sorted { $0.threshold < $1.threshold }.reduce(BestCut(threshold: .infinity, ari: -.infinity, groups: 0)) { $1.ari > $0.ari ? $1 : $0 }
        return Ceiling(grouping: GroupingMethod.leader.rawValue, search: "24 quantile thresholds and the rules' values", best)
    }

    func leaderSpread(_ x: Matrix, _ t: Double, labels: [Int32]?) throws -> LeaderSpread? {
        guard settings.shuffles > 0 else { return nil }
        var runs: [[Int32]] = []
        for s in 0..<settings.shuffles {
            let order = SeededRandom.permutation(count: x.rows, seed: settings.seed &+ UInt64(s) &+ 1)
            runs.append(try LeaderGrouping.group(x, threshold: t, order: order))
        }
        let recoveries = labels.map { l in runs.map { Recovery(topics: l, groups: $0) } }
        return LeaderSpread(shuffles: runs.count, groups: .init(runs.map { Double(Set($0).count) }),
                            ari: recoveries.map { .init($0.map(\.ari)) }, nmi: recoveries.map { .init($0.map(\.nmi)) },
                            pairF1: recoveries.map { .init($0.map { $0.pairF1 ?? 0 }) })
    }

    /// 200 bins on [-1, 1] per class, summed from the fine histogram.
    func plotHistogram(_ d: PairDistribution) -> [String: [Int]] {
        var out: [String: [Int]] = [:]
        for c in PairClass.allCases {
            guard let a = d.accumulator(c) else { continue }
            var counts = [Int](repeating: 0, count: 200)
            let per = max(1, a.histogram.count / 200)
            for (b, v) in a.histogram.enumerated() { counts[min(b / per, 199)] += Int(v) }
            out[c.rawValue] = counts
        }
        return out
    }
}
