import Foundation
import ThemeLabCore
import ThemeLabCorpus
import ThemeLabEncoder
import ThemeLabMeasures
import ThemeLabMethods
import ThemeLabPairs
import ThemeLabStudy

/// The machine-readable result of a pairwise pass (`themelab pairs --json`).
package struct PairsSummary: Codable, Sendable {
    package var schemaVersion = 1
    package var provenance: Provenance
    package var items: Int
    package var dimensions: Int
    package var labeled: Bool
    package var histogramBins: Int
    /// "exact (sorted values)" or "fine histogram, error < bin width".
    package var quantileMethod: String
    package var statistics: [PairClass: PairStatistics]
    /// Single-linkage groups (connected components of "similarity ≥ t") per asked threshold.
    package var components: [Components]?

    package struct Components: Codable, Sendable, Equatable {
        package var threshold: Double
        package var groups: Int
    }

    /// Adds the group count at each threshold, from the pass's spanning forest.
    package mutating func addComponents(_ forest: SpanningForest, thresholds: [Double]) {
        components = thresholds.map { Components(threshold: $0, groups: Set(forest.labels(atLeast: $0)).count) }
    }

    package init(provenance: Provenance, items: Int, dimensions: Int, bins: Int, distribution: PairDistribution) {
        self.provenance = provenance
        self.items = items
        self.dimensions = dimensions
        self.labeled = distribution.isLabeled
        self.histogramBins = bins
        var stats: [PairClass: PairStatistics] = [:]
        for c in PairClass.allCases { if let s = distribution.statistics(c) { stats[c] = s } }
        self.statistics = stats
        let exact = stats.values.allSatisfy { $0.quantileErrorBound == 0 }
        self.quantileMethod = exact ? "exact (sorted values)" : "fine histogram, error < \(2 / Double(bins))"
    }

    /// A Markdown table, one row per pair class.
    package func markdown() -> String {
        distributionTable(statistics)
            + (components.map { c in
                "\n| threshold | single-linkage groups |\n|---|---|\n"
                    + c.map { "| \(formatFigure($0.threshold)) | \($0.groups) |\n" }.joined()
            } ?? "")
    }
}

/// The distribution statistics as a Markdown table, one row per pair class present.
package func distributionTable(_ statistics: [PairClass: PairStatistics]) -> String {
    let columns = ["pairs", "count", "min", "p1", "p5", "p25", "median", "p75", "p95", "p99", "max", "mean", "std"]
    var lines = ["| " + columns.joined(separator: " | ") + " |", "|" + String(repeating: "---|", count: columns.count)]
    for c in PairClass.allCases {
        guard let s = statistics[c] else { continue }
        let values = [s.min, s.p1, s.p5, s.p25, s.median, s.p75, s.p95, s.p99, s.max, s.mean, s.std]
        lines.append("| \(c.rawValue) | \(s.count) | " + values.map { formatFigure($0) }.joined(separator: " | ") + " |")
    }
    return lines.joined(separator: "\n") + "\n"
}
