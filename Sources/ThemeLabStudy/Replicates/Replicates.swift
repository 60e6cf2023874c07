import Foundation
import ThemeLabCore
import ThemeLabCorpus
import ThemeLabEncoder
import ThemeLabMeasures
import ThemeLabMethods
import ThemeLabPairs

/// The replicates of one corpus: re-draws of a sampled corpus (its seed + r, so replicate 0 is
/// the experiment's own draw), or seeded resamples of a fixed one (seed = the experiment's seed + r).
package struct ReplicateCorpus {
    package var loaded: LoadedCorpus
    /// For a resample, the rows of the full corpus it keeps (to cut given vectors).
    package var kept: [Int]?

    package init(loaded: LoadedCorpus, kept: [Int]? = nil) {
        self.loaded = loaded
        self.kept = kept
    }

    package static let count = 2...1000

    /// Replicate `r` of the corpus `spec` loaded as `full`.
    package static func make(
        _ r: Int, spec: CorpusSpec, full: LoadedCorpus, resampling: Resampling?, seed: UInt64, dataDirectory: String?
    ) throws -> ReplicateCorpus {
        if let resampling {
            let kept = resampling.subsample(full.corpus, seed: seed &+ UInt64(r))
            var loaded = full
            loaded.corpus.items = kept.map { full.corpus.items[$0] }
            loaded.vectors = full.vectors.map { $0.rows(kept) }
            return ReplicateCorpus(loaded: loaded, kept: kept)
        }
        if r == 0 { return ReplicateCorpus(loaded: full, kept: nil) }
        var redrawn = spec
        redrawn.seed = baseSeed(spec) &+ UInt64(r)
        return ReplicateCorpus(loaded: try DatasetRegistry.load(redrawn, dataDirectory: dataDirectory), kept: nil)
    }

    /// The seed a sampled corpus is drawn with when its spec gives none (the generator's own, else 0).
    package static func baseSeed(_ spec: CorpusSpec) -> UInt64 {
        spec.seed ?? (spec.name == "synthetic" ? (spec.generator ?? .journalMethodRaw()).seed : 0)
    }

    /// How the replicates of `corpora[index]` are drawn, checked on the first two draws (nothing else is drawn until
    /// it is analysed): a fixed corpus needs a resampling scheme, a sampled one must not get one, and a re-draw must
    /// change the items.
    package static func draws(
        of spec: CorpusSpec, at index: Int, full: LoadedCorpus, plan: ExperimentPlan, count: Int, dataDirectory: String?
    ) throws -> ReplicateDraws {
        let source = plan.file.map(ParameterSource.experiment) ?? .commandLine
        let name = full.corpus.name
        let seed = plan.settings.seed
        if full.isSample {
            if spec.resample != nil {
                throw source.error(
                    "corpora[\(index)].resample",
                    "does not apply: '\(name)' is a seeded sample, so each replicate re-draws it (seed + r)")
            }
            let draws = ReplicateDraws(spec: spec, full: full, resampling: nil, seed: seed, count: count, dataDirectory: dataDirectory)
            if try draws.draw(1).loaded.corpus.items.map(\.id) == full.corpus.items.map(\.id) && full.vectors == nil {
                throw source.error(
                    "corpora[\(index)]",
                    "'\(name)': re-drawing with another seed gives the same items (the sample is the whole corpus); "
                        + "drop the sample size or give a 'resample'")
            }
            let base = baseSeed(spec)
            return draws.described("re-drawn with seeds \(base) to \(base &+ UInt64(count - 1))")
        }
        guard let resampling = spec.resample ?? plan.resample else {
            throw source.error(
                "corpora[\(index)].resample",
                "is missing: '\(name)' is fixed (every re-draw is the same items), so replicates need a scheme, e.g. "
                    + "{\"scheme\": \"stratified-subsample\", \"fraction\": 0.8}, here or at the top level")
        }
        let draws = ReplicateDraws(spec: spec, full: full, resampling: resampling, seed: seed, count: count, dataDirectory: dataDirectory)
        if try draws.draw(0).kept?.count == full.corpus.count {
            throw source.error(
                spec.resample == nil ? "resample.fraction" : "corpora[\(index)].resample.fraction",
                "keeps every item of '\(name)' (\(resampling.fraction) of each topic), so every replicate is the whole corpus and "
                    + "an interval over them would have no width; use a fraction below 1, e.g. 0.8")
        }
        return draws.described(resampling.description + ", seeds \(seed) to \(seed &+ UInt64(count - 1))")
    }
}

/// The replicates of one corpus, drawn one at a time when each is analysed (`draw`), never all at once.
package struct ReplicateDraws {
    package var spec: CorpusSpec
    package var full: LoadedCorpus
    package var resampling: Resampling?
    package var seed: UInt64
    package var count: Int
    package var dataDirectory: String?
    /// How they are drawn, for the results: "re-drawn with seeds 1 to 10", or the scheme with its seeds.
    package var scheme = ""

    /// Replicate `r` (0 ..< count).
    package func draw(_ r: Int) throws -> ReplicateCorpus {
        try ReplicateCorpus.make(r, spec: spec, full: full, resampling: resampling, seed: seed, dataDirectory: dataDirectory)
    }

    func described(_ scheme: String) -> ReplicateDraws {
        var d = self
        d.scheme = scheme
        return d
    }
}
