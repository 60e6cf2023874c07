import Foundation
import ThemeLabCore

/// How a fixed corpus (one whose items do not depend on a seed: the seeds, a whole CLINC150
/// split, a file) is resampled into replicates.
///
/// Stratified subsampling without replacement: each replicate keeps round(f·nₜ) items of every
/// topic t (at least one), chosen by a seeded permutation. The bootstrap (with replacement) would
/// put copies of an item in the corpus: a copy and its original are a "related" pair at
/// similarity 1, which inflates the related share, pulls every threshold and joins the copies in
/// every grouping. Subsampling keeps items distinct and topic proportions fixed (Politis, Romano
/// & Wolf, *Subsampling*, 1999).
package struct Resampling: Codable, Sendable, Equatable {
    package static let schemes = ["stratified-subsample"]
    package var scheme: String
    /// Share of each topic a replicate keeps, in (0, 1].
    package var fraction: Double

    package init(scheme: String = "stratified-subsample", fraction: Double) {
        self.scheme = scheme
        self.fraction = fraction
    }

    package enum Keys: String, CodingKey, CaseIterable { case scheme, fraction }

    /// The scheme may be left out (there is one).
    package init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: Keys.self)
        scheme = try c.decodeIfPresent(String.self, forKey: .scheme) ?? Self.schemes[0]
        fraction = try c.decode(Double.self, forKey: .fraction)
    }

    package var description: String { "stratified subsample of \(String(format: "%g", fraction * 100))% of each topic without replacement" }

    /// The indices (ascending, so corpus order is kept) of replicate `seed`'s items.
    package func subsample(_ corpus: Corpus, seed: UInt64) -> [Int] {
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
