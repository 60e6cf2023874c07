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

extension AnalysisResults {
    /// The results of a run: its analyses, with the checksums of every file it read (`files`, in any order, repeats
    /// allowed) and the command and time of `environment`.
    package init(
        name: String, settings: AnalysisSettings, analyses: [CorpusAnalysis], files: [String], modelHash: String?,
        _ environment: RunEnvironment
    ) throws {
        let inputs = try Provenance.checksums(Array(Set(files)).sorted())
        self.init(
            name: name,
            provenance: .current(command: environment.command, inputs: inputs, model: modelHash, createdAt: environment.startedAt),
            settings: settings, analyses: analyses)
    }
}
