import Foundation

/// What to compute for one corpus and one set of vectors.
public struct AnalysisSettings: Codable, Sendable, Equatable {
    public var spaces: [String] = ["raw", "centred"]
    public var thresholds: [String] = standardThresholdRules
    public var groupings: [String] = standardGroupings
    /// Seeded shuffles for the leader grouping's spread.
    public var shuffles: Int = 10
    public var seed: UInt64 = 0
    /// Replicates of each corpus for intervals (nil: one sample, no intervals).
    public var replicates: Int?
    /// Above this many pairs Otsu and Kittler–Illingworth read their histogram off the fine
    /// one (a pair within 3.1e-5 of a bin edge may land one bin off) instead of a second pass.
    public var exactHistogramPairLimit: Int = 1_250_000_000

    public init() {}

    /// The named spaces, rules and groupings as values (the one place their names are read).
    public func embeddingSpaces() throws -> [EmbeddingSpace] { try spaces.map(EmbeddingSpace.init(name:)) }
    public func rules() throws -> [ThresholdRule] { try thresholds.map(thresholdRule(named:)) }
    public func groupingMethods() throws -> [Grouping] { try groupings.map(grouping(named:)) }
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
    /// How the replicates behind every estimate were drawn (nil: one sample).
    public var replicates: ReplicateSet?
}

public struct SpaceAnalysis: Codable, Sendable {
    public var space: String
    public var quantileMethod: String
    /// How the 256-bin histogram Otsu and Kittler–Illingworth read was counted (optional, so
    /// results and baselines written before it still load).
    public var thresholdHistogram: String?
    public var statistics: [PairClass: PairStatistics]
    public var separation: Separation?
    public var thresholds: [ThresholdOutcome]
    public var groupings: [GroupingOutcome]
    /// Per threshold grouping, the best ARI any threshold gives (labeled corpora only; optional
    /// for the same reason).
    public var ceilings: [Ceiling]?
    /// Counts per class over 200 equal bins on [-1, 1], for plots.
    public var histogram: [PairClass: [Int]]
    /// Over replicates: each statistic (`PairStatistics.Statistic`) and separation figure (`Separation.Figure`).
    public var replicateStatistics: [PairClass: [PairStatistics.Statistic: Estimate]]?
    public var replicateSeparation: [Separation.Figure: Estimate]?
}

extension CorpusAnalysis {
    /// The analysis in one space, when it ran.
    public func space(_ space: EmbeddingSpace) -> SpaceAnalysis? { spaces.first { $0.space == space.description } }
}

/// The one way reports look results up: by the space, class, rule and grouping as values.
extension SpaceAnalysis {
    public func threshold(_ rule: ThresholdRule) -> ThresholdOutcome? { thresholds.first { $0.rule == rule.name } }

    /// The row of `grouping` at `rule`'s threshold (nil rule: a label-informed reference's row).
    public func outcome(rule: ThresholdRule?, grouping: Grouping) -> GroupingOutcome? {
        groupings.first { $0.rule == rule?.name && $0.grouping == grouping.name }
    }
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
    /// The threshold over replicates (those where the rule gives one).
    public var replicates: Estimate?
    /// Over replicates, of the pairs at or above the threshold: precision (share related) and recall (share of
    /// related pairs).
    public var replicatePairs: [ThresholdOutcome.PairShare: Estimate]?

    /// The two shares of `replicatePairs`.
    public enum PairShare: String, CaseIterable, Sendable, Codable, CodingKeyRepresentable { case precision, recall }
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
    /// Over replicates: each metric (`Metric.recovery`, and the noise share) where the cell has a value.
    public var replicates: [Metric: Estimate]?
    /// The ARI of each replicate (nil where N/A), for paired comparisons and regret.
    public var replicateARI: [Double?]?
    /// Groupings that leave items out (HDBSCAN): how many, and the recovery without them. The
    /// headline `recovery` counts each noise item as a group of its own.
    public var noise: NoiseOutcome?
}

/// The items a grouping left as noise: their share, and the recovery of the grouped items alone.
public struct NoiseOutcome: Codable, Sendable, Equatable {
    public var items: Int
    public var share: Double
    /// Recovery over the items not left as noise (nil without labels or when every item is noise).
    public var recoveryExcludingNoise: Recovery?

