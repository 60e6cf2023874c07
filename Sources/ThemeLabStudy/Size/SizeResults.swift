import Foundation
import ThemeLabCore
import ThemeLabMeasures
import ThemeLabMethods

/// What a size experiment measured (`SizeRun`): per corpus and size, average linkage's best-threshold ARI (the ceiling)
/// and each method's ARI on every draw. The ratios, the smallest sizes and the size-aware choice are derived from these
/// (`SizeCurves`), so the results file holds only measured figures.
package struct SizeResults: Codable, Sendable {
    package var name: String
    package var description: String?
    package var provenance: Provenance
    package var space: EmbeddingSpace
    package var seed: UInt64
    /// Read-only once made: every point's ratios are computed from them then.
    package private(set) var methods: [SizeMethod]
    package private(set) var curves: [SizeCurve]
    /// The resamples of every count of draws, drawn once (`ratio` reads them for every point and method).
    package private(set) var bootstraps: [Int: PercentileBootstrap] = [:]

    package enum CodingKeys: String, CodingKey { case name, description, provenance, space, seed, methods, curves }

    package init(
        name: String, description: String?, provenance: Provenance, space: EmbeddingSpace, seed: UInt64, methods: [SizeMethod],
        curves: [SizeCurve]
    ) {
        (self.name, self.description, self.provenance, self.space, self.seed) = (name, description, provenance, space, seed)
        (self.methods, self.curves) = (methods, curves)
        drawResamples()
    }

    package init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        (name, description) = (try c.decode(String.self, forKey: .name), try c.decodeIfPresent(String.self, forKey: .description))
        (provenance, space) = (try c.decode(Provenance.self, forKey: .provenance), try c.decode(EmbeddingSpace.self, forKey: .space))
        (seed, methods) = (try c.decode(UInt64.self, forKey: .seed), try c.decode([SizeMethod].self, forKey: .methods))
        curves = try c.decode([SizeCurve].self, forKey: .curves)
        drawResamples()
    }

    /// Draws the resamples, then every method's ratio at every point, once (`SizePoint.ratios`).
    private mutating func drawResamples() {
        for n in Set(curves.flatMap { $0.points.map(\.draws) }) where n > 1 { bootstraps[n] = PercentileBootstrap(count: n, seed: seed) }
        let at = curves.indices.flatMap { c in curves[c].points.indices.map { (c, $0) } }
        let measured = self
        let ratios = parallelMap(at.count) { k in
            let p = measured.curves[at[k].0].points[at[k].1]
            return p.ari.map { measured.ratio($0, ceiling: p.ceiling) }
        }
        for (k, (c, p)) in at.enumerated() { curves[c].points[p].ratios = ratios[k] }
    }
}

/// A label-free method of the size experiment: a threshold grouping at a rule's threshold, or a grouping that cuts itself;
/// its family is the threshold grouping's name, `ownCuts` for the study's groupings that cut themselves and `added` for
/// those the size experiment adds (a figure each).
package struct SizeMethod: Codable, Sendable, Hashable, CustomStringConvertible {
    package var grouping: GroupingKey
    package var rule: RuleKey?
    package var family: String

    package static let ownCuts = "own cuts"
    package static let added = "added"
    package static let candidate = "candidate"

    package init(grouping: GroupingKey, rule: RuleKey? = nil, family: String) {
        (self.grouping, self.rule, self.family) = (grouping, rule, family)
    }

    /// The study's suggested default, as the method it names.
    package init(suggested f: RecommendationFile) {
        self.init(grouping: GroupingKey(f.grouping), rule: f.rule.map { RuleKey($0) }, family: "")
    }

    /// "leader + kittler-illingworth", "leiden-silhouette".
    package var description: String { grouping.name + (rule.map { " + \($0.name)" } ?? "") }
}

/// One corpus of a size experiment: its role, its size and topics, and a point per size measured.
package struct SizeCurve: Codable, Sendable {
    package enum Role: String, Codable, Sendable {
        case tuning, study
    }
    package var corpus: String
    package var role: Role
    package var items: Int
    package var topics: Int
    package var points: [SizePoint]

    package init(corpus: String, role: Role, items: Int, topics: Int, points: [SizePoint]) {
        (self.corpus, self.role, self.items, self.topics, self.points) = (corpus, role, items, topics, points)
    }
}

/// One size of one corpus: the ceiling and every method's ARI and groups on each draw (nil where a method gave no groups,
/// an ARI counted as 0 as regret counts it; no draws for a method not run on the corpus's role, a candidate on a study
/// corpus), and how many draws each method fell back on a default (the spectral estimator's k when no
/// eigengap clears its threshold).
package struct SizePoint: Codable, Sendable {
    package var items: Int
    package var ceiling: [Double]
    /// By method, in `SizeResults.methods` order.
    package var ari: [[Double?]]
    /// By method: the groups on each draw.
    package var groups: [[Int?]]
    package var fallbacks: [Int]
    /// By method: its ratio (`SizeResults.ratio`), set once when the results are made or read; empty until then.
    package internal(set) var ratios: [SizeRatio?] = []

    package enum CodingKeys: String, CodingKey { case items, ceiling, ari, groups, fallbacks }

    package init(items: Int, ceiling: [Double], ari: [[Double?]], groups: [[Int?]], fallbacks: [Int]) {
        (self.items, self.ceiling, self.ari, self.groups, self.fallbacks) = (items, ceiling, ari, groups, fallbacks)
    }

    package var draws: Int { ceiling.count }
}
