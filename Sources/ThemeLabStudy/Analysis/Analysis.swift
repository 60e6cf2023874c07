import Foundation
import ThemeLabCore
import ThemeLabCorpus
import ThemeLabEncoder
import ThemeLabMeasures
import ThemeLabMethods
import ThemeLabPairs

/// Runs every space × threshold × grouping on one corpus and its raw vectors.
package struct Analysis {
    package var settings: AnalysisSettings
    package var engine = PairEngine()
    package var log: (String) -> Void = { _ in }
    /// Moves every vector by one unit in the last place before anything else (the fragility check); nil: as given.
    package var perturbation: LastBitPerturbation?
    /// Whether each row keeps which entries form its groups (`GroupingOutcome.members`): the corpus's own analysis, not
    /// its replicates.
    package var keepsMembers = false
    /// Whether a grouping that depends on order or a seed is run again under another of each (`GroupingOutcome.rerunARI`):
    /// the corpus's own analysis, not its replicates.
    package var reruns = true
    /// Whether each space keeps what the threshold explorer page draws (`SpaceAnalysis.explorer`): the corpus's own
    /// analysis only.
    package var keepsExplorer = false
    /// A folder that receives each space's unit vectors and the labels (`SpaceVectors`): the corpus's own analysis only.
    package var vectorsFolder: String?

    package init(settings: AnalysisSettings) { self.settings = settings }

    /// The analysis of a corpus's own vectors in a run: it logs, perturbs, keeps members and writes vectors as
    /// `environment` asks (members also when the settings ask for assignments files).
    package init(settings: AnalysisSettings, _ environment: RunEnvironment) {
        self.settings = settings
        log = environment.log
        perturbation = environment.perturbation
        keepsMembers = environment.keepsMembers || environment.writesAssignments || settings.assignments == true
        keepsExplorer = environment.keepsExplorer || settings.html == true
        vectorsFolder = environment.vectorsFolder
    }

    /// Every space × rule × grouping on `corpus`; the vectors are normalised once, and each space starts from that.
    /// - Parameters:
    ///   - corpus: the items, with their labels and visiting order.
    ///   - given: one row per item, as read or embedded (not normalised).
    ///   - source: what the vectors are ("all-MiniLM-L6-v2 (53aa5117) layer 6"), for the results and the log.
    /// - Returns: the corpus's analysis, one `SpaceAnalysis` per space that could be built (a note for the others).
    package func run(corpus: Corpus, vectors given: Matrix, source: String) throws -> CorpusAnalysis {
        let vectors = perturbation?.apply(to: given) ?? given
        let itemName = { (i: Int) in "\(corpus.name): item '\(corpus.items[i].id)'" }
        try Self.checkShape(corpus: corpus, vectors: vectors)
        let unit = try unitRows(vectors, itemName: itemName)
        let (spaces, rules, groupings) = (settings.spaces, settings.rules, settings.groupings)
        let labels = corpus.labelIndices()
        var notes = corpus.notes
        if labels == nil { notes.append("no labels: distributions, thresholds and groups; no recovery metrics, no label-informed rules") }
        let topics = labels.map { Int($0.max()!) + 1 }
        if topics == 1 { notes.append("one topic: every pair is related; unrelated statistics and AUC are N/A") }
        let n = vectors.rows
        let order = corpus.items.indices.sorted { (corpus.items[$0].order ?? $0, $0) < (corpus.items[$1].order ?? $1, $1) }
        // A space that cannot be built for this corpus (whitening with fewer items than dimensions) is skipped with a note.
        var results: [SpaceAnalysis] = []
        for space in spaces {
            log("\(corpus.name), \(source): \(space) space")
            let x: Matrix
            do {
                x = try space.transform(vectors, unit: unit, itemName: itemName)
            } catch {
                notes.append("\(space) space skipped: \(error)")
                continue
            }
            if let folder = vectorsFolder {
                try SpaceVectors(corpus: corpus.name, source: source, space: space.description, labels: labels).write(x, into: folder)
            }
            results.append(try analyzeSpace(space, x, labels: labels, topics: topics, rules: rules, groupings: groupings, order: order))
        }
        return CorpusAnalysis(
            corpus: .init(name: corpus.name, items: n, topics: topics, labeled: labels != nil, relatedPairShare: corpus.relatedPairShare),
            source: source, dimensions: vectors.cols, spaces: results, notes: notes,
            items: keepsMembers || keepsExplorer ? corpus.items : nil)
    }

    /// Refuses vectors that do not fit the corpus (one row per item, at least two) or that are bad (a NaN, an
    /// infinity, a zero row), naming the item: before any other work (`run` refuses the same).
    package static func check(corpus: Corpus, vectors: Matrix) throws {
        try checkShape(corpus: corpus, vectors: vectors)
        try checkUnitRows(vectors) { "\(corpus.name): item '\(corpus.items[$0].id)'" }
    }

    /// Refuses vectors that are not one row per item of `corpus`, or fewer than two.
    private static func checkShape(corpus: Corpus, vectors: Matrix) throws {
        guard corpus.count == vectors.rows else {
            throw ThemeLabError.input("corpus '\(corpus.name)' has \(corpus.count) items but the vectors have \(vectors.rows) rows")
        }
        guard vectors.rows >= 2 else {
            throw ThemeLabError.input("corpus '\(corpus.name)' has \(vectors.rows) item; pairs need at least 2")
        }
    }

    /// One analysis to run: the corpus, its vectors and their description, and the analysis that runs them (the
    /// corpus's own, or the silent one of its replicates).
    package struct Job {
        package var analysis: Analysis
        package var corpus: Corpus
        package var vectors: Matrix
        package var source: String

        package init(analysis: Analysis, corpus: Corpus, vectors: Matrix, source: String) {
            (self.analysis, self.corpus, self.vectors, self.source) = (analysis, corpus, vectors, source)
        }
    }

    /// Runs `jobs`, two at a time when the machine has the cores and the memory for two passes, the largest first;
    /// results in the jobs' order. Each analysis computes the same numbers either way (the pass's BLAS runs on one
    /// thread and its workers' tiles are merged in a fixed order), so the schedule never shows in the results.
    package static func runAll(_ jobs: [Job]) throws -> [CorpusAnalysis] {
        let largest = jobs.map { MemoryBudget.pass(items: $0.vectors.rows, dimensions: $0.vectors.cols) }.max() ?? 0
        let side = MemoryBudget.sideBySide(needing: 2 * largest)
        let order = jobs.indices.sorted { (-jobs[$0].vectors.rows, $0) < (-jobs[$1].vectors.rows, $1) }
        let queue = WorkQueue(count: jobs.count, state: [Result<CorpusAnalysis, Error>?](repeating: nil, count: jobs.count))
        let shared = UnsafeSendable(jobs)
        DispatchQueue.concurrentPerform(iterations: min(side, jobs.count)) { _ in
            while let next = queue.take() {
                let k = order[next]
                let job = shared.value[k]
                let result = Result { try job.analysis.run(corpus: job.corpus, vectors: job.vectors, source: job.source) }
                queue.withState { $0[k] = result }
            }
        }
        return try queue.withState { try $0.map { try $0!.get() } }
    }

    /// One space: plan → the passes (`PassPlan`) → rules → groupings → ceilings and separation.
    package func analyzeSpace(
        _ space: EmbeddingSpace, _ x: Matrix, labels: [Int32]?, topics: Int?, rules: [ThresholdRule], groupings: [Grouping], order: [Int]
    ) throws -> SpaceAnalysis {
        let needs = PassNeeds.of(rules: rules, groupings: groupings, items: x.rows)
        let gathered = keepsExplorer ? needs.union(ExplorerSpace.needs(items: x.rows)) : needs
        let pass = PassPlan(needs: gathered, exactHistogramPairLimit: settings.exactHistogramPairLimit).run(
            x, labels: labels, engine: engine)
        // The rules read what they and the groupings asked for, whatever the explorer added.
        let thresholds = try thresholdOutcomes(rules.filter { !$0.isLabelInformed || labels != nil }, pass, asked: needs)
        let request = GroupingRequest(target: .ownCuts, order: order, labels: labels, shuffles: settings.shuffles, seed: settings.seed)
        var rows = try groupingRows(groupings, thresholds: thresholds, topics: topics, request: request, pass)
        if reruns { try addRerunAgreement(&rows, groupings, thresholds: thresholds, topics: topics, request: request, pass) }
        let explorer = try keepsExplorer ? ExplorerSpace(x, pass: pass, thresholds: thresholds, rows: rows, order: order) : nil
        for k in rows.indices {
            if keepsMembers, let labels = rows[k].partition { rows[k].members = GroupMembers(labels: labels, vectors: x) }
            rows[k].partition = nil
        }
        let ceilings = try labels.map { try self.ceilings(groupings, topics: $0, request: request, pass) } ?? []
        let distribution = pass.distribution
        var statistics: [PairClass: PairStatistics] = [:]
        for c in PairClass.allCases { if let s = distribution.statistics(c) { statistics[c] = s } }
        let exact = distribution.sortedValues(.all) != nil
        return SpaceAnalysis(
            space: space, quantileMethod: exact ? "exact" : "fine histogram (error < \(2 / Double(engine.bins)))",
            thresholdHistogram: pass.exactCoarse != nil || exact ? "exact" : "placed from the fine histogram", statistics: statistics,
            separation: separation(x, labels: labels, distribution, unrelated: statistics[.unrelated]), thresholds: thresholds,
            groupings: rows, ceilings: ceilings, histogram: plotHistogram(distribution), explorer: explorer)
    }

    /// Threshold groupings in the order asked, one row per rule; those that cut themselves, one row each; then the
    /// references in report order, when topics are known.
    package func groupingRows(
        _ groupings: [Grouping], thresholds: [ThresholdOutcome], topics: Int?, request: GroupingRequest, _ pass: PassProducts
    ) throws -> [GroupingOutcome] {
        func row(_ grouping: Grouping, _ t: ThresholdOutcome?, _ target: GroupingRequest.Target?) throws -> GroupingOutcome {
            var cut = GroupingCut(labels: nil, note: t?.note)
            if let target {
                var asked = request
                asked.target = target
                cut = try grouping.cut(asked, in: pass)
            }
            return GroupingOutcome(
                grouping.key, cut, rule: t, labelInformed: grouping.kind == .labelInformedReference, topics: request.labels)
        }
        // A threshold grouping is asked for all the rules' distinct values at once.
        let values = Array(Set(thresholds.compactMap(\.value))).sorted()
        var rows = try groupings.flatMap { g -> [GroupingOutcome] in
            switch g.kind {
            case .threshold:
                let cuts = Dictionary(uniqueKeysWithValues: zip(values, try g.cuts(at: values, request, in: pass)))
                return thresholds.map { t in
                    let cut = t.value.flatMap { cuts[$0] } ?? GroupingCut(labels: nil, note: t.note)
                    return GroupingOutcome(g.key, cut, rule: t, labelInformed: false, topics: request.labels)
                }
            case .cutsItself: return [try row(g, nil, .ownCuts)]
            case .labelInformedReference: return []
            }
        }
        if let topics {
            rows += try inReportOrder(groupings).filter { $0.kind == .labelInformedReference }.map { try row($0, nil, .topics(topics)) }
        }
        return rows
    }

    /// Each row of a grouping that depends on order or a seed gets the ARI between its partition and the grouping's rerun
    /// in a seeded shuffle of the visiting order with the next seed (noise items as singletons).
    package func addRerunAgreement(
        _ rows: inout [GroupingOutcome], _ groupings: [Grouping], thresholds: [ThresholdOutcome], topics: Int?, request: GroupingRequest,
        _ pass: PassProducts
    ) throws {
        let varying = groupings.filter { !$0.dependsOn.isEmpty }
        guard !varying.isEmpty else { return }
        var other = request
        other.order = SeededRandom.permutation(count: request.order.count, seed: request.seed &+ 1).map { request.order[$0] }
        other.seed = request.seed &+ 1
        other.shuffles = 0
        for rerun in try groupingRows(varying, thresholds: thresholds, topics: topics, request: other, pass) {
            guard let b = rerun.partition, let k = rows.firstIndex(where: { $0.grouping == rerun.grouping && $0.rule == rerun.rule }),
                let a = rows[k].partition
            else { continue }
            let (first, second) = (GroupingCut.noiseAsSingletons(a), GroupingCut.noiseAsSingletons(b))
            rows[k].rerunARI = adjustedRandIndex(Contingency(classes: first, clusters: second))
        }
    }

    /// Each grouping's ceiling: the fixed ones in report order, then those that cut themselves.
    package func ceilings(
        _ groupings: [Grouping], topics: [Int32], request: GroupingRequest, _ pass: PassProducts
    ) throws -> [Ceiling] {
        try (inReportOrder(groupings) + groupings.filter { $0.kind == .cutsItself }).compactMap { g in
            try g.ceiling(in: pass, topics: topics, request: request)
        }
    }

    /// AUC, d′ and the band widths, on labeled corpora with both classes of pair.
    package func separation(_ x: Matrix, labels: [Int32]?, _ distribution: PairDistribution, unrelated u: PairStatistics?) -> Separation? {
        guard let labels, let u, let (auc, bound) = areaUnderCurve(distribution), let dp = dPrime(distribution) else { return nil }
        let bands = topicBands(x, labels: labels)
        guard let widest = bands.max() else { return nil }
        return Separation(
            auc: auc, dPrime: dp, bandWidth: u.p99 - u.p1, topicBandMedian: median(bands), topicBandMax: widest, aucErrorBound: bound)
    }

    /// Each rule's threshold, placed mid-gap when it is an observed value (`ThresholdPlacement`);
    /// a neighbour rule whose k is not below N gives none. They read only what the rules and groupings `asked` the pass
    /// for, so a pass that gathered more (for the explorer) places them where it would have.
    package func thresholdOutcomes(_ rules: [ThresholdRule], _ pass: PassProducts, asked gathered: PassNeeds) throws -> [ThresholdOutcome] {
        let (x, distribution) = (pass.vectors, pass.distribution)
        var dendrogram: Dendrogram?
        if gathered.averageLinkage, case .success(let tree) = try pass.dendrogram() { dendrogram = tree }
        let context = ThresholdContext(
            distribution: distribution, dimensions: x.cols, exactCoarse: pass.exactCoarse,
            neighbours: gathered.neighbours > 0 ? try pass.nearestNeighbours() : nil,
            silhouettes: rules.contains(where: \.needsDendrogram)
                ? dendrogram.map { CriterionCurve.silhouettes(vectors: x, dendrogram: $0) } : nil)
        let observed =
            rules.contains(where: \.isDataDerived)
            ? ThresholdPlacement.observedValues(
                pairs: distribution.sortedValues(.all), forest: gathered.spanningForest ? try pass.spanningForest().edges.map(\.w) : [],
                merges: dendrogram?.merges.map(\.similarity) ?? []) : []
        return rules.map { rule in
            guard rule.neighbours < x.rows else {
                return ThresholdOutcome(
                    rule: rule.key, value: nil, labelInformed: rule.isLabelInformed,
                    note: "k = \(rule.neighbours) neighbours needs more than \(rule.neighbours) items; this corpus has \(x.rows)")
            }
            let answer = rule.answer(in: context)
            let value = answer.value.map { rule.isDataDerived ? ThresholdPlacement.midGap($0, observed: observed) : $0 }
            return ThresholdOutcome(
                rule: rule.key, value: value, labelInformed: rule.isLabelInformed,
                pairsAbove: value.map { distribution.count(.all, atLeast: $0) },
                relatedAbove: value.flatMap { distribution.isLabeled ? distribution.count(.related, atLeast: $0) : nil },
                note: answer.reason)
        }
    }

    /// 200 bins on [-1, 1] per class, summed from the fine histogram.
    package func plotHistogram(_ d: PairDistribution) -> [PairClass: [Int]] {
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
