import Foundation
import ThemeLabCore
import ThemeLabCorpus
import ThemeLabEncoder
import ThemeLabMeasures
import ThemeLabMethods
import ThemeLabPairs

/// The grid of an experiment run: every corpus × vector source, with its replicates, in shards and in rounds that hold
/// at most a quarter of the memory available.
extension ExperimentPlan {
    /// The corpora one shard of the grid covers (corpus k belongs to shard k mod n), every corpus without a shard.
    /// A shard holds at least one corpus, so n is at most the number of corpora.
    package func corpusIndices(in shard: PairShard?) throws -> [Int] {
        guard let shard else { return Array(corpora.indices) }
        guard shard.count <= corpora.count else {
            throw ThemeLabError.invalid(
                "--shard \(shard.index)/\(shard.count): '\(name)' has \(corpora.count) corpora and a shard is at least one, "
                    + "so n must be at most \(corpora.count)")
        }
        return corpora.indices.filter { $0 % shard.count == shard.index }
    }

    /// Runs every corpus × encoder × layer (a corpus that brings its own vectors runs once). Every corpus and embeddings
    /// file is read and every check that needs the input (layers of each model, D < d, memory) passes before the first
    /// vector is embedded.
    /// - Parameters:
    ///   - environment: where corpora and the cache are, the provenance's command and time, the log, what is kept.
    ///   - shard: the corpora of one shard only (corpus k in shard k mod n); nil for all.
    /// - Returns: every analysis, in corpus order, with the provenance of the files read.
    package func run(in environment: RunEnvironment, shard: PairShard? = nil) throws -> AnalysisResults {
        try runCounting(in: environment, shard: shard).results
    }

    /// One vector source of a corpus: its description, and how to get the vectors of any replicate of the corpus.
    package typealias ReplicateVectors = (description: String, vectors: (ReplicateCorpus) throws -> Matrix)

    /// `run`, and how many analyses each corpus gave (one per vector source), in corpus order.
    package func runCounting(in environment: RunEnvironment, shard: PairShard?) throws -> (results: AnalysisResults, perCorpus: [Int]) {
        let log = environment.log
        let source = file.map(ParameterSource.experiment) ?? .commandLine
        try GridEstimate(self).checkDeclared(source: source)  // again, before loading: --replicates may have changed the grid
        let selected = try corpusIndices(in: shard)
        let loaded = try selected.map { try DatasetRegistry.load(corpora[$0], dataDirectory: environment.dataDirectory) }
        try refuseSharedNames(zip(selected, loaded).map { ($0, $1.corpus.name) }, source: source)
        let (given, models) = try givenVectorsAndModels(of: loaded, source: source)
        try checkInputs(of: loaded, given: given, models: models, source: source)
        // Replicates are checked (on their first draws) before anything is embedded, and drawn as they are analysed.
        let replicateSets = try replicateDraws(
            selected: selected, loaded: loaded, given: given, source: source, dataDirectory: environment.dataDirectory)
        try preflight(zip(selected, loaded).map { ($0, $1) }, given: given, models: models, environment, source: source)

        var analyses: [CorpusAnalysis] = []
        var pending: [PendingAnalysis] = []
        var perCorpus: [Int] = []
        var files: [String] = []
        var modelHash: String?
        let (analysis, replicateAnalysis) = analysers(environment)
        // Vectors are embedded corpus by corpus (the encoder has both cores); the analyses then run side by side, in
        // rounds of at most a quarter of the memory available in vectors held.
        let held = (MemoryBudget.available() ?? 0) / 4
        for (i, loaded) in loaded.enumerated() {
            files += loaded.files
            log("\(name): corpus \(loaded.corpus.name) (\(loaded.corpus.count) items)")
            let sources = try vectorSources(of: loaded, given: given, environment, files: &files, modelHash: &modelHash)
            for source in sources {
                pending.append(try prepare(loaded, source, replicates: replicateSets[i], analysis, replicateAnalysis, log: log))
                if pending.map(\.bytes).reduce(0, +) > held { analyses += try finish(&pending) }
            }
            perCorpus.append(sources.count)
        }
        analyses += try finish(&pending)
        let results = try AnalysisResults(
            name: name, settings: settings, analyses: analyses, files: files, modelHash: modelHash, environment)
        return (results, perCorpus)
    }

    /// How the replicates of each selected corpus are drawn, checked on their first draws; nil for each without
    /// `replicates`.
    private func replicateDraws(
        selected: [Int], loaded: [LoadedCorpus], given: [Int: VectorSource.Vectors], source: ParameterSource, dataDirectory: String?
    ) throws -> [ReplicateDraws?] {
        try zip(selected, loaded).map { i, full in
            try settings.replicates.map {
                if !given.isEmpty && full.isSample {
                    throw source.error(
                        "encoders[0].embeddings",
                        "are the vectors of one draw; replicates of '\(full.corpus.name)' re-draw it and need an encoder")
                }
                return try ReplicateCorpus.draws(of: corpora[i], at: i, full: full, plan: self, count: $0, dataDirectory: dataDirectory)
            }
        }
    }

