import Foundation
import ThemeLabCore
import ThemeLabCorpus
import ThemeLabEncoder
import ThemeLabMeasures
import ThemeLabMethods
import ThemeLabPairs

/// The results file of `analyze` and `ablate`: provenance, settings and every analysis.
package struct AnalysisResults: Codable, Sendable {
    package var schemaVersion = 1
    package var name: String
    package var provenance: Provenance
    package var settings: AnalysisSettings
    package var analyses: [CorpusAnalysis]

    package init(name: String, provenance: Provenance, settings: AnalysisSettings, analyses: [CorpusAnalysis]) {
        self.name = name
        self.provenance = provenance
        self.settings = settings
        self.analyses = analyses
    }
}
