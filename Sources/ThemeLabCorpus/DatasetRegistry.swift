import Foundation
import ThemeLabCore

/// A corpus as commands and experiment files name it: a registry name with its options, or a
/// file path. Options apply only to the corpora that take them.
package struct CorpusSpec: Codable, Sendable, Equatable {
    package var name: String
    /// For name "file": a JSONL, CSV or TSV corpus.
    package var path: String?
    /// CLINC150: split, level, seeded subsample.
    package var split: String?
    package var level: String?
    package var intents: Int?
    package var perIntent: Int?
    package var includeOutOfScope: Bool?
    package var seed: UInt64?
    /// WordNet: smallest topic kept, and a seeded cap on the item count.
    package var minimumTopicSize: Int?
    package var maxItems: Int?
    /// synthetic: the generator (its corpus carries its own vectors).
    package var generator: SyntheticVectors?
    /// Replicates of a fixed corpus: how it is resampled.
    package var resample: Resampling?

    package init(name: String) { self.name = name }

    /// The fields of a corpus in an experiment file (`ExperimentSchema`).
    package enum CodingKeys: String, CodingKey, CaseIterable {
        case name, path, split, level, intents, perIntent, includeOutOfScope, seed, minimumTopicSize, maxItems, generator, resample
    }
}

/// A loaded corpus, with its vectors when the corpus brings them (the generator).
package struct LoadedCorpus {
    package var corpus: Corpus
    package var vectors: Matrix?
    /// Files read, for input checksums.
    package var files: [String]
    /// Whether the items are a seeded draw (another seed gives other items), so replicates re-draw it.
    package var isSample = false
}

