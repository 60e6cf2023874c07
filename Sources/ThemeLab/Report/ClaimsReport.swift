import Foundation

/// The claims table of results/REPORT.md: each of the README's claims C1–C6 (`CorpusClaim`), the figure the app's
/// author reported, ours per corpus × source × space, the quantities the verdict rests on with
/// their 95% intervals over replicates, and a verdict with its reason. A verdict that changes
/// anywhere inside the intervals reads "inconclusive". (C7 is measured separately, on
/// vectors: `C7ThemeSumsGiveTheMean`.)
enum ClaimsReport {
    public struct Row: Codable, Sendable {
        var claim: String
        public var reported: String
        public var corpus: String
        public var source: String
        public var space: String
        var ours: String
        /// The quantities the verdict rests on, each with its interval when there are replicates.
        var quantities: String
        public var verdict: Verdict
        public var reason: String
        /// The corpus's number of topics (nil: unlabelled, or not a corpus claim).
        var topics: Int?
        /// The quantities as numbers, in the order `quantities` names them.
        var figures: [Figure]
    }

    /// A quantity as a number: the corpus's own draw, and with replicates their mean and its 95% interval.
    struct Figure: Codable, Sendable {
        var name: String
        var ownDraw: Double
        var mean: Double?
        var low: Double?
        var high: Double?
        init(_ e: Evidence) {
            (name, ownDraw, mean, low, high) = (e.name, e.point, e.estimate?.mean, e.estimate?.low, e.estimate?.high)
        }

        /// Every value times `factor` (a figure read per topic).
        func scaled(by factor: Double) -> Figure {
            var f = self
            f.ownDraw = ownDraw * factor
            (f.mean, f.low, f.high) = (mean.map { $0 * factor }, low.map { $0 * factor }, high.map { $0 * factor })
            return f
        }
    }

    /// A quantity a verdict rests on: the corpus's own value and its estimate over replicates.
    struct Evidence: Sendable {
        public var name: String
        public var point: Double
        var estimate: Estimate?
        public init(_ name: String, _ point: Double, _ estimate: Estimate? = nil) {
            self.name = name
            self.point = point
            self.estimate = estimate
        }
    }

    /// The verdict at the point, or "inconclusive" when `verdict` gives another answer at any corner
    /// of the evidence's intervals (the verdicts here are monotone in each quantity, so corners
    /// suffice); the second value says what flips.
    static func decide(_ evidence: [Evidence], _ verdict: ([Double]) -> Verdict) -> (verdict: Verdict, flips: String?) {
        let point = verdict(evidence.map(\.point))
        var corners: [[Double]] = [[]]
        for e in evidence {
            let ends = e.estimate.map { [$0.low, $0.high] } ?? [e.point]
            corners = corners.flatMap { c in ends.map { c + [$0] } }
        }
        let others = Set(corners.map(verdict)).subtracting([point]).map(\.rawValue).sorted()
        guard !others.isEmpty else { return (point, nil) }
        return (.inconclusive, "\(point) at this corpus's figures, \(others.joined(separator: " or ")) inside the intervals")
    }

    static func describe(_ evidence: [Evidence]) -> String {
        evidence.map { "\($0.name) \(formatShort($0.point, $0.estimate))" }.joined(separator: "; ")
    }

    /// The claims checked on each corpus analysis, in table order.
    static var claims: [any CorpusClaim.Type] {
        [
            C1NarrowRawBand.self, C2CentringSpreads.self, C3FixedThresholdOverSplits.self, C4NoiseFloorUnderSplits.self,
            C5PercentileNeedsATenth.self, C6OtsuFindsTheValley.self,
        ]
    }

    /// Rows for every analysis of `experiments`.
    public static func rows(_ experiments: [AnalysisResults]) -> [Row] {
        var rows: [Row] = []
        for results in experiments {
            for a in results.analyses { rows += self.rows(a, seed: results.settings.seed) }
        }
        return rows.enumerated().sorted { ($0.element.claim, $0.offset) < ($1.element.claim, $1.offset) }.map(\.element)
    }

    /// The rows of every claim that `a` has the figures for.
    static func rows(_ a: CorpusAnalysis, seed: UInt64) -> [Row] {
        let paired = PairedReplicates(a, seed: seed)
        return claims.compactMap { $0.row(a, paired) }
    }

    /// The claims table, one row per claim × analysis (results/claims.md).
    public static func markdown(_ rows: [Row]) -> String {
        var out =
            "| claim | reported | corpus | source | space | ours | quantities [95% interval] | verdict | why |\n"
            + "|---|---|---|---|---|---|---|---|---|\n"
        for r in rows {
            out +=
                "| \(r.claim) | \(r.reported) | \(r.corpus) | \(r.source) | \(r.space) | \(r.ours) | \(r.quantities) | \(r.verdict) | "
                + "\(r.reason) |\n"
        }
        return out
    }

    static let csvColumns = [
        "claim", "reported", "corpus", "source", "space", "topics", "ours", "quantities", "verdict", "why", "key_figure",
        "key_own_draw", "key_mean", "key_low", "key_high",
    ]

    /// results/claims.csv: one row per claims-table row; the key_ columns are its first quantity as numbers.
    static func csv(_ rows: [Row]) -> String {
        let lines = rows.map { r in
            let f = r.figures.first
            let numbers = [f?.ownDraw, f?.mean, f?.low, f?.high].map { $0.map { String($0) } ?? "" }
            return
                ([r.claim, r.reported, r.corpus, r.source, r.space, r.topics.map(String.init) ?? "", r.ours, r.quantities]
                + [r.verdict.rawValue, r.reason, f?.name ?? ""] + numbers).map(AnalysisReport.csvField).joined(separator: ",")
        }
        return ([csvColumns.joined(separator: ",")] + lines).joined(separator: "\n") + "\n"
    }
}
