import Foundation

/// What to compute for one corpus and one set of vectors.
public struct AnalysisSettings: Codable, Sendable, Equatable {
    public var spaces: [String] = ["raw", "centred"]
    public var thresholds: [String] = standardThresholdRules
    public var groupings: [String] = GroupingMethod.allCases.map(\.rawValue)
    /// Seeded shuffles for the leader grouping's spread.
    public var shuffles: Int = 10
    public var seed: UInt64 = 0

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
    public var statistics: [String: PairStatistics]
    public var separation: Separation?
    public var thresholds: [ThresholdOutcome]
    public var groupings: [GroupingOutcome]
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
        let distribution = engine.run(x, labels: labels)
        var exactCoarse: CoarseHistogram?
        if distribution.sortedValues(.all) == nil, distribution.all.count > 0 {
            let counting = CoarseHistogramPass(minimum: Double(distribution.all.min), maximum: Double(distribution.all.max), bins: 256)
            _ = engine.run(x, labels: labels, consumers: [counting])
            exactCoarse = counting.histogram
        }
        let context = ThresholdContext(distribution: distribution, dimensions: x.cols, exactCoarse: exactCoarse)
        let usable = rules.filter { !$0.isLabelInformed || labels != nil }
        let thresholds = usable.map { rule in
            let value = rule.threshold(in: context)
            return ThresholdOutcome(rule: rule.name, value: value, labelInformed: rule.isLabelInformed,
                                    pairsAbove: value.map { distribution.count(.all, atLeast: $0) },
                                    relatedAbove: value.flatMap { distribution.isLabeled ? distribution.count(.related, atLeast: $0) : nil },
                                    note: value == nil ? rule.whyNoThreshold(in: context) : nil)
        }

        // Second pass: the groupings that need every pair.
        let values = thresholds.compactMap(\.value)
        let components = groupings.contains(.components) ? ConnectedComponents(items: x.rows, thresholds: values) : nil
        var linkage: AverageLinkage?
        var linkageNote: String?
        if groupings.contains(.average) || groupings.contains(.averageK) {
            do { linkage = try AverageLinkage(items: x.rows) } catch { linkageNote = "\(error)" }
        }
        let consumers = [components as PairConsumer?, linkage as PairConsumer?].compactMap { $0 }
        if !consumers.isEmpty { _ = engine.run(x, labels: labels, consumers: consumers) }
        let tree = linkage?.dendrogram()

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
                    rows.append(outcome(grouping, t, components!.labels(values.firstIndex(of: value)!)))
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
                             statistics: statistics, separation: separation, thresholds: thresholds, groupings: rows,
                             histogram: plotHistogram(distribution))
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
