import Foundation
import ThemeLabCore
import ThemeLabCorpus
import ThemeLabEncoder
import ThemeLabMeasures
import ThemeLabMethods
import ThemeLabPairs

/// The claims table of results/REPORT.md: each of the README's claims C1–C6 (`CorpusClaim`), the figure the journal method's
/// author reported, ours per corpus × source × space, the quantities the verdict rests on with
/// their 95% intervals over replicates, and a verdict with its reason. A verdict that changes
/// anywhere inside the intervals reads "inconclusive". (C7 is measured separately, on
/// vectors: `C7ThemeSumsGiveTheMean`.)
package enum ClaimsReport {
    package struct Row: Codable, Sendable {
        package var claim: String
        package var reported: String
        package var corpus: String
        package var source: String
        package var space: String
        package var ours: String
        /// The quantities the verdict rests on, each with its interval when there are replicates.
        package var quantities: String
        package var verdict: Verdict
        package var reason: String
        /// The corpus's number of topics (nil: unlabelled, or not a corpus claim).
        package var topics: Int?
        /// The quantities as numbers, in the order `quantities` names them.
        package var figures: [Figure]
    }

    /// A quantity as a number: the corpus's own draw, and with replicates their mean and its 95% interval.
    package struct Figure: Codable, Sendable {
        package var name: String
        package var ownDraw: Double
        package var mean: Double?
        package var low: Double?
        package var high: Double?
        package init(_ e: Evidence) {
            (name, ownDraw, mean, low, high) = (e.name, e.point, e.estimate?.mean, e.estimate?.low, e.estimate?.high)
        }

        /// Every value times `factor` (a figure read per topic).
        package func scaled(by factor: Double) -> Figure {
            var f = self
            f.ownDraw = ownDraw * factor
            (f.mean, f.low, f.high) = (mean.map { $0 * factor }, low.map { $0 * factor }, high.map { $0 * factor })
            return f
        }
    }

    /// A quantity a verdict rests on: the corpus's own value and its estimate over replicates.
    package struct Evidence: Sendable {
        package var name: String
        package var point: Double
        package var estimate: Estimate?
        package init(_ name: String, _ point: Double, _ estimate: Estimate? = nil) {
            self.name = name
            self.point = point
            self.estimate = estimate
        }
    }

    /// The verdict at the point, or "inconclusive" when `verdict` gives another answer at any corner
    /// of the evidence's intervals (the verdicts here are monotone in each quantity, so corners
    /// suffice); the second value says what flips.
    package static func decide(_ evidence: [Evidence], _ verdict: ([Double]) -> Verdict) -> (verdict: Verdict, flips: String?) {
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

    package static func describe(_ evidence: [Evidence]) -> String {
        evidence.map { "\($0.name) \(formatShort($0.point, $0.estimate))" }.joined(separator: "; ")
    }

    /// The claims checked on each corpus analysis, in table order.
    package static var claims: [any CorpusClaim.Type] {
        [
            C1NarrowRawBand.self, C2CentringSpreads.self, C3FixedThresholdOverSplits.self, C4NoiseFloorUnderSplits.self,
            C5PercentileNeedsATenth.self, C6OtsuFindsTheValley.self,
        ]
    }

    /// Rows for every analysis of `experiments`.
    package static func rows(_ experiments: [AnalysisResults]) -> [Row] {
        var rows: [Row] = []
        for results in experiments {
            for a in results.analyses { rows += self.rows(a, seed: results.settings.seed) }
        }
        return rows.enumerated().sorted { ($0.element.claim, $0.offset) < ($1.element.claim, $1.offset) }.map(\.element)
    }

    /// The rows of every claim that `a` has the figures for.
    package static func rows(_ a: CorpusAnalysis, seed: UInt64) -> [Row] {
        let paired = PairedReplicates(a, seed: seed)
        return claims.compactMap { $0.row(a, paired) }
    }
}
