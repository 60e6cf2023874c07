import Foundation
import ThemeLabCore
import ThemeLabMeasures
import ThemeLabMethods
import ThemeLabStudy

/// The size experiment's outputs: NAME.json (every draw's figures), NAME.csv (one row per corpus × size × method), NAME.md
/// (the tables), plots/NAME-FAMILY.svg (ratio against size, one per family of methods), and REPORT.md's section.
package enum SizeReport {
    package static func write(_ r: SizeResults, folder: String, suggested: SizeMethod?) throws {
        try AtomicFile.write(try JSONOutput.encode(r), to: "\(folder)/\(r.name).json")
        try AtomicFile.write(csv(r), to: "\(folder)/\(r.name).csv")
        try AtomicFile.write(markdown(r, suggested: suggested, plots: "plots"), to: "\(folder)/\(r.name).md")
        for (path, svg) in plots(r) { try AtomicFile.write(svg, to: "\(folder)/\(path)") }
    }

    /// The families of the methods run on the study corpora, in order: the threshold groupings', the study's own cuts, those
    /// the experiment adds.
    package static func families(_ r: SizeResults) -> [String] {
        r.methods(.study).map { r.methods[$0].family }.reduce(into: []) { if !$0.contains($1) { $0.append($1) } }
    }

    /// A family's figure, relative to the results folder.
    package static func plotPath(_ r: SizeResults, family: String) -> String { "plots/\(r.name)-\(SVGPlot.slug(family)).svg" }

    package static func plots(_ r: SizeResults) -> [(path: String, svg: String)] {
        families(r).map { (plotPath(r, family: $0), plot(r, family: $0)) }
    }

    static let csvTable = CSVTable(
        CSVTable.text("role", "corpus") + CSVTable.numbers("corpus_items", "topics", "items", "draws", "ceiling_ari")
            + CSVTable.text("method") + CSVTable.numbers("ari", "groups", "ratio", "ratio_low", "ratio_high", "fallbacks"))

    /// One row per corpus × size × method: mean ceiling, mean ARI and groups over the draws, the ratio with its interval
    /// (empty where the ceiling is below 0.1), and how many draws fell back.
    package static func csv(_ r: SizeResults) -> String {
        var lines = [csvTable.header]
        func mean(_ v: [Double]) -> Double { v.reduce(0, +) / Double(v.count) }
        for c in r.curves {
            for p in c.points {
                for (m, method) in r.methods.enumerated() {
                    let ratio = r.ratio(m, at: p)
                    let groups = p.groups[m].compactMap { $0.map(Double.init) }
                    lines.append(
                        csvTable.row(
                            [
                                c.role.rawValue, c.corpus, "\(c.items)", "\(c.topics)", "\(p.items)", "\(p.draws)", "\(mean(p.ceiling))",
                                method.description, "\(mean(p.ari[m].map { $0 ?? 0 }))", groups.isEmpty ? "" : "\(mean(groups))",
                            ]
                                + [ratio?.value, ratio?.low, ratio?.high].map { $0.map { "\($0)" } ?? "" } + ["\(p.fallbacks[m])"]))
                }
            }
        }
        return lines.joined()
    }

    /// "0.93"; "—" for none.
    static func short(_ x: Double?) -> String { x.map { String(format: "%.2f", $0) } ?? "—" }

    /// The smallest size from which a method stays within the target everywhere, with the sizes its bounds give:
    /// "48 (32–96)", "never", "never (from 256 at the upper bounds)".
    package static func smallest(_ r: SizeResults, _ m: Int, role: SizeCurve.Role = .study) -> String {
        let (point, optimistic, careful) = (
            r.smallestSize(m, role: role), r.smallestSize(m, role: role, bound: .high), r.smallestSize(m, role: role, bound: .low)
        )
        let range = "\(optimistic.map(String.init) ?? "never")–\(careful.map(String.init) ?? "never")"
        return (point.map(String.init) ?? "never") + (optimistic == careful && optimistic == point ? "" : " (\(range))")
    }

    /// The figure of one family: each method's worst ratio over the study corpora against the size (log axis), the own
    /// sizes drawn at each corpus's size, with the target line.
    package static func plot(_ r: SizeResults, family: String) -> String {
        let members = r.methods.indices.filter { r.methods[$0].family == family }
        let grid = r.gridSizes(.study)
        var figure = MethodColours.Figure()
        let series = members.map { m -> SVGPlot.Series in
            let worst = grid.compactMap { n in r.worstOver(m, role: .study, where: SizeResults.at(n)).map { (n, $0) } }
            let method = r.methods[m]
            return SVGPlot.Series(
                label: method.rule?.name ?? method.grouping.name,
                points: worst.map { (x: Double($0.0), y: $0.1.ratio.value) },
                band: worst.filter { $0.1.ratio.draws > 1 }.map { (x: Double($0.0), low: $0.1.low, high: $0.1.high) },
                style: method.rule.map { figure.style($0) } ?? figure.style(method.grouping))
        }
        let target = SVGPlot.Series(
            label: "target (\(short(SizeResults.target)) of the ceiling)",
            points: [grid.first, grid.last].compactMap { $0.map { (x: Double($0), y: SizeResults.target) } },
            style: MethodColours.Style(colour: MethodColours.of(.unrelated), dash: "2 4", marker: .plus))
        let title =
            family == SizeMethod.ownCuts
            ? "groupings that cut themselves"
            : family == SizeMethod.added ? "spectral k and Cohesion Ratio" : "\(family) at each rule"
        // Ticks at the powers of two only: 12, 24, 48 and 96 sit too close to their neighbours on a log axis to label.
        let ticks = grid.filter { $0 & ($0 - 1) == 0 }
        return SVGPlot.lines(
            title: "\(r.name): worst ratio to the ceiling, \(title)", xLabel: "entries (subsample size)",
            yLabel: "ARI / ceiling ARI (worst study corpus)", series: series + [target], logX: true,
            xTicks: (ticks.count >= 3 ? ticks : grid).map(Double.init))
    }
}
