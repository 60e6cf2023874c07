import Foundation
import ThemeLabCore

/// A corpus as commands and experiment files name it: a registry name with its options, or a
/// file path. Options apply only to the corpora that take them.
package struct CorpusSpec: Codable, Sendable, Equatable {
    package var name: String
    /// For name "file": a JSONL, CSV or TSV corpus (in an experiment file, relative to the file's folder) …
    package var path: String?
    /// … and the fields holding each item's id, text and label, when not `id`, `text` and `label` (`CorpusColumns`).
    package var idColumn: String?
    package var textColumn: String?
    package var labelColumn: String?
    /// The name results, plots and tables give the corpus in place of its own (two corpora must not share one).
    package var `as`: String?
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
        case name, path, idColumn, textColumn, labelColumn, split, level, intents, perIntent, includeOutOfScope, seed, minimumTopicSize
        case maxItems, generator, resample, `as`
    }

    /// The spec with a relative `path` read against `folder` (an experiment file's own).
    package func resolved(against folder: String) -> CorpusSpec {
        var spec = self
        spec.path = path.map { resolve($0, against: folder) }
        return spec
    }

    /// The columns a file corpus is read with.
    package var columns: CorpusColumns { CorpusColumns(id: idColumn, text: textColumn, label: labelColumn) }
}

/// `path` read against `folder` unless it is absolute.
package func resolve(_ path: String, against folder: String) -> String {
    path.hasPrefix("/") ? path : URL(fileURLWithPath: path, relativeTo: URL(fileURLWithPath: folder, isDirectory: true)).path
}

/// A loaded corpus, with its vectors when the corpus brings them (the generator).
package struct LoadedCorpus {
    package var corpus: Corpus
    package var vectors: Matrix?
    /// Files read, for input checksums (`DatasetRegistry.files`).
    package var files: [String] = []
    /// Whether the items are a seeded draw (another seed gives other items), so replicates re-draw it.
    package var isSample = false
}

