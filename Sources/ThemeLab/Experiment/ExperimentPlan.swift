import Foundation

/// An experiment file (Experiments/NAME.json): corpora, encoders and layers, spaces, threshold
/// rules, groupings and seeds. Every field but `name` and `corpora` has a default.
///
///     {"name": "seeds", "corpora": [{"name": "seed-12"}, {"name": "clinc150", "intents": 20, "perIntent": 30}],
///      "encoders": [{"layers": [6, 3]}], "spaces": ["raw", "centred"], "thresholds": ["otsu", "fixed(0.55)"],
///      "groupings": ["components", "average"], "shuffles": 10, "seed": 0}
public struct ExperimentPlan: Decodable, Sendable {
    public struct Encoder: Codable, Sendable, Equatable {
        /// A sentence-transformers folder; nil or "default" for the bootstrap model.
        public var model: String?
        /// Layers to pool; nil for the last.
        public var layers: [Int]?
        /// A `.npy` of the corpus's vectors (rows in corpus order) in place of an encoder.
        public var embeddings: String?

        public init(model: String? = nil, layers: [Int]? = nil, embeddings: String? = nil) {
            self.model = model
            self.layers = layers
            self.embeddings = embeddings
        }
    }

    public var name: String
    public var description: String?
    public var corpora: [CorpusSpec]
    public var encoders: [Encoder]
    public var settings: AnalysisSettings
    /// For the CI-gate experiment: the tolerances `reproduce` writes into results/baseline.json with its result.
    public var gate: [String: Double]?
    /// The file it was read from, for messages.
    public var file: String?

    public init(name: String, corpora: [CorpusSpec], encoders: [Encoder] = [Encoder()], settings: AnalysisSettings = AnalysisSettings()) {
        self.name = name
        self.corpora = corpora
        self.encoders = encoders
        self.settings = settings
    }

