import Foundation
import ThemeLabCore
import ThemeLabCorpus
import ThemeLabEncoder
import ThemeLabMeasures
import ThemeLabMethods
import ThemeLabPairs

/// An experiment file (Experiments/NAME.json): corpora, encoders and layers, spaces, threshold
/// rules, groupings and seeds. Every field but `name` and `corpora` has a default.
///
///     {"name": "seeds", "corpora": [{"name": "seed-12"}, {"name": "clinc150", "intents": 20, "perIntent": 30}],
///      "encoders": [{"layers": [6, 3]}], "spaces": ["raw", "centred"], "thresholds": ["otsu", "fixed(0.55)"],
///      "groupings": ["components", "average"], "shuffles": 10, "seed": 0}
package struct ExperimentPlan: Decodable, Sendable {
    package struct Encoder: Codable, Sendable, Equatable {
        /// A sentence-transformers folder; nil or "default" for the bootstrap model.
        package var model: String?
        /// Layers to pool; nil for the last.
        package var layers: [Int]?
        /// A `.npy` of the corpus's vectors (rows in corpus order) in place of an encoder.
        package var embeddings: String?
        /// The folder `model` names: nil for the bootstrap model.
        package var modelFolder: String? { model == "default" ? nil : model }

        package enum CodingKeys: String, CodingKey, CaseIterable { case model, layers, embeddings }

        package init(model: String? = nil, layers: [Int]? = nil, embeddings: String? = nil) {
            self.model = model
            self.layers = layers
            self.embeddings = embeddings
        }
    }

    package var name: String
    package var description: String?
    package var corpora: [CorpusSpec]
    package var encoders: [Encoder]
    package var settings: AnalysisSettings
    /// The default resampling of fixed corpora when `settings.replicates` is set.
    package var resample: Resampling?
    /// For the CI-gate experiment: the tolerances `reproduce` writes into results/baseline.json with its result.
    package var gate: [String: Double]?
    /// The file it was read from, for messages.
    package var file: String?

    package init(name: String, corpora: [CorpusSpec], encoders: [Encoder] = [Encoder()], settings: AnalysisSettings = AnalysisSettings()) {
        self.name = name
        self.corpora = corpora
        self.encoders = encoders
        self.settings = settings
    }

    package enum Keys: String, CodingKey, CaseIterable {
        case name, description, corpora, encoders, spaces, thresholds, groupings, shuffles, seed, replicates, resample, gate
        case assignments, html
    }

    package init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: Keys.self)
        name = try c.decode(String.self, forKey: .name)
        description = try c.decodeIfPresent(String.self, forKey: .description)
        corpora = try c.decode([CorpusSpec].self, forKey: .corpora)
        encoders = try c.decodeIfPresent([Encoder].self, forKey: .encoders) ?? [Encoder()]
        gate = try c.decodeIfPresent([String: Double].self, forKey: .gate)
        settings = try AnalysisSettings(from: decoder)
        if let v = try c.decodeIfPresent(Int.self, forKey: .shuffles) { settings.shuffles = v }
        if let v = try c.decodeIfPresent(UInt64.self, forKey: .seed) { settings.seed = v }
        settings.replicates = try c.decodeIfPresent(Int.self, forKey: .replicates)
        resample = try c.decodeIfPresent(Resampling.self, forKey: .resample)
    }

    /// Reads and checks an experiment file: unknown fields, names and every bound that needs no
    /// input, each refusal naming the file and the field.
    package static func read(path: String) throws -> ExperimentPlan {
        let (data, object) = try ExperimentSchema.object(at: path)
        return try decode(data, object, path: path)
    }

    /// The checked plan in `data`, read from `path`.
    package static func decode(_ data: Data, path: String) throws -> ExperimentPlan {
        try decode(data, try ExperimentSchema.object(data, path: path), path: path)
    }

    package static func decode(_ data: Data, _ object: [String: Any], path: String) throws -> ExperimentPlan {
        // Counted before a corpus is decoded.
        if let list = object["corpora"] as? [Any] { try GridEstimate.check(corpora: list.count, source: .experiment(path)) }
        var plan = try ExperimentSchema.decode(ExperimentPlan.self, data, object, path: path, keys: Keys.self, topLevel: "an experiment")
        plan.file = path
        let folder = ExperimentSchema.folder(of: path)
        plan.corpora = plan.corpora.map { $0.resolved(against: folder) }
        plan.encoders = plan.encoders.map { e in
            var e = e
            (e.embeddings, e.model) = (
                e.embeddings.map { resolve($0, against: folder) }, e.modelFolder.map { resolve($0, against: folder) }
            )
            return e
        }
        try plan.validate(source: .experiment(path))
        return plan
    }

    /// An experiment's name becomes a folder under results/ and a Slurm job name: a plain file name, nothing that could
    /// leave it. Checked scalar by scalar (a regular expression's `$` also matches before a final line break).
    package static func checkName(
        _ name: String, source: ParameterSource, field: String = "name", names what: String = "the results folder"
    ) throws {
        let scalars = Array(name.unicodeScalars)
        func plain(_ c: Unicode.Scalar) -> Bool { c.isASCII && (c.properties.isAlphabetic || ("0"..."9").contains(c)) }
        guard (1...64).contains(scalars.count), plain(scalars[0]), scalars.allSatisfy({ plain($0) || "._-".unicodeScalars.contains($0) })
        else {
            throw source.error(
                field,
                "must be 1–64 letters, digits, '.', '_' or '-', starting with a letter or digit (it names \(what)); "
                    + "got \(String(reflecting: name))")
        }
    }

    /// Every bound that needs no input, the declared grid's (`GridEstimate`) last.
    package func validate(source: ParameterSource) throws {
        try Self.checkName(name, source: source)
        guard !corpora.isEmpty else { throw source.error("corpora", "is empty: nothing would be computed") }
        guard !encoders.isEmpty else { throw source.error("encoders", "is empty: nothing would be computed") }
        try GridEstimate.check(corpora: corpora.count, source: source)
        for (i, spec) in corpora.enumerated() {
            if let j = corpora[..<i].firstIndex(of: spec) {
                throw source.error("corpora[\(i)]", "repeats corpora[\(j)]: their results would collide")
            }
            try Validation.check(spec, at: "corpora[\(i)]", source: source)
        }
        for (i, encoder) in encoders.enumerated() {
            if encoder.embeddings != nil && (encoder.model != nil || encoder.layers != nil) {
                throw source.error("encoders[\(i)].embeddings", "replaces the encoder: give embeddings, or model and layers, not both")
            }
            if let j = encoders[..<i].firstIndex(of: encoder) {
                throw source.error("encoders[\(i)]", "repeats encoders[\(j)]: its analyses would carry the same names")
            }
            guard let layers = encoder.layers else { continue }
            guard !layers.isEmpty else { throw source.error("encoders[\(i)].layers", "is empty: nothing would be computed") }
            if Set(layers).count < layers.count { throw source.error("encoders[\(i)].layers", "names a layer twice") }
            for (j, layer) in layers.enumerated() { try source.check(layer, in: Validation.layer, "encoders[\(i)].layers[\(j)]") }
        }
        try Validation.check(settings, source: source)
        try resample?.validate(at: "resample", source: source)
        for (i, spec) in corpora.enumerated() {
            try spec.resample?.validate(at: "corpora[\(i)].resample", source: source)
            if settings.replicates == nil && spec.resample != nil {
                throw source.error("corpora[\(i)].resample", "has no effect without 'replicates'")
            }
        }
        if settings.replicates == nil && resample != nil { throw source.error("resample", "has no effect without 'replicates'") }
        if let gate { try RegressionCheck.validate(tolerances: gate, file: "\(source.file ?? "experiment"): 'gate'") }
        try GridEstimate(self).checkDeclared(source: source)
    }

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

    /// A corpus as the grid will see it, for cost predictions: its index in `corpora`, items, the vectors' largest
    /// dimension, whether an encoder embeds it, the bytes of its items' ids, texts and labels, and whether each
    /// replicate re-draws it.
    package struct CorpusSize: Sendable {
        package var index: Int
        package var name: String
        package var items: Int
        package var dimensions: Int
        package var needsEncoder: Bool
        package var textBytes: Int
        package var isSample: Bool

        package init(index: Int, _ loaded: LoadedCorpus, dimensions: Int, needsEncoder: Bool) {
            (self.index, name, items, self.dimensions, self.needsEncoder) = (
                index, loaded.corpus.name, loaded.corpus.count, dimensions, needsEncoder
            )
            textBytes = loaded.corpus.items.reduce(0) { $0 + $1.id.utf8.count + ($1.text?.utf8.count ?? 0) + ($1.label?.utf8.count ?? 0) }
            isSample = loaded.isSample
        }
    }

    /// Every corpus's size, loading each corpus and reading the model's configuration or the embeddings' shape.
    package func corpusSizes(dataDirectory: String?) throws -> [CorpusSize] {
        var encoderDimensions: [Int]?
        return try corpora.indices.map { k in
            let loaded = try DatasetRegistry.load(corpora[k], dataDirectory: dataDirectory)
            if let own = loaded.vectors, !encoders.contains(where: { $0.embeddings != nil }) {
                return CorpusSize(index: k, loaded, dimensions: own.cols, needsEncoder: false)
            }
            let dimensions =
                try encoderDimensions
                ?? encoders.map { encoder in
                    if let path = encoder.embeddings { return try NPY.read(path: path).cols }
                    return try ModelFolder.locate(explicit: encoder.modelFolder).configuration().sentenceDimensions
                }
            encoderDimensions = dimensions
            return CorpusSize(index: k, loaded, dimensions: dimensions.max() ?? 1, needsEncoder: encoderRuns > 0)
        }
    }

    /// Every file the plan reads: itself, its corpora's files, given embeddings and each model folder's files.
    package func inputFiles(dataDirectory: String?) throws -> [String] {
        let corpusFiles = try corpora.flatMap { try DatasetRegistry.files($0, dataDirectory: dataDirectory) }
        let encoderFiles = try encoders.flatMap { e in try e.embeddings.map { [$0] } ?? ModelFolder.locate(explicit: e.modelFolder).files()
        }
        return (file.map { [$0] } ?? []) + corpusFiles + encoderFiles
    }

    /// How many analyses corpus `k` gives (one per vector source): its own vectors once when no embeddings are given,
    /// else one per encoder and layer.
    package func analysesPerCorpus(_ k: Int) -> Int {
        let given = encoders.contains { $0.embeddings != nil }
        if DatasetRegistry.bringsOwnVectors(corpora[k]) && !given { return 1 }
        return encoders.map { $0.embeddings != nil ? 1 : ($0.layers?.count ?? 1) }.reduce(0, +)
    }

    /// How many times an encoder embeds each corpus: one per model layer (given embeddings need none).
    package var encoderRuns: Int { encoders.filter { $0.embeddings == nil }.map { $0.layers?.count ?? 1 }.reduce(0, +) }

    /// Runs every corpus × encoder × layer (a corpus that brings its own vectors runs once), or with `shard` the
    /// corpora of that shard only. Every corpus and embeddings file is read and every check that needs the input
    /// (layers of each model, D < d, memory) passes before the first vector is embedded.
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
        return (try results(analyses, files: files, modelHash: modelHash, environment), perCorpus)
    }

    /// Before any work: every name the run writes for each analysis (`RunEnvironment.outputFiles`) within NAME_MAX and
    /// PATH_MAX, then the grid's memory, output and time within their bounds (`GridEstimate`), its time said as
    /// `replay` says it. `loaded` holds each corpus with its index.
    private func preflight(
        _ loaded: [(index: Int, corpus: LoadedCorpus)], given: [Int: VectorSource.Vectors], models: [Int: EncoderConfiguration],
        _ environment: RunEnvironment, source: ParameterSource
    ) throws {
        for (k, l) in loaded {
            guard let files = environment.outputFiles else { break }
            for kind in sourceKinds(of: l, given: given) {
                for path in files(l.corpus.name, try kind.description(), settings.spaces.map(\.description)) {
                    guard let problem = CommandPaths.lengthProblem(path) else { continue }
                    throw source.error("corpora[\(k)]", "would write \(path), which \(problem): give the corpus a shorter \"as\" name")
                }
            }
        }
        if environment.writesAssignments || settings.assignments == true {
            for (_, l) in loaded {
                try AssignmentRows.check(
                    settings, items: l.corpus.count, labelled: l.corpus.items.first?.label != nil, corpus: l.corpus.name, source: source)
            }
        }
        var grid = GridEstimate(
            self,
            sizes: loaded.map { k, l in
                let own = given.isEmpty ? l.vectors.map { [$0.cols] } : nil
                let widths = own ?? encoders.indices.compactMap { given[$0]?.matrix.cols ?? models[$0]?.sentenceDimensions }
                return CorpusSize(index: k, l, dimensions: widths.max() ?? 1, needsEncoder: own == nil && !models.isEmpty)
            })
        (grid.keepsMembers, grid.writesVectors) = (
            environment.keepsMembers || settings.assignments == true, environment.vectorsFolder != nil
        )
        let figures = try grid.checkSized(source: source)
        let estimate = TimeEstimate(name, seconds: figures.seconds)
        try estimate.check(budget: GridEstimate.maxSeconds, refusal: grid.timeRefusal(figures, source: source))
        environment.log(estimate.line)
    }

    /// Refuses, before any work, two corpora whose names (or file-name forms, which name plots and assignment files) are
    /// one: their rows, plots and baseline keys would collide. `named` holds each corpus's index and loaded name.
    package func refuseSharedNames(_ named: [(index: Int, name: String)], source: ParameterSource) throws {
        var first: [String: Int] = [:]
        for (k, name) in named {
            guard let j = first[fileNameSlug(name)] else {
                first[fileNameSlug(name)] = k
                continue
            }
            func input(_ i: Int) -> String { corpora[i].path ?? corpora[i].name }
            throw source.error(
                "corpora[\(k)]",
                "is named '\(name)' as corpora[\(j)] is (\(input(j)), \(input(k))): their results would collide; give one an "
                    + "\"as\" name")
        }
    }

    /// The vectors of each encoder that names embeddings, and the configuration of each model that will embed a
    /// corpus, by encoder index.
    private func givenVectorsAndModels(
        of loaded: [LoadedCorpus], source: ParameterSource
    ) throws -> (given: [Int: VectorSource.Vectors], models: [Int: EncoderConfiguration]) {
        var given: [Int: VectorSource.Vectors] = [:]
        var models: [Int: EncoderConfiguration] = [:]
        for (e, encoder) in encoders.enumerated() {
            if let path = encoder.embeddings {
                guard let corpus = loaded.first, corpora.count == 1 else {
                    throw source.error("encoders[\(e)].embeddings", "names the vectors of one corpus; this experiment has \(corpora.count)")
                }
                given[e] = try VectorSource.embeddings(path: path).vectors(for: corpus.corpus)
            } else if loaded.contains(where: { $0.vectors == nil }) {
                models[e] = try ModelFolder.locate(explicit: encoder.modelFolder).configuration()
            }
        }
        return (given, models)
    }

    /// Checks every corpus with each of its vector sources against the settings, and each encoder's layers against its model.
    private func checkInputs(
        of loaded: [LoadedCorpus], given: [Int: VectorSource.Vectors], models: [Int: EncoderConfiguration], source: ParameterSource
    ) throws {
        for corpus in loaded {
            let name = corpus.corpus.name
            if let own = corpus.vectors, given.isEmpty {
                try Validation.check(settings, items: own.rows, dimensions: own.cols, corpus: name, source: source)
                continue
            }
            for (e, encoder) in encoders.enumerated() {
                if let v = given[e] {
                    try Validation.check(settings, items: v.matrix.rows, dimensions: v.matrix.cols, corpus: name, source: source)
                } else if let model = models[e] {
                    for (j, layer) in (encoder.layers ?? []).enumerated() where layer > model.layers {
                        throw source.error("encoders[\(e)].layers[\(j)]", "is \(layer); this model has layers 0...\(model.layers)")
                    }
                    try Validation.check(
                        settings, items: corpus.corpus.count, dimensions: model.sentenceDimensions, corpus: name, source: source)
                }
            }
        }
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
        var analysis = Analysis(settings: settings)
        analysis.log = environment.log
        analysis.perturbation = environment.perturbation
        analysis.keepsMembers = environment.keepsMembers || environment.writesAssignments || settings.assignments == true
        analysis.keepsExplorer = environment.keepsExplorer || settings.html == true
        analysis.vectorsFolder = environment.vectorsFolder
        var replicateAnalysis = analysis
        replicateAnalysis.settings.shuffles = 0
        replicateAnalysis.keepsMembers = false
        replicateAnalysis.keepsExplorer = false
        replicateAnalysis.reruns = false
        replicateAnalysis.vectorsFolder = nil
        replicateAnalysis.log = { _ in }
        return (analysis, replicateAnalysis)
    }

    /// Where one analysis of a corpus gets its vectors: the corpus's own (the generator's), an encoder's embeddings file,
    /// or a model layer.
    private enum SourceKind {
        case own(Matrix)
        case given(VectorSource.Vectors)
        case model(VectorSource)

        /// What the analysis says its vectors are, known before any text is embedded.
        func description() throws -> String {
            switch self {
            case .own: "generator"
            case .given(let v): v.description
            case .model(let m): try m.description()
            }
        }
    }

    /// The vector sources of a corpus, in the order of its analyses.
    private func sourceKinds(of loaded: LoadedCorpus, given: [Int: VectorSource.Vectors]) -> [SourceKind] {
        var kinds: [SourceKind] = []
        if let own = loaded.vectors, given.isEmpty { kinds.append(.own(own)) }
        for (e, encoder) in encoders.enumerated() where loaded.vectors == nil || !given.isEmpty {
            if let v = given[e] {
                kinds.append(.given(v))
                continue
            }
            for layer in encoder.layers.map({ $0.map(Optional.some) }) ?? [nil] {
                kinds.append(.model(VectorSource.model(folder: encoder.modelFolder, layer: layer)))
            }
        }
        return kinds
    }

    /// One entry per vector source of a corpus (each model layer embeds it now), adding the files read to `files`.
    private func vectorSources(
        of loaded: LoadedCorpus, given: [Int: VectorSource.Vectors], _ environment: RunEnvironment, files: inout [String],
        modelHash: inout String?
    ) throws -> [ReplicateVectors] {
        var sources: [ReplicateVectors] = []
        for kind in sourceKinds(of: loaded, given: given) {
            switch kind {
            case .own(let own): sources.append((try kind.description(), { $0.loaded.vectors ?? own }))
            case .given(let v):
                files += v.files
                sources.append((v.description, { r in r.kept.map { v.matrix.rows($0) } ?? v.matrix }))
            case .model(let model):
                let v = try model.vectors(
                    for: loaded.corpus, cacheFolder: environment.cacheFolder, log: environment.log, progress: environment.progress)
                files += v.files
                modelHash = v.modelHash ?? modelHash
                sources.append((v.description, Self.replicateVectors(model, v, of: loaded, environment)))
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

    /// The grid's results: the analyses, with the checksums of every file read.
    private func results(
        _ analyses: [CorpusAnalysis], files: [String], modelHash: String?, _ environment: RunEnvironment
    ) throws -> AnalysisResults {
        let unique = Array(Set(files)).sorted()
        return AnalysisResults(
            name: name,
            provenance: .current(
                command: environment.command, inputs: try Provenance.checksums(unique), model: modelHash, createdAt: environment.startedAt),
            settings: settings, analyses: analyses)
    }
}
