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

    /// The checks that read more than one field, the declared grid's (`GridEstimate`) last: each field has passed its
    /// declared constraint (`ExperimentSchema.check`: an experiment file as it is read, a command line as it is parsed).
    package func validate(source: ParameterSource) throws {
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
        }
        for (i, spec) in corpora.enumerated() where settings.replicates == nil && spec.resample != nil {
            throw source.error("corpora[\(i)].resample", "has no effect without 'replicates'")
        }
        if settings.replicates == nil && resample != nil { throw source.error("resample", "has no effect without 'replicates'") }
        if let gate { try RegressionCheck.requireGate(gate, file: "\(source.file ?? "experiment"): 'gate'") }
        try GridEstimate(self).checkDeclared(source: source)
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
}
