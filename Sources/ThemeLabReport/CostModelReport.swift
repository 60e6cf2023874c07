import Foundation
import ThemeLabPairs

/// The cost model as the report shows it: its formulas, a table and a plot.
extension CostModel {
    /// The fitted formulas and measured against predicted, as Markdown.
    package func markdown(_ points: [Point]) -> String {
        var out = String(
            format: "time ≈ N(N−1)/2 · (2d / %.1f GFLOP/s + %.2f ns); memory ≈ %.0f MiB + N·d · %.1f B + N · %.0f B\n\n",
            flopRate / 1e9, perPair * 1e9, base / 1_048_576, perItemDimension, perItem)
        let million = seconds(n: 1_000_000, d: 384)
        out += String(
            format: "predicted at N = 1 000 000, d = 384: %.0f s (%.1f h), peak %.0f MiB\n\n", million, million / 3600,
            peakMiB(n: 1_000_000, d: 384))
        out += "| N | d | measured s | model s | measured peak MiB | model MiB |\n|---|---|---|---|---|---|\n"
        for p in points.sorted(by: { ($0.d, $0.n) < ($1.d, $1.n) }) {
            out += String(
                format: "| %d | %d | %.2f | %.2f | %.0f | %.0f |\n", p.n, p.d, p.seconds, seconds(n: p.n, d: p.d), p.peakMiB,
                peakMiB(n: p.n, d: p.d))
        }
        return out
    }

    /// Measured time (points) and the model (dashed) against N, one colour per d, log–log.
    package func plot(_ points: [Point]) -> String {
        var series: [SVGPlot.Series] = []
        for (k, d) in Set(points.map(\.d)).sorted().enumerated() {
            let measured = points.filter { $0.d == d }.sorted { $0.n < $1.n }
            series.append(SVGPlot.Series(label: "measured, d = \(d)", points: measured.map { (x: Double($0.n), y: $0.seconds) }, colour: k))
            series.append(
                SVGPlot.Series(
                    label: "model, d = \(d)", points: measured.map { (x: Double($0.n), y: seconds(n: $0.n, d: d)) }, dashed: true, colour: k
                ))
        }
        let kernels = Set(points.compactMap(\.kernel)).sorted().joined(separator: ", ")
        return SVGPlot.lines(
            title: "Full pairwise pass: time vs N (2 cores\(kernels.isEmpty ? "" : ", OpenBLAS kernel " + kernels))", xLabel: "items N",
            yLabel: "seconds", series: series, logX: true, logY: true)
    }
}
