import Foundation
import ThemeLabCore
import ThemeLabCorpus
import ThemeLabEncoder
import ThemeLabMeasures
import ThemeLabMethods
import ThemeLabPairs

/// `themelab check`: compares a results file with a baseline (a results file with a
/// `tolerances` object) and lists every recovery metric that fell by more than its tolerance,
/// every threshold that moved by more than its tolerance, and every baseline row missing.
package struct RegressionCheck {
    /// Metric name (as in the CSV) → allowed drop; "threshold" → allowed move either way.
    package static let defaultTolerances: [String: Double] = [
        "ari": 1e-6, "nmi": 1e-6, "v_measure": 1e-6, "pair_f1": 1e-6, "threshold": 1e-6,
    ]
    /// What a tolerance may name: the recovery metrics whose fall is a regression (as in the CSV) and "threshold".
    package static let tolerableNames = Set(Metric.recovery.filter(\.fallIsRegression).map(\.rawValue) + ["threshold"])
    /// The largest tolerance: a fall of half a metric's range, or a threshold moved by 0.5 in cosine, is no gate.
    package static let maxTolerance = 0.5
    /// The values a threshold (a cosine similarity) can take.
    package static let thresholdRange = -1.0...1.0
    /// How far rounding carries a figure past its range (a homogeneity of 1.0000000000000002 is 1).
    package static let rounding = 1e-9

    /// Whether `value` is finite and within `range`, up to rounding.
    package static func isPossible(_ value: Double, in range: ClosedRange<Double>) -> Bool {
        value.isFinite && value >= range.lowerBound - rounding && value <= range.upperBound + rounding
    }

    package struct Row {
        package var key: String
        package var threshold: Double?
        package var metrics: [Metric: Double]
    }

    /// Rows keyed by corpus × source × space × rule × grouping; a key seen twice is an error, since
    /// only one of the two could be compared. `source` gives the key's source part for a row's vector source (nil: none).
    package static func rows(_ analyses: [CorpusAnalysis], file: String, source: (String) -> String? = { $0 }) throws -> [String: Row] {
        var out: [String: Row] = [:]
        for a in analyses {
            for s in a.spaces {
                for g in s.groupings {
                    let cut = g.rule?.name ?? (g.labelInformed ? "k=topics" : "own cuts")
                    let key = [a.corpus.name, source(a.source), s.space.description, cut, g.grouping.name].compactMap { $0 }
                        .joined(separator: " | ")
                    guard out[key] == nil else { throw ThemeLabError.input("\(file): row '\(key)' appears twice; rows must be unique") }
                    var metrics: [Metric: Double] = [:]
                    for metric in Metric.recovery { if let v = g.recovery?.value(metric) { metrics[metric] = v } }
                    out[key] = Row(key: key, threshold: g.threshold, metrics: metrics)
                }
            }
        }
        return out
    }

    package struct Baseline: Codable {
        package var tolerances: [String: Double]?
        /// Rows of the results the gate does not cover (keys as `check` prints them): any other results row the
        /// baseline lacks fails the check.
        package var ungated: [String]?
        package var analyses: [CorpusAnalysis]
        /// Where the figures came from; its arithmetic decides which results the gate accepts.
        package var provenance: Provenance?

        package init(tolerances: [String: Double]?, ungated: [String]? = nil, analyses: [CorpusAnalysis], provenance: Provenance?) {
            (self.tolerances, self.ungated, self.analyses, self.provenance) = (tolerances, ungated, analyses, provenance)
        }
    }

    /// What a check found: its failures (empty when the results hold), and how many rows and figures it compared.
    package struct Outcome {
        /// Figures past their tolerance, each with its metric's place in `Metric.recovery` (a threshold after them all)
        /// and how far it moved.
        package var moved: [(rank: Int, size: Double, line: String)] = []
        /// Every other failure: impossible figures, rows and figures one side lacks.
        package var other: [String] = []
        package var rows = 0
        package var figures = 0
        /// Which sources were compared with which (`SourcePairing.lines`).
        package var pairing: [String] = []

        /// The failures: the figures that moved, ARI first and within a metric the largest move first, then the rest.
        package var failures: [String] {
            moved.sorted { ($0.rank, -$0.size, $0.line) < ($1.rank, -$1.size, $1.line) }.map(\.line) + other
        }
    }

    /// A baseline made under the canonical arithmetic accepts only canonical results, unless `allowNative`: figures
    /// from another kernel differ in their last bits and may differ in groups, which is a kernel's doing, not a regression.
    package static func checkArithmetic(results: Baseline, baseline: Baseline, resultsFile: String, allowNative: Bool) throws {
        guard !allowNative, baseline.provenance?.blas.arithmetic == .canonical,
            results.provenance?.blas.arithmetic != .canonical
        else { return }
        let kernel = results.provenance.map { "native arithmetic (OpenBLAS kernel \($0.blas.kernel))" } ?? "no recorded arithmetic"
        throw ThemeLabError.input(
            "\(resultsFile) was made under \(kernel) and the baseline under the canonical one (\(BLASRuntime.canonicalKernel)): "
                + "re-run without \(BLASRuntime.arithmeticVariable)=native, or pass --allow-native to compare across kernels")
    }

    /// What tolerances may hold: each names a metric or "threshold" and is from 0 to `maxTolerance`.
    package static let toleranceConstraint = Constraint.map(names: tolerableNames.sorted(), values: .interval(0...maxTolerance))

    /// Tolerances a gate may use: within `toleranceConstraint`, then `requireGate`.
    package static func validate(tolerances: [String: Double], file: String) throws {
        if let (path, why) = toleranceConstraint.problem(tolerances, at: "tolerances") {
            throw ThemeLabError.input("\(file): '\(path)' \(why)")
        }
        try requireGate(tolerances, file: file)
    }

    /// Tolerances that gate something: at least one, ARI's among them.
    package static func requireGate(_ tolerances: [String: Double], file: String) throws {
        guard !tolerances.isEmpty else { throw ThemeLabError.input("\(file): no tolerances, so the gate would check nothing") }
        guard tolerances["ari"] != nil else {
            throw ThemeLabError.input("\(file): no tolerance for 'ari', so the gate would pass any fall in recovery")
        }
    }

    /// Failures as readable lines; empty when the results hold. A figure no grouping can have (NaN, infinite, or outside
    /// its metric's range by more than rounding: `Metric.range`, `thresholdRange`), in the results or the baseline, is a
    /// failure naming its row and figure; so is a row or figure the baseline has and the results lack, and one the
    /// results have and the baseline lacks (the gate must cover what the results hold: a baseline with its figures
    /// removed gates nothing), unless the baseline lists the row under `ungated`.
    package static func compare(
        results: [CorpusAnalysis], baseline: Baseline, resultsFile: String = "results",
        baselineFile: String = "baseline", sources: [(results: String, baseline: String)]? = nil
    ) throws -> Outcome {
        let tolerances = baseline.tolerances ?? defaultTolerances
        try validate(tolerances: tolerances, file: baselineFile)
        let pairing = try SourcePairing(results: results, baseline: baseline.analyses, given: sources)
        let now = try rows(results, file: resultsFile, source: pairing.resultsKey)
        let before = try rows(baseline.analyses, file: baselineFile, source: pairing.baselineKey)
        guard !before.isEmpty else { throw ThemeLabError.input("\(baselineFile): holds no rows, so the gate would check nothing") }
        guard before.values.contains(where: { $0.metrics[.ari] != nil }) else {
            throw ThemeLabError.input("\(baselineFile): no row has an ARI, so the gate would check nothing (it needs labeled corpora)")
        }
        // An impossible figure is a failure wherever it stands; the comparisons below then pass over it.
        var outcome = Outcome(other: impossibleFigures(now, in: "the results") + impossibleFigures(before, in: "the baseline"))
        outcome.pairing = pairing.lines
        let ungated = Set((baseline.ungated ?? []).map(pairing.translated))
        for key in now.keys.sorted() where before[key] == nil && !ungated.contains(key) {
            outcome.other.append("ungated: \(key) (a results row the baseline lacks; add it, or list it under 'ungated')")
        }
        for (key, old) in before.sorted(by: { $0.key < $1.key }) {
            guard let new = now[key] else {
                outcome.other.append("missing: \(key)")
                continue
            }
            outcome.rows += 1
            compare(new, old, key: key, tolerances: tolerances, into: &outcome)
        }
        return outcome
    }

    /// One row's figures: each that a tolerance names, in the baseline or in the results, must be in both and within it.
    package static func compare(_ new: Row, _ old: Row, key: String, tolerances: [String: Double], into outcome: inout Outcome) {
        for (name, tol) in tolerances.sorted(by: { $0.key < $1.key }) {
            // `validate` let through only metric names and "threshold".
            let metric = Metric(rawValue: name)
            let rank = metric.flatMap { Metric.recovery.firstIndex(of: $0) } ?? Metric.recovery.count
            let (a, b) = metric.map { (old.metrics[$0], new.metrics[$0]) } ?? (old.threshold, new.threshold)
            let possible = { (v: Double) in isPossible(v, in: metric?.range ?? thresholdRange) }
            switch (a, b) {
            case (nil, nil): continue
            case (nil, .some): outcome.other.append("\(name) not gated: \(key) (the results have it, the baseline has none)")
            case (.some(let a), nil): if possible(a) { outcome.other.append("\(name) missing: \(key) (baseline \(formatFigure(a)))") }
            case (.some(let a), .some(let b)):
                guard possible(a) && possible(b) else { continue }
                outcome.figures += 1
                if metric == nil && !(abs(a - b) <= tol) {
                    outcome.moved.append(
                        (rank, abs(a - b), "threshold moved: \(key): \(formatFigure(a)) → \(formatFigure(b)) (tolerance \(tol))"))
                } else if metric != nil && !(b >= a - tol) {
                    outcome.moved.append(
                        (
                            rank, a - b,
                            "\(name) fell: \(key): \(formatFigure(a)) → \(formatFigure(b)) (−\(formatFigure(a - b)), tolerance \(tol))"
                        ))
                }
            }
        }
    }

    /// The inputs whose bytes differ between the baseline's provenance and the results' (by path, as each recorded it):
    /// the first place to look when a check fails. One line each, "PATH: abc123… → def456…" (or "only in …").
    package static func changedInputs(results: Provenance?, baseline: Provenance?) -> [String] {
        guard let now = results?.inputs, let before = baseline?.inputs else { return [] }
        return Set(now.keys).union(before.keys).sorted().compactMap { path in
            switch (before[path], now[path]) {
            case (let a?, let b?) where a != b: "\(path): \(a.prefix(12))… → \(b.prefix(12))…"
            case (nil, _?): "\(path): read by the results only"
            case (_?, nil): "\(path): read by the baseline only"
            default: nil
            }
        }
    }

    /// One line per threshold or metric among `rows` that no grouping can have, naming the row and the figure: "NaN ari in
    /// the results: KEY", "impossible ari in the results: KEY (5, outside -1 to 1)".
    package static func impossibleFigures(_ rows: [String: Row], in file: String) -> [String] {
        var failures: [String] = []
        for (key, row) in rows.sorted(by: { $0.key < $1.key }) {
            let figures = [("threshold", row.threshold, thresholdRange)] + row.metrics.map { ($0.key.rawValue, $0.value, $0.key.range) }
            for (name, value, range) in figures.sorted(by: { $0.0 < $1.0 }) {
                guard let v = value, !isPossible(v, in: range) else { continue }
                let bounds =
                    range.upperBound.isFinite
                    ? "outside \(formatArgument(range.lowerBound)) to \(formatArgument(range.upperBound))"
                    : "below \(formatArgument(range.lowerBound))"
                failures.append(
                    v.isNaN
                        ? "NaN \(name) in \(file): \(key)"
                        : "impossible \(name) in \(file): \(key) (\(v), \(v.isFinite ? bounds : "not finite"))")
            }
        }
        return failures
    }

    package static let fileKind = "ThemeLab results or baseline file"

    package static func readBaseline(path: String) throws -> Baseline {
        try JSONOutput.read(Baseline.self, path: path, expected: fileKind)
    }

    package static func decodeBaseline(_ data: Data, path: String) throws -> Baseline {
        try JSONOutput.decode(Baseline.self, from: data, file: path, expected: fileKind)
    }
}
