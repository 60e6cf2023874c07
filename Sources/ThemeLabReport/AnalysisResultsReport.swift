import ThemeLabCore
import ThemeLabCorpus
import ThemeLabEncoder
import ThemeLabMeasures
import ThemeLabMethods
import ThemeLabPairs
import ThemeLabStudy

/// The results file rendered and written: Markdown, tidy CSV, the paired rule comparisons.
extension AnalysisResults {
    /// Markdown for every analysis, under a title and a provenance line.
    package func markdown() -> String {
        var out =
            "# \(name)\n\nthemelab \(provenance.version), OpenBLAS kernel \(provenance.blas.kernel); spaces "
            + "\(settings.spaces.map(\.description).joined(separator: ", ")); "
            + "leader shuffles \(settings.shuffles), seed \(settings.seed). † = label-informed.\n\n"
        out += analyses.map { AnalysisReport.markdown($0) }.joined(separator: "\n")
        return out
    }

    /// FOLDER/STEM.json (with provenance), .md and .csv (tidy, one row per corpus × source × space ×
    /// rule × grouping), each written atomically; with replicates, also the paired rule comparisons
    /// (STEM-comparisons.json, .csv, .md).
    /// The files `write(folder:stem:)` may write, for `CommandPaths`.
    package static func files(folder: String, stem: String) -> [String] {
        [".json", ".md", ".csv", "-comparisons.json", "-comparisons.csv", "-comparisons.md", "-regret.md", "-recommendation.json"].map {
            "\(folder)/\(stem)\($0)"
        }
    }

    package func write(folder: String, stem: String) throws {
        try AtomicFile.write(try JSONOutput.encode(self), to: "\(folder)/\(stem).json")
        try AtomicFile.write(markdown(), to: "\(folder)/\(stem).md")
        try AtomicFile.write(AnalysisReport.tidyCSV(analyses), to: "\(folder)/\(stem).csv")
        if let regret = ExperimentRegret(self) {
            try AtomicFile.write(regret.markdown(title: name), to: "\(folder)/\(stem)-regret.md")
            if let file = regret.file(study: name) {
                try AtomicFile.write(try JSONOutput.encode(file), to: "\(folder)/\(stem)-recommendation.json")
            }
        }
        let families = RuleComparisonFamily.all(self)
        guard !families.isEmpty else { return }
        let file = RuleComparisonFamily.File(provenance: provenance, settings: settings, families: families)
        try AtomicFile.write(try JSONOutput.encode(file), to: "\(folder)/\(stem)-comparisons.json")
        try AtomicFile.write(RuleComparisonFamily.csv(families), to: "\(folder)/\(stem)-comparisons.csv")
        try AtomicFile.write(RuleComparisonFamily.markdown(families, title: name), to: "\(folder)/\(stem)-comparisons.md")
    }
}