    /// Nil when no item is noise (−1).
    init?(labels: [Int32], topics: [Int32]?) {
        let kept = labels.indices.filter { labels[$0] >= 0 }
        guard kept.count < labels.count else { return nil }
        items = labels.count - kept.count
        share = Double(items) / Double(labels.count)
        recoveryExcludingNoise =
            kept.isEmpty ? nil : topics.map { t in Recovery(topics: kept.map { t[$0] }, groups: kept.map { labels[$0] }) }
    }
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
    /// The parameter searched instead of a threshold (`m` for HDBSCAN, `γ` for Leiden), whose best
    /// value `threshold` then holds.
    public var parameter: String?
    /// The best ARI over replicates, and on each.
    public var replicates: Estimate?
    public var replicateARI: [Double?]?

    init(grouping: String, search: String, _ cut: BestCut, parameter: String? = nil) {
        self.grouping = grouping
        self.search = search
        self.parameter = parameter
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
    /// Moves every vector by one unit in the last place before anything else (the fragility check); nil: as given.
    public var perturbation: LastBitPerturbation?

    public init(settings: AnalysisSettings) { self.settings = settings }

    public func run(corpus: Corpus, vectors given: Matrix, source: String) throws -> CorpusAnalysis {
        let vectors = perturbation?.apply(to: given) ?? given
        guard corpus.count == vectors.rows else {
            throw ThemeLabError.input("corpus '\(corpus.name)' has \(corpus.count) items but the vectors have \(vectors.rows) rows")
        }
        guard vectors.rows >= 2 else {
            throw ThemeLabError.input("corpus '\(corpus.name)' has \(vectors.rows) item; pairs need at least 2")
        }
        let (spaces, rules, groupings) = (try settings.embeddingSpaces(), try settings.rules(), try settings.groupingMethods())
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

    /// `run` on each input (nil in, nil out), two at a time when the machine has the cores and the
    /// memory for two passes. Each analysis computes the same numbers either way (the pass's BLAS
    /// runs on one thread and its workers' tiles are merged in a fixed order).
    public func runAll(_ inputs: [(corpus: Corpus, vectors: Matrix)?], source: String) throws -> [CorpusAnalysis?] {
        let largest = inputs.compactMap { $0 }.map { MemoryBudget.pass(items: $0.vectors.rows, dimensions: $0.vectors.cols) }.max() ?? 0
        let side = ProcessInfo.processInfo.activeProcessorCount >= 2 && (MemoryBudget.available() ?? 0) > 2 * largest ? 2 : 1
        let queue = WorkQueue(count: inputs.count, state: [Result<CorpusAnalysis?, Error>](repeating: .success(nil), count: inputs.count))
        let shared = UnsafeSendable((self, inputs))
        DispatchQueue.concurrentPerform(iterations: side) { _ in
            let (analysis, inputs) = shared.value
            while let k = queue.take() {
                guard let input = inputs[k] else { continue }
                let result = Result<CorpusAnalysis?, Error> {
                    try analysis.run(corpus: input.corpus, vectors: input.vectors, source: source)
                }
                queue.withState { $0[k] = result }
            }
        }
        return try queue.withState { try $0.map { try $0.get() } }
    }

    /// One space: plan → one pass (two when numpy's histogram is counted exactly) → rules →
    /// groupings → ceilings and separation.
    func analyzeSpace(
        _ space: EmbeddingSpace, _ x: Matrix, labels: [Int32]?, topics: Int?, rules: [ThresholdRule], groupings: [Grouping], order: [Int]
    ) throws -> SpaceAnalysis {
        let needs = (rules.map { $0.passNeeds(items: x.rows) } + groupings.map { $0.needs.on(items: x.rows) }).reduce(PassNeeds()) {
            $0.union($1)
        }
        let pass = PassPlan(needs: needs, exactHistogramPairLimit: settings.exactHistogramPairLimit).run(x, labels: labels, engine: engine)
        let thresholds = thresholdOutcomes(rules.filter { !$0.isLabelInformed || labels != nil }, pass)

        var request = GroupingRequest(
            threshold: nil, topics: topics, order: order, labels: labels, shuffles: settings.shuffles, seed: settings.seed)
        func row(_ grouping: Grouping, _ t: ThresholdOutcome?) throws -> GroupingOutcome {
            var cut = GroupingCut(labels: nil, note: t?.note)
            if t == nil || t?.value != nil {
                request.threshold = t?.value
                cut = try grouping.groups(request, in: pass)
            }
            let grouped = cut.labels.map(GroupingCut.noiseAsSingletons)
            return GroupingOutcome(
                grouping: grouping.name, rule: t?.rule, threshold: t?.value,
                labelInformed: grouping.isLabelInformed || (t?.labelInformed ?? false),
                groups: grouped.map { Set($0).count },
                recovery: grouped.flatMap { a in labels.map { Recovery(topics: $0, groups: a) } },
                spread: cut.spread, note: cut.note, noise: cut.labels.flatMap { NoiseOutcome(labels: $0, topics: labels) })
        }
        // Threshold groupings in the order asked, one row per rule; those that cut themselves, one row
        // each; then the references, when topics are known.
        var rows = try groupings.filter { !$0.isLabelInformed }.flatMap { g in
            g.cutsItself ? [try row(g, nil)] : try thresholds.map { try row(g, $0) }
        }
        let asked = Set(groupings.map(\.name))
        if topics != nil { rows += try allGroupings.filter { $0.isLabelInformed && asked.contains($0.name) }.map { try row($0, nil) } }

        var ceilings: [Ceiling] = []
        if let labels {
            for g in allGroupings.filter({ asked.contains($0.name) }) + groupings.filter(\.cutsItself) {
                let ruled = rows.compactMap { r -> BestCut? in
                    guard r.grouping == g.name, let t = r.threshold, let recovery = r.recovery else { return nil }
                    return BestCut(threshold: t, ari: recovery.ari, groups: recovery.groups)
                }
                if let c = try g.ceiling(in: pass, topics: labels, ruled: ruled, request: request) { ceilings.append(c) }
            }
        }

        let distribution = pass.distribution
        var statistics: [PairClass: PairStatistics] = [:]
        for c in PairClass.allCases { if let s = distribution.statistics(c) { statistics[c] = s } }
        var separation: Separation?
        if let (auc, bound) = areaUnderCurve(distribution), let dp = dPrime(distribution), let u = statistics[.unrelated] {
            let bands = topicBands(x, labels: labels!)
            separation = Separation(
                auc: auc, dPrime: dp, bandWidth: u.p99 - u.p1, topicBandMedian: median(bands), topicBandMax: bands.max()!,
                aucErrorBound: bound)
        }
        let exact = distribution.sortedValues(.all) != nil
        return SpaceAnalysis(
            space: space.description, quantileMethod: exact ? "exact" : "fine histogram (error < \(2 / Double(engine.bins)))",
            thresholdHistogram: pass.exactCoarse != nil || exact ? "exact" : "placed from the fine histogram", statistics: statistics,
            separation: separation, thresholds: thresholds, groupings: rows, ceilings: ceilings, histogram: plotHistogram(distribution))
    }

    /// Each rule's threshold, placed mid-gap when it is an observed value (`ThresholdPlacement`);
    /// a neighbour rule whose k is not below N gives none.
    func thresholdOutcomes(_ rules: [ThresholdRule], _ pass: PassProducts) -> [ThresholdOutcome] {
        let (x, distribution) = (pass.vectors, pass.distribution)
        let context = ThresholdContext(
            distribution: distribution, dimensions: x.cols, exactCoarse: pass.exactCoarse, neighbours: pass.neighbours,
            silhouettes: rules.contains(where: \.needsDendrogram)
                ? pass.dendrogram.map { SilhouetteCurve(vectors: x, dendrogram: $0) } : nil)
        let observed =
            rules.contains(where: \.isDataDerived)
            ? ThresholdPlacement.observedValues(
                pairs: distribution.sortedValues(.all), forest: pass.forest?.edges.map(\.w) ?? [],
                merges: pass.dendrogram?.merges.map(\.similarity) ?? []) : []
        return rules.map { rule in
            guard rule.neighbours < x.rows else {
                return ThresholdOutcome(
                    rule: rule.name, value: nil, labelInformed: rule.isLabelInformed,
                    note: "k = \(rule.neighbours) neighbours needs more than \(rule.neighbours) items; this corpus has \(x.rows)")
            }
            let value = rule.threshold(in: context).map { rule.isDataDerived ? ThresholdPlacement.midGap($0, observed: observed) : $0 }
            return ThresholdOutcome(
                rule: rule.name, value: value, labelInformed: rule.isLabelInformed,
                pairsAbove: value.map { distribution.count(.all, atLeast: $0) },
                relatedAbove: value.flatMap { distribution.isLabeled ? distribution.count(.related, atLeast: $0) : nil },
                note: value == nil ? rule.whyNoThreshold(in: context) : nil)
        }
    }

    /// 200 bins on [-1, 1] per class, summed from the fine histogram.
    func plotHistogram(_ d: PairDistribution) -> [PairClass: [Int]] {
        var out: [PairClass: [Int]] = [:]
        for c in PairClass.allCases {
            guard let a = d.accumulator(c) else { continue }
            var counts = [Int](repeating: 0, count: 200)
            let per = max(1, a.histogram.count / 200)
            for (b, v) in a.histogram.enumerated() { counts[min(b / per, 199)] += Int(v) }
            out[c] = counts
        }
        return out
    }
}
