import Foundation

/// What to compute for one corpus and one set of vectors, as values: a file's or a command line's names are read
/// once, when the settings are decoded or set (`ParameterSource.values`), and written back as the same names.
public struct AnalysisSettings: Codable, Sendable, Equatable {
    public var spaces: [EmbeddingSpace] = [.raw, .centred]
    /// The threshold rules, in the order their rows appear (the field `thresholds`).
    public var rules: [ThresholdRule] = standardThresholdRules
    public var groupings: [Grouping] = standardGroupings
    /// Seeded shuffles for the leader grouping's spread.
    public var shuffles: Int = 10
    public var seed: UInt64 = 0
    /// Replicates of each corpus for intervals (nil: one sample, no intervals).
    public var replicates: Int?
    /// Above this many pairs Otsu and Kittler–Illingworth read their histogram off the fine
    /// one (a pair within 3.1e-5 of a bin edge may land one bin off) instead of a second pass.
    public var exactHistogramPairLimit: Int = 1_250_000_000

    public init() {}

    enum CodingKeys: String, CodingKey {
        case spaces, thresholds, groupings, shuffles, seed, replicates, exactHistogramPairLimit
    }

    /// Defaults for what `decoder` leaves out (an experiment file's top level), every field from a results file.
    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        spaces = try c.values(.spaces, EmbeddingSpace.init(name:)) ?? spaces
        rules = try c.values(.thresholds, thresholdRule(named:)) ?? rules
        groupings = try c.values(.groupings, grouping(named:)) ?? groupings
        shuffles = try c.decodeIfPresent(Int.self, forKey: .shuffles) ?? shuffles
        seed = try c.decodeIfPresent(UInt64.self, forKey: .seed) ?? seed
        replicates = try c.decodeIfPresent(Int.self, forKey: .replicates)
        exactHistogramPairLimit = try c.decodeIfPresent(Int.self, forKey: .exactHistogramPairLimit) ?? exactHistogramPairLimit
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(spaces.map(\.description), forKey: .spaces)
        try c.encode(rules.map(\.name), forKey: .thresholds)
        try c.encode(groupings.map(\.name), forKey: .groupings)
        try c.encode(shuffles, forKey: .shuffles)
        try c.encode(seed, forKey: .seed)
        try c.encodeIfPresent(replicates, forKey: .replicates)
        try c.encode(exactHistogramPairLimit, forKey: .exactHistogramPairLimit)
    }

    /// Equal when they name the same spaces, rules and groupings and agree on the rest.
    public static func == (a: AnalysisSettings, b: AnalysisSettings) -> Bool {
        a.spaces == b.spaces && a.rules.map(\.name) == b.rules.map(\.name) && a.groupings.map(\.name) == b.groupings.map(\.name)
            && (a.shuffles, a.seed, a.replicates, a.exactHistogramPairLimit) == (
                b.shuffles, b.seed, b.replicates, b.exactHistogramPairLimit
            )
    }
}

/// A named field that held a bad value, found while decoding: `ExperimentPlan` and `ReplayPlan` turn it into
/// their source's message (the file and the field), and anything else prints it as it is.
struct FieldError: Error, CustomStringConvertible {
    /// The field's JSON path, e.g. `thresholds[2]`.
    public var path: String
    public var message: String
    public var description: String { "'\(path)' \(message)" }
}

extension FieldError {
    /// The field at `codingPath` (`journals[0].order`), element `index` of its list when given.
    init(at codingPath: [CodingKey], index: Int? = nil, _ message: String) {
        self.init(path: JSONOutput.fieldPath(codingPath) + (index.map { "[\($0)]" } ?? ""), message: message)
    }
}

extension KeyedDecodingContainer {
    /// The name under `key` read as a value by `parse`; a bad one is a `FieldError` naming it.
    func value<T>(_ key: Key, _ parse: (String) throws -> T) throws -> T? {
        guard let name = try decodeIfPresent(String.self, forKey: key) else { return nil }
        do { return try parse(name) } catch let e as ThemeLabError {
            throw FieldError(at: codingPath + [key], "\(e)")
        }
    }

    /// The names under `key` read as values by `parse`; a bad one is a `FieldError` naming it (`thresholds[2]`).
    func values<T>(_ key: Key, _ parse: (String) throws -> T) throws -> [T]? {
        guard let names = try decodeIfPresent([String].self, forKey: key) else { return nil }
        return try names.enumerated().map { i, name in
            do { return try parse(name) } catch let e as ThemeLabError { throw FieldError(at: codingPath + [key], index: i, "\(e)") }
        }
    }
}
