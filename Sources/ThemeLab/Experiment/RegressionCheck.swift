import Foundation

/// `themelab check`: compares a results file with a baseline (a results file with a
/// `tolerances` object) and lists every recovery metric that fell by more than its tolerance,
/// every threshold that moved by more than its tolerance, and every baseline row missing.
public struct RegressionCheck {
    /// Metric name (as in the CSV) → allowed drop; "threshold" → allowed move either way.
    public static let defaultTolerances: [String: Double] = ["ari": 1e-6, "nmi": 1e-6, "v_measure": 1e-6, "pair_f1": 1e-6, "threshold": 1e-6]

    struct Row {
        var key: String
        var threshold: Double?
        var metrics: [String: Double]
    }

    static func rows(_ analyses: [CorpusAnalysis]) -> [String: Row] {
        var out: [String: Row] = [:]
        for a in analyses {
            for s in a.spaces {
                for g in s.groupings {
                    let key = "\(a.corpus.name) | \(a.source) | \(s.space) | \(g.rule ?? "k=topics") | \(g.grouping)"
                    var metrics: [String: Double] = [:]
                    for (name, value) in g.recovery?.named ?? [] { if let v = value { metrics[name] = v } }
                    out[key] = Row(key: key, threshold: g.threshold, metrics: metrics)
                }
            }
        }
        return out
    }

    public struct Baseline: Codable {
        public var tolerances: [String: Double]?
        public var analyses: [CorpusAnalysis]

        public init(tolerances: [String: Double]?, analyses: [CorpusAnalysis]) {
            self.tolerances = tolerances
            self.analyses = analyses
        }
    }

    /// Failures as readable lines; empty when the results hold.
    public static func compare(results: [CorpusAnalysis], baseline: Baseline) -> [String] {
        let tolerances = baseline.tolerances ?? defaultTolerances
        let now = rows(results)
        var failures: [String] = []
        for (key, old) in rows(baseline.analyses).sorted(by: { $0.key < $1.key }) {
            guard let new = now[key] else { failures.append("missing: \(key)"); continue }
            if let tol = tolerances["threshold"], let a = old.threshold, let b = new.threshold, abs(a - b) > tol {
                failures.append("threshold moved: \(key): \(formatFigure(a)) → \(formatFigure(b)) (tolerance \(tol))")
            }
            for (metric, tol) in tolerances.sorted(by: { $0.key < $1.key }) where metric != "threshold" {
                guard let a = old.metrics[metric] else { continue }
                guard let b = new.metrics[metric] else { failures.append("\(metric) missing: \(key)"); continue }
                if b < a - tol { failures.append("\(metric) fell: \(key): \(formatFigure(a)) → \(formatFigure(b)) (−\(formatFigure(a - b)), tolerance \(tol))") }
            }
        }
        return failures
    }

    public static func readBaseline(path: String) throws -> Baseline {
        guard let data = FileManager.default.contents(atPath: path) else { throw ThemeLabError.input("\(path): cannot read") }
        do { return try JSONOutput.decode(Baseline.self, from: data) } catch {
            throw ThemeLabError.input("\(path): not a ThemeLab results or baseline file")
        }
    }
}
