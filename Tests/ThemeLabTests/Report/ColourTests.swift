import Foundation
import Testing
import ThemeLabCore
import ThemeLabMethods
import ThemeLabReport

@testable import ThemeLabStudy

/// Colours a reader can tell apart: CIEDE2000 checked against Sharma, Wu and Dalal's published pairs, a palette whose
/// every two colours differ by at least `MethodColours.minimumDifference`, and every figure the harness draws keeping
/// its data colours that far apart, each legend entry a style of its own.
@Suite struct ColourTests {
    /// Table 1 of G. Sharma, W. Wu, E. N. Dalal, Color Res. Appl. 30(1) 21–30 (2005): L*a*b* of each pair and ΔE₀₀ to
    /// four decimals.
    static let sharma: [(Double, Double, Double, Double, Double, Double, Double)] = [
        (50.0000, 2.6772, -79.7751, 50.0000, 0.0000, -82.7485, 2.0425), (50.0000, 3.1571, -77.2803, 50.0000, 0.0000, -82.7485, 2.8615),
        (50.0000, 2.8361, -74.0200, 50.0000, 0.0000, -82.7485, 3.4412), (50.0000, -1.3802, -84.2814, 50.0000, 0.0000, -82.7485, 1.0000),
        (50.0000, -1.1848, -84.8006, 50.0000, 0.0000, -82.7485, 1.0000), (50.0000, -0.9009, -85.5211, 50.0000, 0.0000, -82.7485, 1.0000),
        (50.0000, 0.0000, 0.0000, 50.0000, -1.0000, 2.0000, 2.3669), (50.0000, -1.0000, 2.0000, 50.0000, 0.0000, 0.0000, 2.3669),
        (50.0000, 2.4900, -0.0010, 50.0000, -2.4900, 0.0009, 7.1792), (50.0000, 2.4900, -0.0010, 50.0000, -2.4900, 0.0010, 7.1792),
        (50.0000, 2.4900, -0.0010, 50.0000, -2.4900, 0.0011, 7.2195), (50.0000, 2.4900, -0.0010, 50.0000, -2.4900, 0.0012, 7.2195),
        (50.0000, -0.0010, 2.4900, 50.0000, 0.0009, -2.4900, 4.8045), (50.0000, -0.0010, 2.4900, 50.0000, 0.0010, -2.4900, 4.8045),
        (50.0000, -0.0010, 2.4900, 50.0000, 0.0011, -2.4900, 4.7461), (50.0000, 2.5000, 0.0000, 50.0000, 0.0000, -2.5000, 4.3065),
        (50.0000, 2.5000, 0.0000, 73.0000, 25.0000, -18.0000, 27.1492), (50.0000, 2.5000, 0.0000, 61.0000, -5.0000, 29.0000, 22.8977),
        (50.0000, 2.5000, 0.0000, 56.0000, -27.0000, -3.0000, 31.9030), (50.0000, 2.5000, 0.0000, 58.0000, 24.0000, 15.0000, 19.4535),
        (50.0000, 2.5000, 0.0000, 50.0000, 3.1736, 0.5854, 1.0000), (50.0000, 2.5000, 0.0000, 50.0000, 3.2972, 0.0000, 1.0000),
        (50.0000, 2.5000, 0.0000, 50.0000, 1.8634, 0.5757, 1.0000), (50.0000, 2.5000, 0.0000, 50.0000, 3.2592, 0.3350, 1.0000),
        (60.2574, -34.0099, 36.2677, 60.4626, -34.1751, 39.4387, 1.2644), (63.0109, -31.0961, -5.8663, 62.8187, -29.7946, -4.0864, 1.2630),
        (61.2901, 3.7196, -5.3901, 61.4292, 2.2480, -4.9620, 1.8731), (35.0831, -44.1164, 3.7933, 35.0232, -40.0716, 1.5901, 1.8645),
        (22.7233, 20.0904, -46.6940, 23.0331, 14.9730, -42.5619, 2.0373), (36.4612, 47.8580, 18.3852, 36.2715, 50.5065, 21.2231, 1.4146),
        (90.8027, -2.0831, 1.4410, 91.1528, -1.6435, 0.0447, 1.4441), (90.9257, -0.5406, -0.9208, 88.6381, -0.8985, -0.7239, 1.5381),
        (6.7747, -0.2908, -2.4247, 5.8714, -0.0985, -2.2286, 0.6377), (2.0776, 0.0795, -1.1350, 0.9033, -0.0636, -0.5514, 0.9082),
    ]

    @Test func ciede2000MatchesSharmasThirtyFourPairsBothWays() {
        #expect(Self.sharma.count == 34)
        for p in Self.sharma {
            let (x, y) = (LabColour(l: p.0, a: p.1, b: p.2), LabColour(l: p.3, a: p.4, b: p.5))
            #expect(abs(colourDifference(x, y) - p.6) < 5e-5, "\(p)")
            #expect(abs(colourDifference(y, x) - p.6) < 5e-5, "\(p) reversed")
        }
        // sRGB to L*a*b*: white is L* 100, black 0, mid grey #777777 about L* 50 (CIE 15:2004 with the sRGB curve).
        #expect(abs(LabColour(hex: "#FFFFFF")!.l - 100) < 1e-3 && abs(LabColour(hex: "#FFFFFF")!.a) < 1e-3)
        #expect(abs(LabColour(hex: "#000000")!.l) < 1e-9 && abs(LabColour(hex: "#777777")!.l - 50.03) < 0.01)
        #expect(LabColour(hex: "#12345") == nil && LabColour(hex: "red") == nil)
    }

