import Foundation
import ThemeLabCore
import ThemeLabCorpus
import ThemeLabEncoder
import ThemeLabMeasures
import ThemeLabMethods
import ThemeLabPairs

/// One shard of an experiment grid (`themelab ablate PLAN --shard i/n --out PART`): the analyses of the corpora
/// k with k mod n = i, with what they came from, so `themelab gather` can write the `results/NAME/` files a local
/// `ablate` writes. A corpus is the unit because its encoders, layers and replicates share its embedding cache
/// and its replicate draws.
package struct GridPart: Codable, Sendable {
    package static let currentSchema = 1
    package var schemaVersion = GridPart.currentSchema
    /// SHA-256 of the experiment file's bytes: parts of an edited file are refused.
    package var planChecksum: String
    package var shard: PairShard
    /// The corpora this shard covers (indices into the experiment's `corpora`), and how many of
    /// `results.analyses` each one produced, in the same order.
    package var corpora: [Int]
    package var analysesPerCorpus: [Int]
    /// The shard's results: the task's provenance (kernel, inputs, model), settings and analyses.
    package var results: AnalysisResults

    /// Runs one shard of `plan` (read from `planPath`).
    package static func run(_ plan: ExperimentPlan, planPath: String, shard: PairShard, in environment: RunEnvironment) throws -> GridPart {
        if plan.settings.assignments == true {
            throw ParameterSource.experiment(planPath).error(
                "assignments", "are written by a whole run, not carried by shards: run `themelab ablate` without --shard")
        }
        if plan.settings.html == true {
            throw ParameterSource.experiment(planPath).error(
                "html", "is written by a whole run, not carried by shards: run `themelab ablate` without --shard")
        }
        let corpora = try plan.corpusIndices(in: shard)
        let (results, perCorpus) = try plan.runCounting(in: environment, shard: shard)
        return GridPart(
            planChecksum: try SHA256.hex(file: planPath), shard: shard, corpora: corpora, analysesPerCorpus: perCorpus, results: results)
    }

    /// Reads and checks a part file, naming it in every refusal.
    package static func read(path: String) throws -> GridPart {
        guard let data = FileManager.default.contents(atPath: path) else { throw ThemeLabError.input("\(path): cannot read") }
        return try decode(data, name: path)
    }

    package static func decode(_ data: Data, name path: String) throws -> GridPart {
        let part = try JSONOutput.decode(GridPart.self, from: data, file: path, expected: "part written by themelab ablate --shard")
        guard part.schemaVersion == currentSchema else {
            throw ThemeLabError.input("\(path): schemaVersion \(part.schemaVersion); this themelab reads \(currentSchema)")
        }
        guard part.shard.count >= 1, (0..<part.shard.count).contains(part.shard.index) else {
            throw ThemeLabError.input("\(path): 'shard' must have 0 ≤ index < count")
        }
        guard part.corpora.count == part.analysesPerCorpus.count,
            part.analysesPerCorpus.allSatisfy({ (0...part.results.analyses.count).contains($0) }),
            part.analysesPerCorpus.reduce(0, +) == part.results.analyses.count
        else {
            throw ThemeLabError.input("\(path): 'analysesPerCorpus' does not match 'corpora' and the analyses it holds")
        }
        return part
    }

    /// The SHA-256 of an input as provenance names it (relative to the checkout, or absolute), or nil when it is gone:
    /// a part is checked against the files the grid reads, not taken at its word.
    package static func checksumNow(_ path: String) throws -> String? {
        let root = ProjectFiles.locate("Package.swift").map { URL(fileURLWithPath: $0).deletingLastPathComponent().path }
        let file = path.hasPrefix("/") ? path : (root.map { "\($0)/\(path)" } ?? path)
        return FileManager.default.fileExists(atPath: file) ? try SHA256.hex(file: file) : nil
    }

    /// The results of the whole grid from one part per shard, as `plan.run` gives them locally: analyses in corpus
    /// order, the union of the parts' input checksums, the tasks' kernel and model. Refused, naming the part: an
    /// edited experiment file, other settings (e.g. `--replicates`), another kernel or version, an input whose
    /// checksum differs between tasks, a missing shard, and a shard given twice with different figures.
    /// `checksum` gives an input's SHA-256 as it is now (nil: the file is gone); each part's recorded inputs must match it.
    package static func gather(
        _ parts: [GridPart], names: [String], plan: ExperimentPlan, planChecksum: String, command: [String], createdAt: Date,
        checksum: (String) throws -> String? = GridPart.checksumNow
    ) throws -> AnalysisResults {
        guard let first = parts.first else { throw ThemeLabError.invalid("nothing to gather") }
        var now: [String: String?] = [:]  // each input hashed once, however many parts name it
        for (p, name) in zip(parts, names) {
            try p.check(name, against: first, named: names[0], plan: plan, planChecksum: planChecksum)
            try p.checkInputs(name, now: &now, checksum: checksum)
        }
        let distinct = try ShardSet.distinct(zip(parts, names).map { ($0.shard, $1, (part: $0, name: $1)) }, count: first.shard.count) {
            try sameFigures($0.part, $1.part)
        }
        var merged = Merged()
        for (p, name) in distinct { try merged.add(p, name: name) }
        var provenance = first.results.provenance
        provenance.command = command
        provenance.inputs = merged.inputs
        provenance.model = merged.model
        provenance.createdAt = ISO8601DateFormatter().string(from: createdAt)
        return AnalysisResults(
            name: plan.name, provenance: provenance, settings: first.results.settings,
            analyses: plan.corpora.indices.flatMap { merged.byCorpus[$0] ?? [] })
    }

    /// Refuses this part (`name`) unless it is of `plan` as it is, run like `first` (`firstName`), and holds the corpora
    /// of its shard with as many analyses each as the experiment gives.
    private func check(
        _ name: String, against first: GridPart, named firstName: String, plan: ExperimentPlan, planChecksum: String
    ) throws {
        guard self.planChecksum == planChecksum, results.name == plan.name else {
            throw ThemeLabError.input("\(name) was computed from another version of \(plan.file ?? plan.name) (its checksum differs)")
        }
        guard results.settings == first.results.settings, shard.count == first.shard.count else {
            throw ThemeLabError.input("\(name) was run with other settings or shard count than \(firstName) (e.g. --replicates)")
        }
        let (a, b) = (results.provenance, first.results.provenance)
        guard a.version == b.version, a.blas.kernel == b.blas.kernel else {
            throw ThemeLabError.input(
                "\(name) ran themelab \(a.version) on kernel \(a.blas.kernel), \(firstName) \(b.version) on \(b.blas.kernel): "
                    + "figures of one grid come from one kernel (pin the nodes or OPENBLAS_CORETYPE)")
        }
        guard shard.count <= plan.corpora.count else {
            throw ThemeLabError.input("\(name): shard count \(shard.count); the experiment has \(plan.corpora.count) corpora")
        }
        guard corpora == (try plan.corpusIndices(in: shard)) else {
            throw ThemeLabError.input("\(name): its corpora \(corpora) are not those of shard \(shard.index)/\(shard.count)")
        }
        for (k, count) in zip(corpora, analysesPerCorpus) where count != plan.analysesPerCorpus(k) {
            throw ThemeLabError.input(
                "\(name): says corpus \(k) gave \(count) analyses; the experiment gives \(plan.analysesPerCorpus(k)) "
                    + "(one per vector source)")
        }
    }

    /// Refuses this part (`name`) unless every input it records is there with the checksum it records; `now` holds the
    /// checksums taken so far.
    private func checkInputs(_ name: String, now: inout [String: String?], checksum: (String) throws -> String?) throws {
        for (path, sum) in results.provenance.inputs.sorted(by: { $0.key < $1.key }) {
            if now[path] == nil { now[path] = try checksum(path) }
            guard let current = now[path]! else { throw ThemeLabError.input("\(name): its input \(path) is not there to check") }
            guard current == sum else {
                throw ThemeLabError.input("\(name): its input \(path) has another checksum now than the part records")
            }
        }
    }

    /// Whether two parts of one shard hold the same figures: analyses, input checksums and model.
    private static func sameFigures(_ a: GridPart, _ b: GridPart) throws -> Bool {
        try JSONOutput.encode(a.results.analyses) == JSONOutput.encode(b.results.analyses)
            && a.results.provenance.inputs == b.results.provenance.inputs && a.results.provenance.model == b.results.provenance.model
    }

    /// The parts gathered so far: analyses by corpus, input checksums and the model embedded with.
    private struct Merged {
        var byCorpus: [Int: [CorpusAnalysis]] = [:]
        var inputs: [String: String] = [:]
        var model: String?

        /// Adds one part's (`name`) analyses corpus by corpus, its input checksums and its model, refusing any that conflict.
        mutating func add(_ p: GridPart, name: String) throws {
            var rest = p.results.analyses[...]
            for (k, count) in zip(p.corpora, p.analysesPerCorpus) {
                let analyses = Array(rest.prefix(count))
                guard Set(analyses.map(\.corpus.name)).count == 1,
                    !byCorpus.values.contains(where: { $0.first?.corpus.name == analyses[0].corpus.name })
                else {
                    throw ThemeLabError.input("\(name): the analyses it gives for corpus \(k) are of another corpus, or of two")
                }
                byCorpus[k] = analyses
                rest = rest.dropFirst(count)
            }
            for (path, sum) in p.results.provenance.inputs {
                if let other = inputs[path], other != sum {
                    throw ThemeLabError.input("\(path) changed while the grid ran: shards read it with different checksums")
                }
                inputs[path] = sum
            }
            if let m = p.results.provenance.model {
                guard model == nil || model == m else { throw ThemeLabError.input("the shards embedded with different model files") }
                model = m
            }
        }
    }
}
