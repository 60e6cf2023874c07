import Foundation

/// The claims table of results/REPORT.md: each of the README's claims C1–C6, the figure the app's
/// author reported, ours per corpus × source × space, the quantities the verdict rests on with
/// their 95% intervals over replicates, and a verdict with its reason. A verdict that changes
/// anywhere inside the intervals reads "inconclusive". (C7 is measured separately, on vectors.)
public enum ClaimsReport {
    public struct Row: Codable, Sendable {
        public var claim: String
        public var reported: String
        public var corpus: String
        public var source: String
        public var space: String
        public var ours: String
        /// The quantities the verdict rests on, each with its interval when there are replicates.
        public var quantities: String
        public var verdict: String
        public var reason: String
    }

    /// A quantity a verdict rests on: the corpus's own value and its estimate over replicates.
    public struct Evidence: Sendable {
        public var name: String
        public var point: Double
        public var estimate: Estimate?
        public init(_ name: String, _ point: Double, _ estimate: Estimate? = nil) {
            self.name = name
            self.point = point
            self.estimate = estimate
        }
    }

    /// The verdict at the point, or "inconclusive" when `verdict` gives another answer at any corner
    /// of the evidence's intervals (the verdicts here are monotone in each quantity, so corners
    /// suffice); the second value says what flips.
    public static func decide(_ evidence: [Evidence], _ verdict: ([Double]) -> String) -> (verdict: String, flips: String?) {
        let point = verdict(evidence.map(\.point))
        var corners: [[Double]] = [[]]
        for e in evidence {
            let ends = e.estimate.map { [$0.low, $0.high] } ?? [e.point]
            corners = corners.flatMap { c in ends.map { c + [$0] } }
        }
        let others = Set(corners.map(verdict)).subtracting([point]).sorted()
        guard !others.isEmpty else { return (point, nil) }
        return ("inconclusive", "\(point) at this corpus's figures, \(others.joined(separator: " or ")) inside the intervals")
    }

    static func describe(_ evidence: [Evidence]) -> String {
        evidence.map { "\($0.name) \(formatShort($0.point, $0.estimate))" }.joined(separator: "; ")
    }

    // The rules and groupings the claims are about, by value.
    static let fixed = FixedThreshold(value: 0.55)
    static let noiseFloor = NoiseFloorThreshold(k: 4)
    static let percentile = PercentileThreshold(percent: 90)
    static let otsu = OtsuThreshold(bins: 256)
    static let oracle = OracleThreshold()

    /// Rows for every analysis of `experiments`.
    public static func rows(_ experiments: [AnalysisResults]) -> [Row] {
        var rows: [Row] = []
        for results in experiments {
            for a in results.analyses { rows += self.rows(a, seed: results.settings.seed) }
        }
        return rows.enumerated().sorted { ($0.element.claim, $0.offset) < ($1.element.claim, $1.offset) }.map(\.element)
    }

