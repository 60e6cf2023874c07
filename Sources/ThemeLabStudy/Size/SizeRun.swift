import Foundation
import ThemeLabCore
import ThemeLabCorpus
import ThemeLabEncoder
import ThemeLabMeasures
import ThemeLabMethods
import ThemeLabPairs

/// Runs a size experiment: every corpus of its tuning and study experiments, embedded as those experiments embed it, at
/// every size of the plan, each draw analysed in the study's space (one pass, the study's label-free rules, every
/// method's cut, average linkage's ceiling) two at a time, and nothing kept but the figures (`SizeResults`).
package struct SizeRun {
    package let plan: SizePlan
    package let experiments: [(role: SizeCurve.Role, plan: ExperimentPlan)]
    package let rules: [ThresholdRule]
    /// Every grouping, the candidates last; the methods they make, in order.
    package let groupings: [Grouping]
    package let methods: [SizeMethod]
    package let analysis: Analysis

    package init(_ plan: SizePlan) throws {
        self.plan = plan
        let paths = plan.experimentPaths()
        let (tuning, study) = (try ExperimentPlan.read(path: paths.tuning), try ExperimentPlan.read(path: paths.study))
        experiments = [(.tuning, tuning), (.study, study)]
        let rules = study.settings.rules.filter { !$0.isLabelInformed }
        let own = study.settings.groupings.filter { $0.kind == .cutsItself }
        (self.rules, groupings) = (rules, plan.thresholdGroupings + own + plan.groupings + plan.candidates)
        methods =
            plan.thresholdGroupings.flatMap { g in rules.map { SizeMethod(grouping: g.key, rule: $0.key, family: g.name) } }
            + own.map { SizeMethod(grouping: $0.key, family: SizeMethod.ownCuts) }
            + plan.groupings.map { SizeMethod(grouping: $0.key, family: SizeMethod.added) }
            + plan.candidates.map { SizeMethod(grouping: $0.key, family: SizeMethod.candidate) }
        var settings = study.settings
        (settings.spaces, settings.shuffles, settings.seed) = ([study.settings.spaces.first ?? .centred], 0, plan.seed)
        analysis = Analysis(settings: settings)
    }

    /// Every file the run reads: the plan, the two experiment files, their corpora and the model's files.
    package func inputFiles(dataDirectory: String?) throws -> [String] {
        let paths = plan.experimentPaths()
        return [plan.file, paths.tuning, paths.study].compactMap { $0 }
            + (try experiments.flatMap { try $0.plan.inputFiles(dataDirectory: dataDirectory).dropFirst() })
    }

    package func run(in environment: RunEnvironment) throws -> SizeResults {
        var corpora: [Sampled] = []
        var modelHash: String?
        for (role, experiment) in experiments {
            for spec in experiment.corpora {
                let loaded = try DatasetRegistry.load(spec, dataDirectory: environment.dataDirectory)
                guard let labels = loaded.corpus.labelIndices() else { continue }
                let at = plan.sizes(items: labels.count, topics: groupCount(labels))
                environment.log("\(plan.name): \(loaded.corpus.name) (\(loaded.corpus.count) items) at \(at)")
                let vectors = try vectors(of: loaded, encoder: experiment.encoders.first ?? .init(), environment)
                modelHash = vectors.hash ?? modelHash
                corpora.append(Sampled(corpus: loaded.corpus.name, role: role, vectors: vectors.matrix, labels: labels))
            }
        }
        environment.log("\(plan.name): measuring \(corpora.map { jobs($0).count }.reduce(0, +)) draws of \(corpora.count) corpora")
        return SizeResults(
            name: plan.name, description: plan.description,
            provenance: .current(
                command: environment.command, inputs: try Provenance.checksums(try inputFiles(dataDirectory: environment.dataDirectory)),
                model: modelHash, createdAt: environment.startedAt),
            space: analysis.settings.spaces[0], seed: plan.seed, methods: methods, curves: try curves(corpora))
    }

    /// A corpus of the run: its vectors and topics.
    package struct Sampled {
        package var corpus: String
        package var role: SizeCurve.Role
        package var vectors: Matrix
        package var labels: [Int32]
    }

    /// The corpus's vectors: its own (the generator's), else the encoder's, from the embedding cache where it holds them.
    private func vectors(
        of loaded: LoadedCorpus, encoder: ExperimentPlan.Encoder, _ environment: RunEnvironment
    ) throws -> (matrix: Matrix, hash: String?) {
        if let own = loaded.vectors { return (own, nil) }
        let v = try VectorSource.model(folder: encoder.modelFolder, layer: encoder.layers?.first).vectors(
            for: loaded.corpus, cacheFolder: environment.cacheFolder, log: environment.log, progress: environment.progress)
        return (v.matrix, v.modelHash)
    }

    /// A corpus's draws: at every size of the plan (its own once), each draw's number.
    func jobs(_ c: Sampled) -> [(size: Int, draw: Int)] {
        plan.sizes(items: c.vectors.rows, topics: groupCount(c.labels)).flatMap { n in
            (0..<plan.draws(size: n, items: c.vectors.rows)).map { (size: n, draw: $0) }
        }
    }

    /// Every corpus at every size: each draw a stratified sample (the whole corpus at its own size), all the corpora's draws
    /// measured two at a time, the largest first. Whole corpora with the same vectors (one corpus at its intent and its domain
    /// level) share what is read off the vectors alone: the spectral estimate's spectra.
    package func curves(_ corpora: [Sampled]) throws -> [SizeCurve] {
        let jobs = corpora.indices.flatMap { c in self.jobs(corpora[c]).map { (corpus: c, size: $0.size, draw: $0.draw) } }
        let order = jobs.indices.sorted { (-jobs[$0].size, $0) < (-jobs[$1].size, $1) }
        let twin = corpora.indices.map { c in corpora.indices.first { corpora[$0].vectors.hasSameBits(as: corpora[c].vectors) }! }
        let wholeReadings = corpora.indices.map { _ in ValueMemo() }
        let draws = try parallelMap(jobs.count, order: order) { k in
            let (x, labels, n) = (corpora[jobs[k].corpus].vectors, corpora[jobs[k].corpus].labels, jobs[k].size)
            let whole = n >= x.rows
            let kept = whole ? Array(0..<x.rows) : stratifiedSample(labels: labels, count: n, seed: seed(size: n, draw: jobs[k].draw))
            return Result {
                try measure(
                    x.rows(kept), labels: kept.map { labels[$0] }, role: corpora[jobs[k].corpus].role,
                    readings: whole ? wholeReadings[twin[jobs[k].corpus]] : ValueMemo())
            }
        }.map { try $0.get() }
        return corpora.indices.map { c in
            let (items, topics) = (corpora[c].vectors.rows, groupCount(corpora[c].labels))
            let points = plan.sizes(items: items, topics: topics).map { n in
                let mine = jobs.indices.filter { jobs[$0].corpus == c && jobs[$0].size == n }.map { draws[$0] }
                return SizePoint(
                    items: n, ceiling: mine.map(\.ceiling),
                    ari: methods.indices.map { m in mine.filter { $0.run[m] }.map { $0.ari[m] } },
                    groups: methods.indices.map { m in mine.filter { $0.run[m] }.map { $0.groups[m] } },
                    fallbacks: methods.indices.map { m in mine.filter { $0.fellBack[m] }.count })
            }
            return SizeCurve(corpus: corpora[c].corpus, role: corpora[c].role, items: items, topics: topics, points: points)
        }
    }

    /// The seed of draw `r` at `size` items: distinct for every size and draw of a plan.
    func seed(size: Int, draw r: Int) -> UInt64 { plan.seed &+ UInt64(size) &* 1_000 &+ UInt64(r) }

    /// One draw's figures: the ceiling, and each method's ARI, groups and whether it fell back.
    package struct Draw: Sendable {
        package var ceiling: Double
        package var ari: [Double?]
        package var groups: [Int?]
        package var fellBack: [Bool]
        /// Whether each method ran on this draw's corpus (a candidate does on the tuning corpora only).
        package var run: [Bool]
    }

    /// The draw's vectors in the study's space: one pass, the rules' thresholds, every grouping's cut and average linkage's
    /// ceiling, as an analysis computes them (`Analysis`); values read off the vectors alone kept in `readings`.
    package func measure(_ vectors: Matrix, labels: [Int32], role: SizeCurve.Role, readings: ValueMemo = ValueMemo()) throws -> Draw {
        let groupings = role == .tuning ? groupings : Array(groupings.dropLast(plan.candidates.count))
        let x = try analysis.settings.spaces[0].transform(vectors)
        let needs = PassNeeds.of(rules: rules, groupings: groupings + [AverageLinkageCut()], items: x.rows)
        let pass = PassPlan(needs: needs, exactHistogramPairLimit: analysis.settings.exactHistogramPairLimit).run(
            x, labels: labels, engine: analysis.engine, readings: readings)
        let thresholds = try analysis.thresholdOutcomes(rules, pass, asked: needs)
        let request = GroupingRequest(target: .ownCuts, order: Array(0..<x.rows), labels: labels, shuffles: 0, seed: plan.seed)
        let rows = try analysis.groupingRows(groupings, thresholds: thresholds, topics: groupCount(labels), request: request, pass)
        let ceiling = try analysis.ceilings([AverageLinkageCut()], topics: labels, request: request, pass).first
        let found = methods.map { m in rows.first { $0.grouping == m.grouping && $0.rule == m.rule } }
        let fellBack = try groupings.flatMap { g -> [Bool] in
            guard g.kind == .cutsItself else { return rules.map { _ in false } }
            guard let spectral = g as? SpectralKGrouping else { return [false] }
            return [try pass.spectralK(spectral.estimator, seed: plan.seed)?.cleared == false]
        }
        let run = methods.map { m in groupings.contains { $0.key == m.grouping } }
        return Draw(
            ceiling: ceiling?.ari ?? 0, ari: found.map { $0?.recovery?.ari }, groups: found.map { $0?.groups },
            fellBack: fellBack + [Bool](repeating: false, count: methods.count - fellBack.count), run: run)
    }
}
