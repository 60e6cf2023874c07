import Foundation
import ThemeLabCore
import ThemeLabCorpus
import ThemeLabEncoder
import ThemeLabMeasures
import ThemeLabMethods
import ThemeLabPairs
import ThemeLabStudy

/// The results file rendered and written: Markdown, tidy CSV, the paired rule comparisons.
extension AnalysisResults {
    /// Markdown for every analysis, under a title and a provenance line; a control character from the input (in a file
    /// name that names a source, or a note) escaped.
    package func markdown() -> String {
        var out =
            "# \(name)\n\nthemelab \(provenance.version), OpenBLAS kernel \(provenance.blas.kernel); spaces "
            + "\(settings.spaces.map(\.description).joined(separator: ", ")); "
            + "leader shuffles \(settings.shuffles), seed \(settings.seed). † = label-informed.\n\n"
        out += analyses.map { AnalysisReport.markdown($0) }.joined(separator: "\n")
        return escapingControlCharacters(out, keepingLineFeeds: true)
    }

    /// The files `write(folder:stem:)` may write, for `CommandPaths`.
    package static func files(folder: String, stem: String) -> [String] {
        [".json", ".md", ".csv", "-comparisons.json", "-comparisons.csv", "-comparisons.md", "-regret.md", "-recommendation.json"].map {
            "\(folder)/\(stem)\($0)"
        }
    }

    /// FOLDER/STEM.json (with provenance), .md and .csv (tidy, one row per corpus × source × space ×
    /// rule × grouping), the regret table and, with replicates, the paired rule comparisons (STEM-comparisons.json,
    /// .csv, .md): written as one set (`AtomicFile.write`), all staged before the first is renamed in, which replaces the
    /// set an earlier run wrote there whole (its files this run does not write are removed with the renames).
    package func write(folder: String, stem: String) throws {
        try AtomicFile.write(try rendered(folder: folder, stem: stem), removing: Self.files(folder: folder, stem: stem))
    }

    /// The files of `write(folder:stem:)`, rendered and not yet written: to write with others as one set.
    /// - Parameters:
    ///   - folder: where the files will go.
    ///   - stem: their common name: STEM.json, .md and .csv, STEM-regret.md and STEM-recommendation.json with labels,
    ///     STEM-comparisons.{json,csv,md} with replicates.
    /// - Returns: each file's bytes and path.
    package func rendered(folder: String, stem: String) throws -> [(data: Data, path: String)] {
        var files: [(data: Data, path: String)] = [
            (try JSONOutput.encode(self), "\(folder)/\(stem).json"), (Data(markdown().utf8), "\(folder)/\(stem).md"),
            (Data(AnalysisReport.tidyCSV(analyses).utf8), "\(folder)/\(stem).csv"),
        ]
        if let regret = ExperimentRegret(self) {
            files.append((Data(regret.markdown(title: name).utf8), "\(folder)/\(stem)-regret.md"))
            if let file = regret.file(study: name) { files.append((try JSONOutput.encode(file), "\(folder)/\(stem)-recommendation.json")) }
        }
        let families = RuleComparisonFamily.all(self)
        guard !families.isEmpty else { return files }
        let file = RuleComparisonFamily.File(provenance: provenance, settings: settings, families: families)
        return files + [
            (try JSONOutput.encode(file), "\(folder)/\(stem)-comparisons.json"),
            (Data(RuleComparisonFamily.csv(families).utf8), "\(folder)/\(stem)-comparisons.csv"),
            (Data(RuleComparisonFamily.markdown(families, title: name).utf8), "\(folder)/\(stem)-comparisons.md"),
        ]
    }
}