    static func rows(_ a: CorpusAnalysis, seed: UInt64) -> [Row] {
        var rows: [Row] = []
        // A quantity combined per replicate from two series, on the resamples of the analysis's own estimates.
        let bootstrap = a.replicateBootstrap(seed: seed)
        func paired(_ x: [Double?]?, _ y: [Double?]?, _ combine: (Double?, Double?) -> Double?) -> Estimate? {
            guard let bootstrap, let x, let y else { return nil }
            return bootstrap.estimate(zip(x, y).map(combine))
        }
        func add(
            _ claim: String, _ reported: String, _ space: EmbeddingSpace, ours: String, _ evidence: [Evidence], reason: String,
            _ verdict: ([Double]) -> String
        ) {
            let (v, flips) = decide(evidence, verdict)
            rows.append(
                Row(
                    claim: claim, reported: reported, corpus: a.corpus.name, source: a.source, space: space.description, ours: ours,
                    quantities: describe(evidence), verdict: v, reason: flips.map { "\(reason); \($0)" } ?? reason))
        }
        // C1: raw cosines sit in a narrow, high band.
        if let raw = a.space(.raw), let u = raw.statistics[.unrelated] {
            let r = raw.replicateStatistics?[.unrelated]
            let evidence = [
                Evidence("unrelated p1", u.p1, r?[.p1]), Evidence("band p99 − p1", u.p99 - u.p1, raw.replicateSeparation?[.bandWidth]),
                Evidence("unrelated median", u.median, r?[.median]),
            ]
            let verdict = { (x: [Double]) in x[0] >= 0.8 && x[1] <= 0.1 ? "holds" : (x[2] >= 0.5 ? "partly" : "does not hold") }
            let point = verdict(evidence.map(\.point))
            add(
                "C1", "unrelated 0.86–0.94, band 0.076, all > 0.85", .raw,
                ours: "unrelated p1–p99 \(formatShort(u.p1))–\(formatShort(u.p99)), width \(formatShort(u.p99 - u.p1))", evidence,
                reason: point == "holds"
                    ? "unrelated pairs all high and within a narrow band"
                    : point == "partly" ? "high but wide band" : "unrelated raw cosines are not high (median \(formatShort(u.median)))",
                verdict)
        }
        // C2: centring spreads them out.
        if let raw = a.space(.raw), let centred = a.space(.centred), let ru = raw.statistics[.unrelated],
            let cu = centred.statistics[.unrelated], let cr = centred.statistics[.related]
        {
            // The widening is a paired difference: both bands are measured on the same replicates.
            let widening = paired(centred.replicateSeparation?[.bandWidth]?.values, raw.replicateSeparation?[.bandWidth]?.values) {
                x, y in x.flatMap { a in y.map { a - $0 } }
            }
            let evidence = [
                Evidence("centred unrelated median", cu.median, centred.replicateStatistics?[.unrelated]?[.median]),
                Evidence("band widening (centred − raw)", (cu.p99 - cu.p1) - (ru.p99 - ru.p1), widening),
            ]
            let verdict = { (x: [Double]) -> String in
                let (near, spread) = (abs(x[0]) < 0.05, x[1] > 0)
                return near && spread ? "holds" : (near || spread ? "partly" : "does not hold")
            }
            let near = abs(cu.median) < 0.05
            let spread = (cu.p99 - cu.p1) > (ru.p99 - ru.p1)
            add(
                "C2", "centred unrelated median −0.036, related p99 0.513", .centred,
                ours:
                    "unrelated median \(formatShort(cu.median)), related p99 \(formatShort(cr.p99)); band "
                    + "\(formatShort(ru.p99 - ru.p1)) → \(formatShort(cu.p99 - cu.p1))", evidence,
                reason:
                    "\(near ? "unrelated centred near 0" : "unrelated median not near 0"); "
                    + (spread ? "band widened" : "band did not widen"),
                verdict)
        }
        guard let centred = a.space(.centred), let topics = a.corpus.topics else { return rows }
        // C3: a fixed 0.55 over-splits real text.
        if let row = centred.outcome(rule: fixed, grouping: LeaderAssignment()), let g = row.groups {
            let t = Double(topics)
            add(
                "C3", "26 sentences → 25 themes", .centred, ours: "\(a.corpus.items) items → \(g) leader groups (\(topics) topics)",
                [Evidence("leader groups at 0.55", Double(g), row.replicates?[.groups])],
                reason: g > topics ? "more groups than topics" : "no over-splitting"
            ) { $0[0] >= 2 * t ? "holds" : ($0[0] > t ? "partly" : "does not hold") }
        }
        // C4: the 4/√d floor under-splits (sits below the corpus's p90).
        if let floor = centred.threshold(noiseFloor)?.value, let p90 = centred.threshold(percentile),
            let p90Value = p90.value, let row = centred.outcome(rule: noiseFloor, grouping: SingleLinkageComponents()), let g = row.groups
        {
            let t = Double(topics)
            let evidence = [
                Evidence(
                    "p90 − 4/√d", p90Value - floor,
                    p90.replicates.map { Estimate(n: $0.n, mean: $0.mean - floor, sd: $0.sd, low: $0.low - floor, high: $0.high - floor) }),
                Evidence("components groups at 4/√d", Double(g), row.replicates?[.groups]),
            ]
            add(
                "C4", "0.177 (d = 512) below a real journal's p90; under-splits", .centred,
                ours: "4/√d \(formatShort(floor)) vs p90 \(formatShort(p90Value)); components \(g) groups (\(topics) topics)", evidence,
                reason:
                    "\(floor < p90Value ? "floor below p90" : "floor above p90"); "
                    + "\(g < topics ? "fewer groups than topics" : "not fewer groups than topics")"
            ) { x in
                let (below, under) = (x[0] > 0, x[1] < t)
                return below && under ? "holds" : (below || under ? "partly" : "does not hold")
            }
        }
        // C5: p90 breaks when the related share is not a tenth.
        if let share = a.corpus.relatedPairShare, let p90 = centred.outcome(rule: percentile, grouping: AverageLinkageCut()),
            let p90ARI = p90.recovery?.ari, let best = centred.outcome(rule: oracle, grouping: AverageLinkageCut()),
            let oracleARI = best.recovery?.ari
        {
            let loss = paired(best.replicateARI, p90.replicateARI) { ($0 ?? 0) - ($1 ?? 0) }
            let regret = oracleARI - p90ARI
            let nearTenth = abs(share - 0.1) <= 0.05
            add(
                "C5", "seed's same-topic share about a fifth; p90 breaks", .centred,
                ours: "related share \(formatShort(share)); average ARI at p90 \(formatShort(p90ARI)) vs oracle \(formatShort(oracleARI))",
                [Evidence("oracle ARI − p90 ARI (average)", regret, loss)],
                reason: nearTenth
                    ? "share close to the assumed tenth"
                    : (regret > 0.1 ? "p90 loses \(formatShort(regret)) ARI" : "p90 within 0.1 ARI of the oracle")
            ) { nearTenth ? "n/a (share ≈ 10%)" : ($0[0] > 0.1 ? "holds" : "does not hold") }
        }
        // C6: Otsu finds the valley.
        if let t = centred.threshold(otsu), let above = t.pairsAbove, let relatedAbove = t.relatedAbove,
            let comp = centred.outcome(rule: otsu, grouping: SingleLinkageComponents()), let compGroups = comp.groups,
            let avg = centred.outcome(rule: otsu, grouping: AverageLinkageCut())
        {
            let relatedTotal = centred.statistics[.related]?.count ?? 0
            let precision = above > 0 ? Double(relatedAbove) / Double(above) : 1
            let recall = relatedTotal > 0 ? Double(relatedAbove) / Double(relatedTotal) : 1
            let bestARI = max(comp.recovery?.ari ?? 0, avg.recovery?.ari ?? 0)
            let replicateBest = paired(comp.replicateARI, avg.replicateARI) { max($0 ?? 0, $1 ?? 0) }
            let evidence = [
                Evidence("share of pairs above that are related", precision, t.replicatePairs?[.precision]),
                Evidence("share of related pairs above", recall, t.replicatePairs?[.recall]),
                Evidence("components groups", Double(compGroups), comp.replicates?[.groups]),
                Evidence("best ARI (components, average)", bestARI, replicateBest),
            ]
            let k = Double(topics)
            let exact = precision == 1 && recall == 1
            add(
                "C6", "seed-12: Otsu 0.333, exactly the 13 of 66 same-topic pairs above, 4 groups", .centred,
                ours:
                    "Otsu \(formatShort(t.value)): \(above) pairs above, \(relatedAbove) of \(relatedTotal) related; components "
                    + "\(compGroups), average \(avg.groups ?? 0) groups (ARI \(formatShort(avg.recovery?.ari))); \(topics) topics",
                evidence,
                reason: exact ? "separates related from unrelated exactly" : "related and unrelated overlap at Otsu's cut"
            ) { x in x[0] == 1 && x[1] == 1 && x[2] == k ? "holds" : (x[3] >= 0.5 ? "partly" : "does not hold") }
        }
        return rows
    }

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
}
