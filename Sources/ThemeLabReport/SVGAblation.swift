import Foundation
import ThemeLabCore
import ThemeLabMeasures
import ThemeLabMethods
import ThemeLabStudy

/// The threshold ablation figure: each rule's ARI or pair F1 per threshold grouping as grouped bars, then the groupings
/// that choose their own cuts in a slot of their own. With replicates a bar is the mean over them, its error bar the 95%
/// interval of that mean, and a diamond marks the corpus's own draw on it; without, the bar is the own draw and has no
/// interval. A rule that gave no threshold leaves its slot saying so. The lines under the plot say which is which, and
/// how many own draws lie outside their bar's interval, and why that can be.
extension SVGPlot {
    package static func ablation(
        _ s: SpaceAnalysis, corpus: String, source: String, metric: Metric = .ari, replicates: Int? = nil
    ) -> String {
        var groupings: [GroupingKey] = []
        for g in s.groupings where g.rule != nil && !groupings.contains(g.grouping) { groupings.append(g.grouping) }
        let ownCuts = s.groupings.filter { $0.rule == nil && !$0.labelInformed }
        let slots: [(label: String, rule: ThresholdOutcome?)] =
            s.thresholds.map { ($0.rule.name + ($0.labelInformed ? " †" : ""), $0) } + (ownCuts.isEmpty ? [] : [("own cuts", nil)])
        var figure = MethodColours.Figure()
        let named = groupings + ownCuts.map(\.grouping).filter { !groupings.contains($0) }
        let styles = Dictionary(named.map { ($0, figure.style($0, bar: true)) }) { a, _ in a }
        let bars = slots.map { slot in
            slot.rule.map { t in groupings.map { g in s.groupings.first { $0.rule == t.rule && $0.grouping == g } } }
                ?? ownCuts.map { Optional($0) }
        }
        let outside = bars.joined().compactMap { $0 }.filter { row in
            guard replicates != nil, let e = row.replicates?[metric.metric] else { return false }
            return isOutside(row.recovery?.value(metric.metric), e.low, e.high)
        }.count
        let note = outside == 0 ? nil : outsideCaption(outside, of: bars.joined().compactMap { $0 }.count)
        let (h, b) = (height + 50 + (note == nil ? 0 : 28), bottom + 50 + (note == nil ? 0 : 28))
        let f = frame(
            title: "Threshold ablation — \(corpus) — \(titleName(source)) — \(s.space)", xLabel: ablationCaption(metric, replicates),
            yLabel: metric.rawValue, x: 0...Double(max(slots.count, 1)), y: -0.1...1, xTicks: [], yTicks: ticks(-0.1...1), height: h,
            bottom: b, caption: "vectors: \(source)")
        var svg = f.svg
        for (k, line) in (note ?? []).enumerated() {
            svg +=
                "<text class=\"own-draw-note\" x=\"\(n(left + (width - left - right) / 2))\" y=\"\(n(h - 54 + 13 * Double(k)))\" "
                + "text-anchor=\"middle\" font-size=\"10\">\(escape(line))</text>\n"
        }
        let slot = (width - left - right) / Double(max(slots.count, 1))
        // Labels at 45°: neighbours stand slot·sin 45° apart, so a font below that (with line spacing) never overlaps.
        let font = min(10, slot * 0.707 / 1.25)
        for (r, (label, rule)) in slots.enumerated() {
            svg +=
                "<text class=\"slot-label\" transform=\"translate(\(n(left + (Double(r) + 0.5) * slot)) \(n(h - b + 10))) rotate(-45)\" "
                + "text-anchor=\"end\" font-size=\"\(n(font))\">\(escape(label))</text>\n"
            if let rule, rule.value == nil {
                svg += noThreshold(x: left + (Double(r) + 0.5) * slot, y: f.py(0.45), font: font)
                continue
            }
            let width = slot * 0.8 / Double(max(bars[r].count, 1))
            for (k, row) in bars[r].enumerated() {
                guard let row, let bar = barValue(row, metric, replicates: replicates) else { continue }
                let x = left + Double(r) * slot + slot * 0.1 + Double(k) * width
                svg += ablationBar(
                    row, bar, own: row.recovery?.value(metric.metric), x: x, width: width, py: f.py, slot: label, styles[row.grouping]!)
            }
        }
        svg += "<line x1=\"\(n(left))\" y1=\"\(n(f.py(0)))\" x2=\"\(n(width - right))\" y2=\"\(n(f.py(0)))\" stroke=\"#444\"/>\n"
        return svg + legend(named.map { LegendEntry($0.name, styles[$0]!, marker: false, bar: true) }) + "</svg>\n"
    }