/// Every corpus the harness knows: what it is, its licence, the options it takes with their values, and how it loads.
/// A new corpus is an entry here (or a `CarriedCorpus`); `--corpus`, `datasets list`, `analyze --help`, the validator
/// of experiment files and the table of docs/method.md read this list.
package enum DatasetRegistry {
    package struct Entry: Sendable {
        /// Its name, what it is, where it comes from, its licence and citation.
        package var about: CorpusAbout
        package var name: String { about.name }
        /// The fields of an experiment file's corpus it takes besides `name`, `as` and `resample`, each with the values it
        /// may hold, checked by the one validator of settings (`ExperimentSchema.check`).
        package var options: [CorpusSpec.CodingKeys: Constraint] = [:]
        /// The files a spec naming this entry is read from, without reading them (what the output-path check and the
        /// stage keys need).
        package var files: @Sendable (_ spec: CorpusSpec, _ dataDirectory: String?) throws -> [String]
        /// The corpus a spec naming this entry denotes (options already checked), read from the data folder if given.
        package var load: @Sendable (_ spec: CorpusSpec, _ dataDirectory: String?) throws -> LoadedCorpus

        /// The entry of a carried corpus: no options, its files checked on every read.
        package init(carried c: CarriedCorpus) {
            about = c.about
            files = { _, dataDirectory in try c.paths(dataDirectory: dataDirectory) }
            load = { _, dataDirectory in try c.load(dataDirectory: dataDirectory) }
        }

        package init(
            _ name: String, _ description: String, source: String, licence: String, citation: String,
            options: [CorpusSpec.CodingKeys: Constraint] = [:],
            files: @escaping @Sendable (_ spec: CorpusSpec, _ dataDirectory: String?) throws -> [String],
            load: @escaping @Sendable (_ spec: CorpusSpec, _ dataDirectory: String?) throws -> LoadedCorpus
        ) {
            about = CorpusAbout(name: name, description: description, source: source, licence: licence, citation: citation)
            (self.options, self.files, self.load) = (options, files, load)
        }
    }

    /// The registry's corpora, in the order `datasets list` shows them.
    package static let entries: [Entry] =
        [
            seed("seed-12", "12 journal sentences, 4 topics of 4, 3, 3, 2 (the shape the journal method's author ran Otsu on)"),
            seed(
                "seed-26",
                "26 journal sentences, 6 topics of 7, 6, 5, 4, 2, 2 (the shape the journal method's author ran the fixed 0.55 on)"),
            Entry(
                "synthetic", "vector-level generator (no text); default: the raw picture the journal method's author reported, d = 512",
                source: "generated (themelab synth)", licence: "n/a", citation: "this repository",
                options: [.generator: .object, .seed: .seed], files: { _, _ in [] }, load: { spec, _ in synthetic(spec) }),
            Entry(
                "clinc150", "intent utterances, 150 intents in 10 domains (intent or domain level)",
                source: "Datasets/clinc150 (github.com/clinc/oos-eval @ 828f809)", licence: "CC BY 3.0",
                citation: "Larson et al., An Evaluation Dataset for Intent Classification and Out-of-Scope Prediction, EMNLP-IJCNLP 2019",
                options: [
                    .split: .oneOf(["train", "val", "test"]), .level: .oneOf(["intent", "domain"]), .intents: .count(CLINC150.intentCounts),
                    .perIntent: .count(CLINC150.perIntentCounts), .includeOutOfScope: .flag, .seed: .seed,
                ],
                files: { _, dataDirectory in try CLINC150.paths(folder: datasetFolder("clinc150", dataDirectory: dataDirectory)) },
                load: clinc150),
            wordnet("wordnet-domains", "WordNet glosses labeled by topic domain (;c pointer)", WordNet.domains),
            wordnet("wordnet-lexnames", "WordNet example sentences labeled by lexicographer file", WordNet.lexnames),
        ] + CarriedCorpus.all.map(Entry.init(carried:))

    /// A JSONL, CSV or TSV file (`--corpus PATH`, or `{"name": "file", "path": …}`): not a listed corpus.
    package static let file = Entry(
        "file", "a JSONL, CSV or TSV corpus of your own", source: "path", licence: "yours", citation: "",
        options: [.path: .path, .idColumn: .columnName, .textColumn: .columnName, .labelColumn: .columnName],
        files: { spec, _ in [try filePath(spec)] },
        load: { spec, _ in LoadedCorpus(corpus: try CorpusReader.read(path: try filePath(spec), columns: spec.columns)) })

    private static func filePath(_ spec: CorpusSpec) throws -> String {
        guard let path = spec.path else { throw ThemeLabError.invalid("corpus 'file' needs a path") }
        return path
    }

    /// The entry `name` names (`file` included), or nil.
    package static func entry(_ name: String) -> Entry? { name == file.name ? file : entries.first { $0.name == name } }

    /// The values option `key` may hold, as the corpora that take it declare them (the same for each, as
    /// `CorpusRegistryTests` checks), or nil when none takes it.
    package static func option(_ key: CorpusSpec.CodingKeys) -> Constraint? { ([file] + entries).lazy.compactMap { $0.options[key] }.first }

    /// The entries that take option `key`, for "does not apply … (only to …)".
    package static func corpora(taking key: CorpusSpec.CodingKeys) -> [String] {
        ([file] + entries).filter { $0.options[key] != nil }.map(\.name)
    }

    private static func seed(_ name: String, _ description: String) -> Entry {
        @Sendable func path() throws -> String {
            guard let path = ProjectFiles.locate("Datasets/\(name).jsonl") else {
                throw ThemeLabError.input("Datasets/\(name).jsonl not found (run from a checkout of the project)")
            }
            return path
        }
        return Entry(
            name, description, source: "Datasets/\(name).jsonl (written by this project)", licence: "CC0", citation: "this repository",
            files: { _, _ in [try path()] }, load: { _, _ in LoadedCorpus(corpus: try CorpusReader.read(path: try path())) })
    }

    private static func synthetic(_ spec: CorpusSpec) -> LoadedCorpus {
        var g = spec.generator ?? .journalMethodRaw()
        if let s = spec.seed { g.seed = s }
        let (corpus, vectors) = g.corpus(
            name: spec.generator == nil ? "synthetic-app-raw" + (spec.seed.map { "-seed\($0)" } ?? "") : g.identity)
        return LoadedCorpus(corpus: corpus, vectors: vectors, isSample: true)
    }

    private static func clinc150(_ spec: CorpusSpec, dataDirectory: String?) throws -> LoadedCorpus {
        let folder = try datasetFolder("clinc150", dataDirectory: dataDirectory)
        var o = CLINC150.Options()
        if let v = spec.split { o.split = v }
        if let v = spec.level { o.level = v }
        o.intents = spec.intents
        o.perIntent = spec.perIntent
        o.includeOutOfScope = spec.includeOutOfScope ?? false
        o.seed = spec.seed ?? 0
        return LoadedCorpus(corpus: try CLINC150.load(folder: folder, options: o), isSample: o.intents != nil || o.perIntent != nil)
    }

    private static func wordnet(
        _ name: String, _ description: String, _ corpus: @escaping @Sendable (String, Int) throws -> Corpus
    ) -> Entry {
        Entry(
            name, description, source: "/usr/share/wordnet (Debian wordnet-base)", licence: "WordNet 3.0 licence (BSD-like)",
            citation: "Miller, WordNet: A Lexical Database for English, CACM 1995; Fellbaum (ed.) 1998",
            options: [.minimumTopicSize: .count(WordNet.minimumTopicSizes), .maxItems: .count(WordNet.itemCaps), .seed: .seed],
            files: { _, _ in WordNet.parts.map { "\(WordNet.defaultFolder)/data.\($0)" } },
            load: { spec, _ in
                var c = try corpus(WordNet.defaultFolder, spec.minimumTopicSize ?? 20)
                let isSample = spec.maxItems.map { $0 < c.count } ?? false
                if let cap = spec.maxItems, cap < c.count {
                    let keep = SeededRandom.sample(cap, of: c.count, seed: spec.seed ?? 0)
                    c.items = keep.map { c.items[$0] }
                    c.name += "-\(cap)" + (spec.seed.map { "-seed\($0)" } ?? "")
                }
                return LoadedCorpus(corpus: c, isSample: isSample)
            })
    }

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

    /// The corpus `spec` names, under its `as` name when it has one.
    /// - Parameters:
    ///   - spec: a registry name with its options, or `file` with a path (`CorpusSpec`).
    ///   - dataDirectory: a folder holding the real corpora in place of `Datasets/` (nil: `Datasets/`).
    /// - Returns: the corpus, its own vectors when it brings them (the generator), and the files it was read from.
    package static func load(_ spec: CorpusSpec, dataDirectory: String? = nil) throws -> LoadedCorpus {
        guard let entry = entry(spec.name) else { throw unknownCorpus(spec.name) }
        var loaded = try entry.load(spec, dataDirectory)
        loaded.files = try entry.files(spec, dataDirectory)
        if let name = spec.as { loaded.corpus.name = name }
        return loaded
    }

    /// The files the corpus `spec` names is read from, without reading it.
    package static func files(_ spec: CorpusSpec, dataDirectory: String? = nil) throws -> [String] {
        guard let entry = entry(spec.name) else { throw unknownCorpus(spec.name) }
        let files = try entry.files(spec, dataDirectory)
        // A file missing: the loader's own error says where the corpus is expected.
        if files.contains(where: { !FileManager.default.fileExists(atPath: $0) }) { _ = try entry.load(spec, dataDirectory) }
        return files
    }

    package static func unknownCorpus(_ name: String) -> ThemeLabError {
        ThemeLabError.invalid(
            "unknown corpus '\(name)' (expected \(entries.map(\.name).joined(separator: ", ")), or file with a path)")
    }
}
