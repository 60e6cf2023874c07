import Foundation

/// How a fixed corpus (one whose items do not depend on a seed: the seeds, a whole CLINC150
/// split, a file) is resampled into replicates.
///
/// Stratified subsampling without replacement: each replicate keeps round(f·nₜ) items of every
/// topic t (at least one), chosen by a seeded permutation. The bootstrap (with replacement) would
/// put copies of an item in the corpus: a copy and its original are a "related" pair at
/// similarity 1, which inflates the related share, pulls every threshold and joins the copies in
/// every grouping. Subsampling keeps items distinct and topic proportions fixed (Politis, Romano
/// & Wolf, *Subsampling*, 1999).
public struct Resampling: Codable, Sendable, Equatable {
    static let schemes = ["stratified-subsample"]
    public var scheme: String
    /// Share of each topic a replicate keeps, in (0, 1].
    public var fraction: Double

    public init(scheme: String = "stratified-subsample", fraction: Double) {
        self.scheme = scheme
        self.fraction = fraction
    }

    enum Keys: String, CodingKey, CaseIterable { case scheme, fraction }

    /// The scheme may be left out (there is one).
    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: Keys.self)
        scheme = try c.decodeIfPresent(String.self, forKey: .scheme) ?? Self.schemes[0]
        fraction = try c.decode(Double.self, forKey: .fraction)
    }

    public var description: String { "stratified subsample of \(String(format: "%g", fraction * 100))% of each topic without replacement" }

    /// Scheme and fraction within bounds.
    func validate(at path: String, source: ParameterSource) throws {
        guard Self.schemes.contains(scheme) else {
            throw source.error("\(path).scheme", "must be \(Self.schemes.joined(separator: " or ")), got '\(scheme)'")
        }
        guard fraction.isFinite, fraction > 0, fraction <= 1 else {
            throw source.error("\(path).fraction", "must be in (0, 1], got \(fraction)")
        }
    }

    /// The indices (ascending, so corpus order is kept) of replicate `seed`'s items.
    public func subsample(_ corpus: Corpus, seed: UInt64) -> [Int] {
        let labels = corpus.labelIndices() ?? [Int32](repeating: 0, count: corpus.count)
        var members: [Int32: [Int]] = [:]
        for (i, l) in labels.enumerated() { members[l, default: []].append(i) }
        var rng = SeededRandom(seed: seed)
        var kept: [Int] = []
        for label in members.keys.sorted() {
            let m = members[label]!
            let take = max(1, Int((fraction * Double(m.count)).rounded(.toNearestOrAwayFromZero)))
            kept += SeededRandom.permutation(count: m.count, seed: rng.next()).prefix(take).map { m[$0] }
        }
        return kept.sorted()
    }
}

/// The replicates of one corpus: re-draws of a sampled corpus (its seed + r, so replicate 0 is
/// the experiment's own draw), or seeded resamples of a fixed one (seed = the experiment's seed + r).
public struct ReplicateCorpus {
    var loaded: LoadedCorpus
    /// For a resample, the rows of the full corpus it keeps (to cut given vectors).
    public var kept: [Int]?

    public init(loaded: LoadedCorpus, kept: [Int]? = nil) {
        self.loaded = loaded
        self.kept = kept
    }

    public static let count = 2...1000

    /// Replicate `r` of the corpus `spec` loaded as `full`.
    static func make(
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
    static func baseSeed(_ spec: CorpusSpec) -> UInt64 {
        spec.seed ?? (spec.name == "synthetic" ? (spec.generator ?? .appRaw()).seed : 0)
    }

    /// Every replicate of `corpora[index]`, checked: a fixed corpus needs a resampling scheme, a
    /// sampled one must not get one, and a re-draw must change the items.
    static func all(
        of spec: CorpusSpec, at index: Int, full: LoadedCorpus, plan: ExperimentPlan, count: Int, dataDirectory: String?
    ) throws -> (replicates: [ReplicateCorpus], scheme: String) {
        let source = plan.file.map(ParameterSource.experiment) ?? .commandLine
        let name = full.corpus.name
        if full.isSample {
            if spec.resample != nil {
                throw source.error(
                    "corpora[\(index)].resample",
                    "does not apply: '\(name)' is a seeded sample, so each replicate re-draws it (seed + r)")
            }
            let replicates = try (0..<count).map {
                try make($0, spec: spec, full: full, resampling: nil, seed: plan.settings.seed, dataDirectory: dataDirectory)
            }
            if replicates[1].loaded.corpus.items.map(\.id) == full.corpus.items.map(\.id) && full.vectors == nil {
                throw source.error(
                    "corpora[\(index)]",
                    "'\(name)': re-drawing with another seed gives the same items (the sample is the whole corpus); "
                        + "drop the sample size or give a 'resample'")
            }
            let seed = baseSeed(spec)
            return (replicates, "re-drawn with seeds \(seed) to \(seed &+ UInt64(count - 1))")
        }
        guard let resampling = spec.resample ?? plan.resample else {
            throw source.error(
                "corpora[\(index)].resample",
                "is missing: '\(name)' is fixed (every re-draw is the same items), so replicates need a scheme, e.g. "
                    + "{\"scheme\": \"stratified-subsample\", \"fraction\": 0.8}, here or at the top level")
        }
        let replicates = try (0..<count).map {
            try make($0, spec: spec, full: full, resampling: resampling, seed: plan.settings.seed, dataDirectory: dataDirectory)
        }
        if replicates[0].kept?.count == full.corpus.count {
            throw source.error(
                spec.resample == nil ? "resample.fraction" : "corpora[\(index)].resample.fraction",
                "keeps every item of '\(name)' (\(resampling.fraction) of each topic), so every replicate is the whole corpus and "
                    + "an interval over them would have no width; use a fraction below 1, e.g. 0.8")
        }
        return (replicates, resampling.description + ", seeds \(plan.settings.seed) to \(plan.settings.seed &+ UInt64(count - 1))")
    }
}
