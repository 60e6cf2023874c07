import Foundation
import ThemeLabCore
import ThemeLabCorpus
import ThemeLabEncoder
import ThemeLabMeasures
import ThemeLabMethods
import ThemeLabPairs
import ThemeLabStudy

/// REPORT.md's summary: one row per claim C1–C9 with its verdicts counted, the corpora that decide it and its key figure.
package enum ClaimsSummary {
    /// One summary row, before it is written.
    package struct Line {
        package var id: String
        package var short: String
        package var verdicts: [Verdict]
        package var holdsOn: [String]
        package var failsOn: [String]
        package var key: String
    }

    /// The claims in summary order.
    package static var claims: [any Claim.Type] {
        ClaimsReport.claims.map { $0 as any Claim.Type } + [
            C7ThemeSumsGiveTheMean.self, C8IncrementalDrifts.self, C9JournalMethodPolicySuffices.self,
        ]
    }

    /// Each corpus claim's key quantity: which of its figures, and whether it is read per topic.
    package static let keys: [String: (index: Int, perTopic: Bool)] = [
        "C1": (1, false), "C2": (0, false), "C3": (0, true), "C4": (0, false), "C5": (0, false), "C6": (3, false),
    ]

    /// The summary table: C1–C7 from the claims rows, C8 and C9 from the replays' journals × rules.
    package static func markdown(_ rows: [ClaimsReport.Row], replays: [ReplayResults]) -> String {
        var out =
            "| claim | in short | verdicts | holds on | does not hold on | key figure: the median row's mean [95% interval], and "
            + "the range of the rows' own draws |\n"
            + "|---|---|---|---|---|---|\n"
        for claim in claims {
            for (encoder, subset) in byEncoder(rows.filter { $0.claim == claim.id }, split: perEncoder.contains(claim.id)) {
                var line = replayLine(claim, replays) ?? corpusLine(claim, subset)
                if let encoder { line.id += " · \(encoder)" }
                out +=
                    "| \(line.id) | \(line.short) | \(counts(line.verdicts)) | \(names(line.holdsOn)) | \(names(line.failsOn)) | "
                    + "\(line.key) |\n"
            }
        }
        return out
    }

    /// The claims read per encoder (does the seed's anisotropy picture hold on the kind of encoder it was measured on?).
    package static let perEncoder: Set<String> = ["C1", "C2"]

    /// `rows` split by encoder in order of first appearance (the source without its layer; the generator is one), when
    /// `split` and there is more than one; else all of them, unnamed.
    package static func byEncoder(_ rows: [ClaimsReport.Row], split: Bool) -> [(encoder: String?, rows: [ClaimsReport.Row])] {
        let encoder = { (r: ClaimsReport.Row) in VectorSource.encoder(inDescription: r.source) }
        let names = rows.map(encoder).distinctInOrder()
        guard split, names.count > 1 else { return [(nil, rows)] }
        return names.map { name in (name, rows.filter { encoder($0) == name }) }
    }

    /// A claim read on corpus analyses (C1–C7): its verdicts, and its key figure at each corpus's own draw.
    package static func corpusLine(_ claim: any Claim.Type, _ rows: [ClaimsReport.Row]) -> Line {
        var key = rows.count == 1 ? rows[0].quantities : "n/a"
        if let (index, perTopic) = keys[claim.id] {
            let figures = rows.compactMap { r -> (corpus: String, figure: ClaimsReport.Figure)? in
                guard index < r.figures.count else { return nil }
                let scale = perTopic ? 1 / Double(max(r.topics ?? 1, 1)) : 1
                return (r.corpus, r.figures[index].scaled(by: scale))
            }
            let name = rows.first.map { $0.figures[index].name + (perTopic ? " per topic" : "") } ?? ""
            key =
                "\(name): \(medianRow(figures.map { ($0.corpus, $0.figure.mean, $0.figure.low, $0.figure.high) }))"
                + "; own draws \(spread(figures.map(\.figure.ownDraw), formatShort))"
        }
        return Line(
            id: claim.id, short: claim.short, verdicts: rows.map(\.verdict), holdsOn: rows.filter { $0.verdict == .holds }.map(\.corpus),
            failsOn: rows.filter { $0.verdict == .doesNotHold }.map(\.corpus), key: key)
    }

    /// C8 or C9 over every journal × rule of the replays (nil for another claim).
    package static func replayLine(_ claim: any Claim.Type, _ replays: [ReplayResults]) -> Line? {
        let found = replays.flatMap { r in r.journals.flatMap { j in j.rules.map { (ReplayReport.label(j), $0) } } }
        func percent(_ x: Double) -> String { String(format: "%.1f%%", 100 * x) }
        switch claim.id {
        case C8IncrementalDrifts.id:
            let c8 = found.compactMap { j, r in r.c8.map { (j, $0) } }
            return Line(
                id: claim.id, short: claim.short, verdicts: c8.map(\.1.verdict), holdsOn: c8.filter { $0.1.verdict == .holds }.map(\.0),
                failsOn: c8.filter { $0.1.verdict == .doesNotHold }.map(\.0),
                key: "ARI gap growth: \(medianRow(c8.map { ($0.0, $0.1.gapGrowth.mean, $0.1.gapGrowth.low, $0.1.gapGrowth.high) }))")
        case C9JournalMethodPolicySuffices.id:
            let c9 = found.compactMap { j, r in r.c9.map { (j, $0) } }
            return Line(
                id: claim.id, short: claim.short, verdicts: c9.map(\.1.verdict), holdsOn: c9.filter { $0.1.verdict == .holds }.map(\.0),
                failsOn: c9.filter { $0.1.verdict == .doesNotHold }.map(\.0),
                key: "mean staleness ARI "
                    + medianRow(c9.map { ($0.0, $0.1.meanStaleness.mean, $0.1.meanStaleness.low, $0.1.meanStaleness.high) })
                    + "; work share \(spread(c9.map(\.1.workShare.mean), percent))")
        default: return nil
        }
    }

    /// The row at the median of the means, with its interval and name: "0.441 [0.414, 0.469] on clinc150-test-10i-seed1
    /// (median of 14; means 0.070 to 0.486)"; the own draw alone where a row has no replicates; "n/a" without rows.
    package static func medianRow(_ rows: [(name: String, mean: Double?, low: Double?, high: Double?)]) -> String {
        let withMeans = rows.filter { $0.mean != nil }.sorted { ($0.mean ?? 0, $0.name) < ($1.mean ?? 0, $1.name) }
        guard let middle = withMeans.isEmpty ? nil : withMeans[(withMeans.count - 1) / 2], let mean = middle.mean else {
            return "n/a (no replicates)"
        }
        var interval = ""
        if let low = middle.low, let high = middle.high { interval = " [\(formatShort(low)), \(formatShort(high))]" }
        let means = withMeans.compactMap(\.mean)
        let range = means.count > 1 ? "; means \(formatShort(means.first)) to \(formatShort(means.last))" : ""
        return "\(formatShort(mean))\(interval) on \(middle.name) (median of \(means.count)\(range))"
    }

    /// "0.076 (0.050 to 0.300)": the median of `values` and their range; "n/a" without any.
    package static func spread(_ values: [Double], _ format: (Double) -> String) -> String {
        let v = values.sorted()
        guard let low = v.first, let high = v.last else { return "n/a" }
        let median = v.count % 2 == 1 ? v[v.count / 2] : (v[v.count / 2 - 1] + v[v.count / 2]) / 2
        return v.count == 1 ? format(low) : "\(format(median)) (\(format(low)) to \(format(high)))"
    }

    /// "holds 3 · partly 1 · does not hold 8 · inconclusive 2", in the order of `Verdict`, without the zeros.
    package static func counts(_ verdicts: [Verdict]) -> String {
        let order: [Verdict] = [.holds, .partly, .inPart, .doesNotHold, .inconclusive, .shareNearTenth]
        return order.compactMap { v in
            let n = verdicts.filter { $0 == v }.count
            return n == 0 ? nil : "\(v) \(n)"
        }.joined(separator: " · ")
    }

    /// Distinct names in the order first met, at most three and how many more; "none" without any.
    package static func names(_ all: [String]) -> String {
        let seen = all.distinctInOrder()
        guard !seen.isEmpty else { return "none" }
        return seen.prefix(3).joined(separator: ", ") + (seen.count > 3 ? " and \(seen.count - 3) more" : "")
    }
}
