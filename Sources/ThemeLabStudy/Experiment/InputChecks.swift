import Foundation
import ThemeLabCore
import ThemeLabCorpus
import ThemeLabEncoder
import ThemeLabMeasures
import ThemeLabMethods
import ThemeLabPairs

/// The checks of a plan's inputs that need them loaded, before any work: the grid's (`run`) and `analyze`'s
/// (`SingleAnalysis`).
extension ExperimentPlan {
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
    package func givenVectorsAndModels(
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
    package func checkInputs(
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

    /// Before any work: every name the run writes for each analysis (`RunEnvironment.outputFiles`) within NAME_MAX and
    /// PATH_MAX, then the grid's memory, output and time within their bounds (`GridEstimate`), its time said as
    /// `replay` says it. `loaded` holds each corpus with its index.
    package func preflight(
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

    /// Where one analysis of a corpus gets its vectors: the corpus's own (the generator's), an encoder's embeddings file,
    /// or a model layer.
    package enum SourceKind {
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

        /// The vectors of `loaded` itself from this source: a model layer embeds it now.
        package func vectors(of loaded: LoadedCorpus, _ environment: RunEnvironment) throws -> VectorSource.Vectors {
            switch self {
            case .own(let own): VectorSource.Vectors(matrix: own, description: try description(), modelHash: nil, files: [])
            case .given(let v): v
            case .model(let model):
                try model.vectors(
                    for: loaded.corpus, cacheFolder: environment.cacheFolder, log: environment.log, progress: environment.progress)
            }
        }
    }

    /// The vector sources of a corpus, in the order of its analyses.
    package func sourceKinds(of loaded: LoadedCorpus, given: [Int: VectorSource.Vectors]) -> [SourceKind] {
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
}