    enum Keys: String, CodingKey, CaseIterable {
        case name, description, corpora, encoders, spaces, thresholds, groupings, shuffles, seed, gate
    }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: Keys.self)
        name = try c.decode(String.self, forKey: .name)
        description = try c.decodeIfPresent(String.self, forKey: .description)
        corpora = try c.decode([CorpusSpec].self, forKey: .corpora)
        encoders = try c.decodeIfPresent([Encoder].self, forKey: .encoders) ?? [Encoder()]
        gate = try c.decodeIfPresent([String: Double].self, forKey: .gate)
        settings = AnalysisSettings()
        if let v = try c.decodeIfPresent([String].self, forKey: .spaces) { settings.spaces = v }
        if let v = try c.decodeIfPresent([String].self, forKey: .thresholds) { settings.thresholds = v }
        if let v = try c.decodeIfPresent([String].self, forKey: .groupings) { settings.groupings = v }
        if let v = try c.decodeIfPresent(Int.self, forKey: .shuffles) { settings.shuffles = v }
        if let v = try c.decodeIfPresent(UInt64.self, forKey: .seed) { settings.seed = v }
    }

    /// Reads and checks an experiment file: unknown fields, names and every bound that needs no
    /// input, each refusal naming the file and the field.
    public static func read(path: String) throws -> ExperimentPlan {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ThemeLabError.input("\(path): cannot read experiment file")
        }
        return try decode(data, path: path)
    }

    /// The checked plan in `data`, read from `path`.
    public static func decode(_ data: Data, path: String) throws -> ExperimentPlan {
        let source = ParameterSource.experiment(path)
        guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw ThemeLabError.input("\(path): not a JSON object")
        }
        try refuseUnknownFields(object, source: source)
        var plan: ExperimentPlan
        do { plan = try JSONDecoder().decode(ExperimentPlan.self, from: data) } catch {
            throw ThemeLabError.input("\(path): \(JSONOutput.describe(error))")
        }
        plan.file = path
        try plan.validate(source: source)
        return plan
    }

    /// Fields a file may hold, per object: a misspelt one would otherwise be ignored in silence.
    static func refuseUnknownFields(_ object: [String: Any], source: ParameterSource) throws {
        func refuse(_ fields: [String: Any], _ known: Set<String>, at path: String) throws {
            for key in fields.keys.sorted() where !known.contains(key) {
                throw source.error(
                    path.isEmpty ? key : "\(path).\(key)",
                    "is not a field of \(path.isEmpty ? "an experiment" : "this object") "
                        + "(expected one of \(known.sorted().joined(separator: ", ")))")
            }
        }
        try refuse(object, Set(Keys.allCases.map(\.rawValue)), at: "")
        let corpusFields: Set = [
            "name", "path", "split", "level", "intents", "perIntent", "includeOutOfScope", "seed", "minimumTopicSize",
            "maxItems", "generator",
        ]
        for (i, spec) in ((object["corpora"] as? [Any]) ?? []).enumerated() {
            guard let spec = spec as? [String: Any] else { continue }
            try refuse(spec, corpusFields, at: "corpora[\(i)]")
            if let g = spec["generator"] as? [String: Any] {
                try refuse(
                    g, ["dimensions", "topicSizes", "anisotropy", "anisotropySpread", "topicStrength", "noise", "seed"],
                    at: "corpora[\(i)].generator")
            }
        }
        for (i, encoder) in ((object["encoders"] as? [Any]) ?? []).enumerated() {
            if let encoder = encoder as? [String: Any] { try refuse(encoder, ["model", "layers", "embeddings"], at: "encoders[\(i)]") }
        }
    }

    /// Every bound that needs no input.
    func validate(source: ParameterSource) throws {
        // The name becomes a folder under results/: a plain file name, nothing that could leave it.
        guard name.range(of: #"^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$"#, options: .regularExpression) != nil else {
            throw source.error(
                "name",
                "must be 1–64 letters, digits, '.', '_' or '-', starting with a letter or digit (it names the results "
                    + "folder); got \(String(reflecting: name))")
        }
        guard !corpora.isEmpty else { throw source.error("corpora", "is empty: nothing would be computed") }
        guard !encoders.isEmpty else { throw source.error("encoders", "is empty: nothing would be computed") }
        for (i, spec) in corpora.enumerated() { try Validation.check(spec, at: "corpora[\(i)]", source: source) }
        for (i, encoder) in encoders.enumerated() {
            if encoder.embeddings != nil && (encoder.model != nil || encoder.layers != nil) {
                throw source.error("encoders[\(i)].embeddings", "replaces the encoder: give embeddings, or model and layers, not both")
            }
            guard let layers = encoder.layers else { continue }
            guard !layers.isEmpty else { throw source.error("encoders[\(i)].layers", "is empty: nothing would be computed") }
            for (j, layer) in layers.enumerated() { try source.check(layer, in: Validation.layer, "encoders[\(i)].layers[\(j)]") }
        }
        try Validation.check(settings, source: source)
        if let gate { try RegressionCheck.validate(tolerances: gate, file: "\(source.file ?? "experiment"): 'gate'") }
    }

    /// Runs every corpus × encoder × layer (a corpus that brings its own vectors runs once). Every
    /// corpus and embeddings file is read and every check that needs the input (layers of each model,
    /// D < d, memory) passes before the first vector is embedded.
    public func run(in environment: RunEnvironment) throws -> AnalysisResults {
        let log = environment.log
        let source = file.map(ParameterSource.experiment) ?? .commandLine
        let loaded = try corpora.map { try DatasetRegistry.load($0, dataDirectory: environment.dataDirectory) }
        var given: [Int: VectorSource.Vectors] = [:]
        var models: [Int: BERTConfiguration] = [:]
        for (e, encoder) in encoders.enumerated() {
            if let path = encoder.embeddings {
                guard let corpus = loaded.first, loaded.count == 1 else {
                    throw source.error("encoders[\(e)].embeddings", "names the vectors of one corpus; this experiment has \(loaded.count)")
                }
                given[e] = try VectorSource.embeddings(path: path).vectors(for: corpus.corpus)
            } else if loaded.contains(where: { $0.vectors == nil }) {
                models[e] = try ModelFolder.locate(explicit: encoder.model == "default" ? nil : encoder.model).configuration()
            }
        }
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
                    try Validation.check(settings, items: corpus.corpus.count, dimensions: model.hidden, corpus: name, source: source)
                }
            }
        }

        var analyses: [CorpusAnalysis] = []
        var files: [String] = []
        var modelHash: String?
        var analysis = Analysis(settings: settings)
        analysis.log = log
        for loaded in loaded {
            files += loaded.files
            log("\(name): corpus \(loaded.corpus.name) (\(loaded.corpus.count) items)")
            if let own = loaded.vectors, given.isEmpty {
                analyses.append(try analysis.run(corpus: loaded.corpus, vectors: own, source: "generator"))
                continue
            }
            for (e, encoder) in encoders.enumerated() {
                var runs: [VectorSource.Vectors] = given[e].map { [$0] } ?? []
                if given[e] == nil {
                    for layer in encoder.layers.map({ $0.map(Optional.some) }) ?? [nil] {
                        let folder = encoder.model == "default" ? nil : encoder.model
                        runs.append(
                            try VectorSource.model(folder: folder, layer: layer).vectors(
                                for: loaded.corpus, cacheFolder: environment.cacheFolder, log: log, progress: environment.progress))
                    }
                }
                for v in runs {
                    files += v.files
                    modelHash = v.modelHash ?? modelHash
                    analyses.append(try analysis.run(corpus: loaded.corpus, vectors: v.matrix, source: v.description))
                }
            }
        }
        let unique = Array(Set(files)).sorted()
        return AnalysisResults(
            name: name,
            provenance: .current(
                command: environment.command, inputs: try Provenance.checksums(unique), model: modelHash, createdAt: environment.startedAt),
            settings: settings, analyses: analyses)
    }
}
