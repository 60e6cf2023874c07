import Foundation

/// The machine-readable result of a pairwise pass (`themelab pairs --json`).
public struct PairsSummary: Codable, Sendable {
    public var schemaVersion = 1
    public var provenance: Provenance
    public var items: Int
    public var dimensions: Int
    public var labeled: Bool
    var histogramBins: Int
    /// "exact (sorted values)" or "fine histogram, error < bin width".
    public var quantileMethod: String
    public var statistics: [PairClass: PairStatistics]
    /// Single-linkage groups (connected components of "similarity ≥ t") per asked threshold.
    public var components: [Components]?

    public struct Components: Codable, Sendable, Equatable {
        public var threshold: Double
        public var groups: Int
    }

    /// Adds the group count at each threshold, from the pass's spanning forest.
    public mutating func addComponents(_ forest: SpanningForest, thresholds: [Double]) {
        components = thresholds.map { Components(threshold: $0, groups: Set(forest.labels(atLeast: $0)).count) }
    }

    public init(provenance: Provenance, items: Int, dimensions: Int, bins: Int, distribution: PairDistribution) {
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
    public func markdown() -> String {
        distributionTable(statistics)
            + (components.map { c in
                "\n| threshold | single-linkage groups |\n|---|---|\n"
                    + c.map { "| \(formatFigure($0.threshold)) | \($0.groups) |\n" }.joined()
            } ?? "")
    }
}

/// The distribution statistics as a Markdown table, one row per pair class present.
func distributionTable(_ statistics: [PairClass: PairStatistics]) -> String {
    let columns = ["pairs", "count", "min", "p1", "p5", "p25", "median", "p75", "p95", "p99", "max", "mean", "std"]
    var lines = ["| " + columns.joined(separator: " | ") + " |", "|" + String(repeating: "---|", count: columns.count)]
    for c in PairClass.allCases {
        guard let s = statistics[c] else { continue }
        let values = [s.min, s.p1, s.p5, s.p25, s.median, s.p75, s.p95, s.p99, s.max, s.mean, s.std]
        lines.append("| \(c.rawValue) | \(s.count) | " + values.map { formatFigure($0) }.joined(separator: " | ") + " |")
    }
    return lines.joined(separator: "\n") + "\n"
}

/// Four decimals, the precision the reports print similarities at.
func formatFigure(_ x: Double) -> String { x.isFinite ? String(format: "%.4f", x) : "n/a" }

/// Three decimals, for summary tables and legends; "n/a" for a missing value.
func formatShort(_ x: Double?) -> String { x.map { String(format: "%.3f", $0) } ?? "n/a" }

/// An estimate's 95% interval as "[low, high]" (three decimals); empty without one.
func formatInterval(_ e: Estimate?) -> String { e.map { "[\(formatShort($0.low)), \(formatShort($0.high))]" } ?? "" }

/// The corpus's own figure `own` alone, or with replicates the mean they estimate, its interval and `own` labelled:
/// "0.644 [0.551, 0.702] (own draw 0.620)". The bracket brackets the mean, never the own draw.
func withInterval(_ own: String, _ e: Estimate?) -> String {
    guard let e else { return own }
    return "\(formatShort(e.mean)) \(formatInterval(e)) (own draw \(own))"
}

/// A figure and, when replicates were run, the mean over them with its interval (`withInterval`).
func formatShort(_ x: Double?, _ e: Estimate?) -> String { withInterval(formatShort(x), e) }
