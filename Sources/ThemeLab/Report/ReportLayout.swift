import Foundation

/// Which experiments and corpora REPORT.md features, and how (`Experiments/report/layout.json`), so
/// the report code names no experiment or corpus of its own.
struct ReportLayout: Codable, Sendable {
    public struct Figure: Codable, Sendable {
        public var experiment: String
        public var corpus: String
        public var space: String
    }
    struct Layers: Codable, Sendable {
        public var experiment: String
        public var corpus: String
    }
    struct Regret: Codable, Sendable {
        struct Subset: Codable, Sendable {
            public var label: String
            var excludeCorpusSuffix: String
        }
        /// The experiment the regret tables report, the one the neighbour rules were tuned on, the
        /// threshold groupings covered, and a subset of corpora whose worst case is given apart.
        var study: String
        var tuning: String
        public var groupings: [String]
        /// The grouping whose ceiling the groupings that choose their own cuts are measured against
        /// (each also gets a table against its own best parameter).
        var ownCutsCeiling: String?
        var subset: Subset
    }

    /// The experiments re-run with every vector moved by one unit in the last place, and the seed of the coins.
    struct FragilityCheck: Codable, Sendable {
        public var experiments: [String]
        public var seed: UInt64
    }

    /// Histograms shown under "Key figures".
    var keyFigures: [Figure]
    /// The layer sweep: its own table and plot.
    public var layers: Layers
    /// Experiments left out of the claims and ablation tables (they repeat other experiments' corpora).
    var notTabulated: [String]
    /// The corpus claim C7 (theme sums give the sentence mean) is measured on.
    var themeSums: String
    var regret: Regret
    /// Which verdicts are checked for fragility (nil: none).
    public var fragility: FragilityCheck?

    public static func read(path: String) throws -> ReportLayout {
        try JSONOutput.read(ReportLayout.self, path: path, expected: "report layout")
    }
}