    /// The line under the ablation: what a bar, an error bar and the diamond are.
    static func ablationCaption(_ metric: Metric, _ replicates: Int?) -> String {
        replicates.map { "bars: mean \(metric.rawValue) over \($0) replicates; error bars: 95% interval of that mean; ◇: own draw" }
            ?? "bars: this corpus's own \(metric.rawValue) (one draw: no interval)"
    }

    /// "◇ lies outside its bar's interval on 3 of 40 bars", and why, on two lines.
    static func outsideCaption(_ count: Int, of total: Int) -> [String] {
        [
            "◇ lies outside its bar's interval on \(count) of \(total) bars: that interval bounds the mean over the replicates",
            "(subsamples of the corpus, or fresh draws of a sampled one), not the whole corpus, which is none of them",
        ]
    }

    /// "no threshold", upright in a slot whose rule gave none (so the empty slot never reads as a bar of 0).
    static func noThreshold(x: Double, y: Double, font: Double) -> String {
        "<text class=\"no-threshold\" transform=\"translate(\(n(x)) \(n(y))) rotate(-90)\" text-anchor=\"middle\" "
            + "font-size=\"\(n(max(font, 8)))\" fill=\"#444\">no threshold</text>\n"
    }

    /// A bar's height and interval: the replicate mean and its 95% interval, or the corpus's own figure alone.
    static func barValue(_ row: GroupingOutcome, _ metric: Metric, replicates: Int?) -> (value: Double, low: Double?, high: Double?)? {
        if replicates != nil {
            guard let e = row.replicates?[metric.metric] else { return nil }
            return (e.mean, e.low, e.high)
        }
        return row.recovery?.value(metric.metric).map { ($0, nil, nil) }
    }

    /// One bar (filled in its grouping's colour, outlined in its dash), its error bar and the own draw's diamond when it
    /// has an interval.
    static func ablationBar(
        _ row: GroupingOutcome, _ bar: (value: Double, low: Double?, high: Double?), own: Double?, x: Double, width barW: Double,
        py: (Double) -> Double, slot: String, _ style: MethodColours.Style
    ) -> String {
        let (y0, y1) = (py(max(bar.value, 0)), py(min(bar.value, 0)))
        let data = "data-slot=\"\(escape(slot))\" data-grouping=\"\(escape(row.grouping.name))\""
        var svg =
            "<rect class=\"bar\" \(data) data-value=\"\(bar.value)\" x=\"\(n(x))\" y=\"\(n(y0))\" width=\"\(n(barW * 0.9))\" "
            + "height=\"\(n(max(y1 - y0, 0.5)))\" fill=\"\(style.colour)\" stroke=\"#222\" stroke-width=\"0.8\""
            + "\(dashAttribute(style.dash))/>\n"
        guard let low = bar.low, let high = bar.high else { return svg }
        let (cx, lo, hi) = (x + barW * 0.45, py(max(low, -0.1)), py(min(high, 1)))
        svg +=
            "<path class=\"error-bar\" \(data) data-low=\"\(low)\" data-high=\"\(high)\" d=\"M\(n(cx)) \(n(lo)) L\(n(cx)) \(n(hi)) "
            + "M\(n(cx - 2)) \(n(lo)) L\(n(cx + 2)) \(n(lo)) M\(n(cx - 2)) \(n(hi)) L\(n(cx + 2)) \(n(hi))\" stroke=\"#222\" "
            + "stroke-width=\"1\" fill=\"none\"/>\n"
        if let own, own.isFinite {
            let (y, r) = (py(min(max(own, -0.1), 1)), min(4, max(barW * 0.35, 2.5)))
            svg +=
                "<polygon class=\"own-draw\" \(data) data-value=\"\(own)\" points=\"\(n(cx)),\(n(y - r)) \(n(cx + r)),\(n(y)) "
                + "\(n(cx)),\(n(y + r)) \(n(cx - r)),\(n(y))\" fill=\"white\" stroke=\"#000\" stroke-width=\"1.2\"/>\n"
        }
        return svg
    }
}