/// Every corpus the harness knows, where it is read from, and its licence.
package enum DatasetRegistry {
    package struct Entry: Sendable {
        package var name: String
        package var description: String
        package var source: String
        package var licence: String
        package var citation: String
    }

    package static let entries: [Entry] =
        [
            Entry(
                name: "seed-12", description: "12 journal sentences, 4 topics of 4, 3, 3, 2 (the app's Otsu shape)",
                source: "Datasets/seed-12.jsonl (written by this project)", licence: "CC0", citation: "this repository"),
            Entry(
                name: "seed-26", description: "26 journal sentences, 6 topics of 7, 6, 5, 4, 2, 2 (the app's fixed-0.55 shape)",
                source: "Datasets/seed-26.jsonl (written by this project)", licence: "CC0", citation: "this repository"),
            Entry(
                name: "synthetic", description: "vector-level generator (no text); default: the app's raw picture, d = 512",
                source: "generated (themelab synth)", licence: "n/a", citation: "this repository"),
            Entry(
                name: "clinc150", description: "intent utterances, 150 intents in 10 domains (intent or domain level)",
                source: "Datasets/clinc150 (github.com/clinc/oos-eval @ 828f809)", licence: "CC BY 3.0",
                citation: "Larson et al., An Evaluation Dataset for Intent Classification and Out-of-Scope Prediction, EMNLP-IJCNLP 2019"),
            Entry(
                name: "wordnet-domains", description: "WordNet glosses labeled by topic domain (;c pointer)",
                source: "/usr/share/wordnet (Debian wordnet-base)", licence: "WordNet 3.0 licence (BSD-like)",
                citation: "Miller, WordNet: A Lexical Database for English, CACM 1995; Fellbaum (ed.) 1998"),
            Entry(
                name: "wordnet-lexnames", description: "WordNet example sentences labeled by lexicographer file",
                source: "/usr/share/wordnet (Debian wordnet-base)", licence: "WordNet 3.0 licence (BSD-like)",
                citation: "Miller, WordNet: A Lexical Database for English, CACM 1995; Fellbaum (ed.) 1998"),
        ] + CarriedCorpus.all.map(\.entry)

    /// A folder holding real corpora in place of the repository's `Datasets/`: `--data-dir`, else `$THEMELAB_DATA`.
    package static func dataDirectory(_ explicit: String? = nil) -> String? {
        explicit ?? ProcessEnvironment.dataFolder
    }

    /// Where a corpus carried in `Datasets/FOLDER` is read from: `<data dir>/FOLDER`, else the checkout's `Datasets/FOLDER`.
    package static func datasetFolder(_ folder: String, dataDirectory: String?) throws -> String {
        if let d = Self.dataDirectory(dataDirectory) { return "\(d)/\(folder)" }
        guard let found = ProjectFiles.locate("Datasets/\(folder)") else {
            throw ThemeLabError.input("Datasets/\(folder) not found (run from a checkout of the project, or pass --data-dir)")
        }
        return found
    }

    /// Whether a corpus comes with its vectors (the generator), so that no encoder embeds it.
    package static func bringsOwnVectors(_ spec: CorpusSpec) -> Bool { spec.name == "synthetic" }

    package static func load(_ spec: CorpusSpec, dataDirectory: String? = nil) throws -> LoadedCorpus {
        switch spec.name {
        case "file":
            guard let path = spec.path else { throw ThemeLabError.invalid("corpus 'file' needs a path") }
            return LoadedCorpus(corpus: try CorpusReader.read(path: path), files: [path])
        case "seed-12", "seed-26":
            guard let path = ProjectFiles.locate("Datasets/\(spec.name).jsonl") else {
                throw ThemeLabError.input("Datasets/\(spec.name).jsonl not found (run from a checkout of the project)")
            }
            return LoadedCorpus(corpus: try CorpusReader.read(path: path), files: [path])
        case "synthetic":
            var g = spec.generator ?? .appRaw()
            if let s = spec.seed { g.seed = s }
            let (corpus, vectors) = g.corpus(
                name: spec.generator == nil ? "synthetic-app-raw" + (spec.seed.map { "-seed\($0)" } ?? "") : g.identity)
            return LoadedCorpus(corpus: corpus, vectors: vectors, files: [], isSample: true)
        case "clinc150":
            let folder = try datasetFolder("clinc150", dataDirectory: dataDirectory)
            var o = CLINC150.Options()
            if let v = spec.split { o.split = v }
            if let v = spec.level { o.level = v }
            o.intents = spec.intents
            o.perIntent = spec.perIntent
            o.includeOutOfScope = spec.includeOutOfScope ?? false
            o.seed = spec.seed ?? 0
            return LoadedCorpus(
                corpus: try CLINC150.load(folder: folder, options: o), files: ["\(folder)/data_full.json", "\(folder)/domains.json"],
                isSample: o.intents != nil || o.perIntent != nil)
        case "wordnet-domains", "wordnet-lexnames":
            let minimum = spec.minimumTopicSize ?? 20
            var c =
                spec.name == "wordnet-domains"
                ? try WordNet.domains(minimumTopicSize: minimum) : try WordNet.lexnames(minimumTopicSize: minimum)
            let isSample = spec.maxItems.map { $0 < c.count } ?? false
            if let cap = spec.maxItems, cap < c.count {
                let keep = SeededRandom.permutation(count: c.count, seed: spec.seed ?? 0).prefix(cap).sorted()
                c.items = keep.map { c.items[$0] }
                c.name += "-\(cap)" + (spec.seed.map { "-seed\($0)" } ?? "")
            }
            return LoadedCorpus(corpus: c, files: WordNet.parts.map { "\(WordNet.defaultFolder)/data.\($0)" }, isSample: isSample)
        case let name:
            guard let carried = CarriedCorpus.all.first(where: { $0.name == name }) else { throw unknownCorpus(name) }
            return try carried.load(dataDirectory: dataDirectory)
        }
    }

    package static func unknownCorpus(_ name: String) -> ThemeLabError {
        ThemeLabError.invalid(
            "unknown corpus '\(name)' (expected \(entries.map(\.name).joined(separator: ", ")), or file with a path)")
    }
}