    /// The analysis of each corpus (logged), and the one of its replicates (no shuffles, silent).
    private func analysers(_ environment: RunEnvironment) -> (analysis: Analysis, replicates: Analysis) {
        let analysis = Analysis(settings: settings, environment)
        var replicateAnalysis = analysis
        replicateAnalysis.settings.shuffles = 0
        replicateAnalysis.keepsMembers = false
        replicateAnalysis.keepsExplorer = false
        replicateAnalysis.reruns = false
        replicateAnalysis.vectorsFolder = nil
        replicateAnalysis.log = { _ in }
        return (analysis, replicateAnalysis)
    }

    /// One entry per vector source of a corpus (each model layer embeds it now), adding the files read to `files`.
    private func vectorSources(
        of loaded: LoadedCorpus, given: [Int: VectorSource.Vectors], _ environment: RunEnvironment, files: inout [String],
        modelHash: inout String?
    ) throws -> [ReplicateVectors] {
        var sources: [ReplicateVectors] = []
        for kind in sourceKinds(of: loaded, given: given) {
            let v = try kind.vectors(of: loaded, environment)
            files += v.files
            modelHash = v.modelHash ?? modelHash
            switch kind {
            case .own(let own): sources.append((v.description, { $0.loaded.vectors ?? own }))
            case .given: sources.append((v.description, { r in r.kept.map { v.matrix.rows($0) } ?? v.matrix }))
            case .model(let model): sources.append((v.description, Self.replicateVectors(model, v, of: loaded, environment)))
            }
        }
        return sources
    }

    /// How to get a replicate's vectors from one model layer, given the corpus's own vectors `v` from it.
    private static func replicateVectors(
        _ model: VectorSource, _ v: VectorSource.Vectors, of loaded: LoadedCorpus, _ environment: RunEnvironment
    ) -> (ReplicateCorpus) throws -> Matrix {
        { r in
            if let kept = r.kept { return v.matrix.rows(kept) }
            if r.loaded.corpus == loaded.corpus { return v.matrix }
            return try model.vectors(for: r.loaded.corpus, cacheFolder: environment.cacheFolder, progress: environment.progress).matrix
        }
    }

    /// The analyses of one vector source of a corpus: its own, to run beside others', and its replicates' (nil where the
    /// corpus's own stands for an unresampled first one), already run, with how they were drawn.
    private struct PendingAnalysis {
        var job: Analysis.Job
        var replicates: [CorpusAnalysis?] = []
        var scheme: String?

        /// Bytes of vectors held.
        var bytes: Double { Double(job.vectors.rows * job.vectors.cols * MemoryLayout<Float>.size) }
    }

    /// The vectors of one vector source of a corpus, ready to analyse; with `set`, its replicates drawn, embedded and
    /// analysed a few at a time (`GridEstimate.replicatesAtOnce`), so only their analyses are held.
    private func prepare(
        _ loaded: LoadedCorpus, _ source: ReplicateVectors, replicates set: ReplicateDraws?, _ analysis: Analysis,
        _ replicateAnalysis: Analysis, log: (String) -> Void
    ) throws -> PendingAnalysis {
        let (description, vectors) = source
        let own = try vectors(ReplicateCorpus(loaded: loaded))
        try Analysis.check(corpus: loaded.corpus, vectors: own)  // bad vectors fail now, not after every other corpus embeds
        var pending = PendingAnalysis(
            job: Analysis.Job(analysis: analysis, corpus: loaded.corpus, vectors: own, source: description), scheme: set?.scheme)
        guard let set else { return pending }
        log("\(loaded.corpus.name), \(description): \(set.count) replicates (\(set.scheme))")
        for first in stride(from: 0, to: set.count, by: GridEstimate.replicatesAtOnce) {
            var jobs: [Analysis.Job] = []
            var slots: [Int?] = []
            for r in first..<min(first + GridEstimate.replicatesAtOnce, set.count) {
                let replicate = try set.draw(r)
                guard replicate.kept != nil || r > 0 else {
                    slots.append(nil)
                    continue
                }
                slots.append(jobs.count)
                jobs.append(
                    Analysis.Job(
                        analysis: replicateAnalysis, corpus: replicate.loaded.corpus, vectors: try vectors(replicate), source: description))
            }
            let runs = try Analysis.runAll(jobs)
            pending.replicates += slots.map { $0.map { runs[$0] } }
        }
        return pending
    }

    /// Runs every pending analysis side by side (`Analysis.runAll`) and attaches each corpus's replicates to its own.
    private func finish(_ pending: inout [PendingAnalysis]) throws -> [CorpusAnalysis] {
        let runs = try Analysis.runAll(pending.map(\.job))
        let analyses = zip(pending, runs).map { p, own in
            var primary = own
            if let scheme = p.scheme { primary.attach(replicates: p.replicates.map { $0 ?? own }, scheme: scheme, seed: settings.seed) }
            return primary
        }
        pending = []
        return analyses
    }
}
