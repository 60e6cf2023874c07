import Foundation
import ThemeLabCore
import ThemeLabCorpus
import ThemeLabEncoder
import ThemeLabMeasures
import ThemeLabMethods
import ThemeLabPairs

/// What to compute for one corpus and one set of vectors, as values: a file's or a command line's names are read
/// once, when the settings are decoded or set (`ParameterSource.values`), and written back as the same names.
package struct AnalysisSettings: Codable, Sendable, Equatable {
    package var spaces: [EmbeddingSpace] = [.raw, .centred]
    /// The threshold rules, in the order their rows appear (the field `thresholds`).
    package var rules: [ThresholdRule] = standardThresholdRules
    package var groupings: [Grouping] = standardGroupings
    /// Seeded shuffles for the leader grouping's spread.
    package var shuffles: Int = 10
    package var seed: UInt64 = 0
    /// Replicates of each corpus for intervals (nil: one sample, no intervals).
    package var replicates: Int?
    /// Above this many pairs Otsu and Kittler–Illingworth read their histogram off the fine
    /// one (a pair within 3.1e-5 of a bin edge may land one bin off) instead of a second pass.
    package var exactHistogramPairLimit: Int = 1_250_000_000
    /// Whether `ablate` writes which entries form each group (`assignments/`; the field `assignments`, default no).
    package var assignments: Bool?
    /// Whether `ablate` writes the threshold explorer page (`NAME.html`; the field `html`, default no).
    package var html: Bool?

    package init() {}

    package enum CodingKeys: String, CodingKey {
        case spaces, thresholds, groupings, shuffles, seed, replicates, exactHistogramPairLimit, assignments, html
    }

    /// Defaults for what `decoder` leaves out (an experiment file's top level), every field from a results file.
    package init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        spaces = try c.values(.spaces, EmbeddingSpace.init(name:)) ?? spaces
        rules = try c.values(.thresholds, thresholdRule(named:)) ?? rules
        groupings = try c.values(.groupings, grouping(named:)) ?? groupings
        shuffles = try c.decodeIfPresent(Int.self, forKey: .shuffles) ?? shuffles
        seed = try c.decodeIfPresent(UInt64.self, forKey: .seed) ?? seed
        replicates = try c.decodeIfPresent(Int.self, forKey: .replicates)
        exactHistogramPairLimit = try c.decodeIfPresent(Int.self, forKey: .exactHistogramPairLimit) ?? exactHistogramPairLimit
        assignments = try c.decodeIfPresent(Bool.self, forKey: .assignments)
        html = try c.decodeIfPresent(Bool.self, forKey: .html)
    }

    package func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(spaces.map(\.description), forKey: .spaces)
        try c.encode(rules.map(\.name), forKey: .thresholds)
        try c.encode(groupings.map(\.name), forKey: .groupings)
        try c.encode(shuffles, forKey: .shuffles)
        try c.encode(seed, forKey: .seed)
        try c.encodeIfPresent(replicates, forKey: .replicates)
        try c.encode(exactHistogramPairLimit, forKey: .exactHistogramPairLimit)
        try c.encodeIfPresent(assignments, forKey: .assignments)
        try c.encodeIfPresent(html, forKey: .html)
    }

    /// Equal when they name the same spaces, rules and groupings and agree on the rest.
    package static func == (a: AnalysisSettings, b: AnalysisSettings) -> Bool {
        a.spaces == b.spaces && a.rules.map(\.name) == b.rules.map(\.name) && a.groupings.map(\.name) == b.groupings.map(\.name)
            && (a.shuffles, a.seed, a.replicates, a.exactHistogramPairLimit, a.assignments, a.html) == (
                b.shuffles, b.seed, b.replicates, b.exactHistogramPairLimit, b.assignments, b.html
            )
    }
}
