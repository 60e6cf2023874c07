import Foundation
import ThemeLabCore
import ThemeLabCorpus
import ThemeLabEncoder
import ThemeLabMeasures
import ThemeLabMethods
import ThemeLabPairs

/// Which experiments and corpora REPORT.md features, and how (`Experiments/report/layout.json`), so
/// the report code names no experiment or corpus of its own.
package struct ReportLayout: Codable, Sendable {
    package struct Figure: Codable, Sendable {
        package var experiment: String
        package var corpus: String
        package var space: EmbeddingSpace
    }
    package struct Layers: Codable, Sendable {
        package var experiment: String
        package var corpus: String
    }
    package struct Regret: Codable, Sendable {
        package struct Subset: Codable, Sendable {
            package var label: String
            package var excludeCorpusSuffix: String
        }
        /// The experiment the regret tables report, the one the neighbour rules were tuned on, the
        /// threshold groupings covered, and a subset of corpora whose worst case is given apart.
        package var study: String
        package var tuning: String
        package var groupings: [GroupingKey]
        /// The grouping whose ceiling the groupings that choose their own cuts are measured against
        /// (each also gets a table against its own best parameter).
        package var ownCutsCeiling: GroupingKey?
        package var subset: Subset
    }

    /// The experiments re-run with every vector moved by one unit in the last place, and the seed of the coins.
    package struct FragilityCheck: Codable, Sendable {
        package var experiments: [String]
        package var seed: UInt64
    }

    /// Histograms shown under "Key figures".
    package var keyFigures: [Figure]
    /// The layer sweep: its own table and plot.
    package var layers: Layers
    /// The experiment whose corpora are set beside the seed's reported figures, per encoder.
    package var seedPicture: String?
    /// Experiments left out of the claims and ablation tables (they repeat other experiments' corpora).
    package var notTabulated: [String]
    /// The corpus claim C7 (theme sums give the sentence mean) is measured on.
    package var themeSums: String
    package var regret: Regret
    /// Which verdicts are checked for fragility (nil: none).
    package var fragility: FragilityCheck?

    package static func read(path: String) throws -> ReportLayout {
        try JSONOutput.read(ReportLayout.self, path: path, expected: "report layout")
    }
}