    /// Every two palette colours, and each against black and the unrelated pairs' grey, at least 20 apart; each at least
    /// 40 from the white ground.
    @Test func thePaletteKeepsItsMinimumDifference() {
        let palette = MethodColours.palette
        #expect(Set(palette).count == palette.count)
        var smallest = Double.infinity
        for (k, a) in palette.enumerated() {
            for b in palette[(k + 1)...] + ["#000000", MethodColours.of(.unrelated)] { smallest = min(smallest, colourDifference(a, b)!) }
            #expect(colourDifference(a, "#FFFFFF")! >= 40, "\(a) on white")
        }
        #expect(smallest >= MethodColours.minimumDifference, "smallest difference \(smallest)")
    }

    /// The data colours of a figure (series, threshold lines, bars, curves, markers, bands), each once.
    static func colours(_ svg: String) -> [String] {
        let tags = svg.matches(
            of: /<(?:path|line|rect|circle|polygon|g)\b[^>]*class="(?:series|threshold|bar|curve|marker|band|best-cut)"[^>]*>/)
        var found: [String] = []
        for tag in tags {
            for m in String(tag.output).matches(of: /(?:stroke|fill)="(#[0-9A-Fa-f]{6})"/) where !found.contains(String(m.output.1)) {
                found.append(String(m.output.1))
            }
        }
        return found
    }

    /// Each legend entry's (colour, dash, marker, swatch) as written.
    static func legendStyles(_ svg: String) -> [String] {
        svg.components(separatedBy: "<g class=\"legend\">").dropFirst().map { entry in
            let head = entry.components(separatedBy: "<text").first ?? ""
            let colour = head.firstMatch(of: /(?:stroke|fill)="(#[0-9A-Fa-f]{6})"/).map { String($0.output.1) } ?? ""
            let dash = head.firstMatch(of: /stroke-dasharray="([^"]*)"/).map { String($0.output.1) } ?? ""
            let marker = head.firstMatch(of: /data-marker="([a-z]+)"/).map { String($0.output.1) } ?? ""
            return [colour, dash, marker, head.contains("<rect") ? "bar" : "line"].joined(separator: "|")
        }
    }

    /// Every figure of the committed results as this code draws it: each results file's plots, each experiment's regret
    /// plots, the replay's, and two figures with every rule and every grouping the registries hold.
    static func everyFigure() throws -> [(name: String, svg: String)] {
        let root = ReproducibilityTests.root + "/results"
        var figures: [(String, String)] = []
        for name in try FileManager.default.contentsOfDirectory(atPath: root).sorted() {
            let path = "\(root)/\(name)/\(name).json"
            guard let r = try? JSONOutput.read(AnalysisResults.self, path: path, expected: "results") else { continue }
            figures += try SVGPlot.rendered(r, folder: name).map { ($0.path, String(decoding: $0.data, as: UTF8.self)) }
            figures += r.regretTables().flatMap { space in space.tables.map { ("\(name) regret \(space.space) \($0.grouping)", $0.plot()) }
            }
        }
        if let replay = try? JSONOutput.read(ReplayResults.self, path: "\(root)/replay/replay.json", expected: "replay") {
            figures += ReplayReport.plots(replay).map { ($0.0, $0.1) }
        }
        return try figures + everyMethod()
    }

    /// An ablation and an ARI curve of the committed seed-26 analysis with a rule of every kind and every grouping.
    static func everyMethod() throws -> [(String, String)] {
        let r = try JSONOutput.read(AnalysisResults.self, path: ReproducibilityTests.root + "/results/seeds/seeds.json", expected: "r")
        var s = try #require(r.analyses.first?.spaces.first)
        let template = try #require(s.groupings.first)
        s.thresholds = CeilingStabilityTests.everyRule.enumerated().map { (k: Int, name: String) -> ThresholdOutcome in
            ThresholdOutcome(rule: RuleKey(name), value: -0.2 + 0.05 * Double(k), labelInformed: name == "oracle")
        }
        s.groupings = groupingRegistry.entries.map(\.name).map { name in
            var g = template
            (g.grouping, g.rule) = (GroupingKey(name), nil)
            return g
        }
        let names = ["components", "leader", "average"]
        s.ceilings = (s.ceilings ?? []).filter { names.contains($0.grouping.name) }
        return [
            ("every method ablation", SVGPlot.ablation(s, corpus: "c", source: "s")),
            ("every method curve", SVGPlot.ariCurve(s, corpus: "c", source: "s") ?? ""),
        ]
    }

    @Test func everyFigureKeepsItsColoursApartAndItsLegendEntriesDistinct() throws {
        var smallest = (Double.infinity, "")
        let figures = try Self.everyFigure()
        #expect(figures.count > 100)
        for (name, svg) in figures {
            let colours = Self.colours(svg)
            for (k, a) in colours.enumerated() {
                for b in colours[(k + 1)...] {
                    let d = colourDifference(a, b)!
                    if d < smallest.0 { smallest = (d, "\(name): \(a) and \(b)") }
                }
            }
            let styles = Self.legendStyles(svg)
            #expect(Set(styles).count == styles.count, "\(name): two legend entries drawn alike: \(styles)")
        }
        #expect(smallest.0 >= MethodColours.minimumDifference, "\(smallest.1): ΔE00 \(smallest.0)")
        print("figures checked: \(figures.count); smallest CIEDE2000 between two colours of one figure: \(smallest.0) (\(smallest.1))")
    }
}
