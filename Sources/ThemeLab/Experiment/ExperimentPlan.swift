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
    }

    public var name: String
    public var description: String?
    public var corpora: [CorpusSpec]
    public var encoders: [Encoder]
    public var settings: AnalysisSettings
    /// For the CI-gate experiment: the tolerances `reproduce` writes into results/baseline.json with its result.
    public var gate: [String: Double]?

    enum Keys: String, CodingKey { case name, description, corpora, encoders, spaces, thresholds, groupings, shuffles, seed, gate }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: Keys.self)
        name = try c.decode(String.self, forKey: .name)
        // The name becomes a folder under results/: a plain file name, nothing that could leave it.
        guard name.range(of: #"^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$"#, options: .regularExpression) != nil else {
            throw ThemeLabError.usage("'name' must be 1–64 letters, digits, '.', '_' or '-', starting with a letter or digit (it names the results folder); got \(String(reflecting: name))")
        }
        description = try c.decodeIfPresent(String.self, forKey: .description)
        corpora = try c.decode([CorpusSpec].self, forKey: .corpora)
        encoders = try c.decodeIfPresent([Encoder].self, forKey: .encoders) ?? [Encoder(model: nil, layers: nil)]
        gate = try c.decodeIfPresent([String: Double].self, forKey: .gate)
        settings = AnalysisSettings()
        if let v = try c.decodeIfPresent([String].self, forKey: .spaces) { settings.spaces = v }
        if let v = try c.decodeIfPresent([String].self, forKey: .thresholds) { settings.thresholds = v }
        if let v = try c.decodeIfPresent([String].self, forKey: .groupings) { settings.groupings = v }
        if let v = try c.decodeIfPresent(Int.self, forKey: .shuffles) { settings.shuffles = v }
        if let v = try c.decodeIfPresent(UInt64.self, forKey: .seed) { settings.seed = v }
    }

    public static func read(path: String) throws -> ExperimentPlan {
        guard let data = FileManager.default.contents(atPath: path) else { throw ThemeLabError.input("\(path): cannot read experiment file") }
        do {
            let plan = try JSONDecoder().decode(ExperimentPlan.self, from: data)
            _ = try plan.settings.spaces.map(EmbeddingSpace.init(name:))
            _ = try plan.settings.thresholds.map(thresholdRule(named:))
            _ = try plan.settings.groupings.map(GroupingMethod.init(name:))
            return plan
        } catch let e as ThemeLabError {
            throw ThemeLabError.input("\(path): \(e)")
        } catch let DecodingError.keyNotFound(key, context) {
            throw ThemeLabError.input("\(path): missing '\(key.stringValue)' at \(context.codingPath.map(\.stringValue).joined(separator: "."))")
        } catch let DecodingError.typeMismatch(_, context), let DecodingError.valueNotFound(_, context) {
            throw ThemeLabError.input("\(path): wrong type at '\(context.codingPath.map(\.stringValue).joined(separator: "."))'")
        } catch {
            throw ThemeLabError.input("\(path): not a valid experiment file (\(error.localizedDescription))")
        }
    }

    /// Runs every corpus × encoder × layer (a corpus that brings its own vectors runs once).
    public func run(dataDirectory: String?, command: [String], log: @escaping (String) -> Void,
                    progress: ((Int, Int) -> Void)? = nil) throws -> AnalysisResults {
        var analyses: [CorpusAnalysis] = []
        var files: [String] = []
        var modelHash: String?
        var analysis = Analysis(settings: settings)
        analysis.log = log
        for spec in corpora {
            let loaded = try DatasetRegistry.load(spec, dataDirectory: dataDirectory)
            files += loaded.files
            log("\(name): corpus \(loaded.corpus.name) (\(loaded.corpus.count) items)")
            if let own = loaded.vectors {
                analyses.append(try analysis.run(corpus: loaded.corpus, vectors: own, source: "generator"))
                continue
            }
            for encoder in encoders {
                for layer in encoder.layers.map({ $0.map(Optional.some) }) ?? [nil] {
                    let folder = encoder.model == "default" ? nil : encoder.model
                    let v = try VectorSource.model(folder: folder, layer: layer).vectors(for: loaded.corpus, log: log, progress: progress)
                    files += v.files
                    modelHash = v.modelHash
                    analyses.append(try analysis.run(corpus: loaded.corpus, vectors: v.matrix, source: v.description))
                }
            }
        }
        let unique = Array(Set(files)).sorted()
        return AnalysisResults(name: name, provenance: .current(command: command, inputs: try Provenance.checksums(unique), model: modelHash),
                               settings: settings, analyses: analyses)
    }
}
