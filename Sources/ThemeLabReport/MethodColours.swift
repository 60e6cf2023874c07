import ThemeLabCore
import ThemeLabMethods
import ThemeLabPairs

/// The colours, dashes and markers of methods in figures. Every colour of `palette` differs from every other by at least
/// `minimumDifference` in CIEDE2000 (`colourDifference`), and from white, black and the unrelated pairs' grey, so any
/// two methods drawn in one figure (`Figure`) are told apart by colour; rules are also drawn dashed and groupings solid,
/// and each entry of a figure has a dash and a marker of its own, so a figure printed in grey still tells them apart.
/// A method keeps its home colour (its registry place) in every figure where no other entry took it first.
package enum MethodColours {
    /// Eighteen colours, chosen by maximising the smallest CIEDE2000 difference between any two over sRGB colours at
    /// least 40 from white and 20 from black and grey (the smallest is 20.8), then ordered so the first few, which small
    /// figures use, differ most.
    package static let palette = [
        "#0088FF", "#CC7700", "#00AA00", "#EE0011", "#6600EE", "#FF3399", "#448877", "#774400", "#777700", "#AA66FF", "#003377",
        "#660000", "#991166", "#006611", "#004444", "#665555", "#333300", "#330022",
    ]
    /// The smallest CIEDE2000 difference between any two colours drawn in one figure (tested over every figure).
    package static let minimumDifference = 20.0

    /// The threshold groupings and label-informed references (the first five groupings of the registry) take the first
    /// colours; the rules the next, in registry order; the groupings that choose their own cuts the rest, wrapping.
    static let fixedGroupings = 5

    /// A rule's home colour.
    package static func home(_ rule: RuleKey) -> Int {
        fixedGroupings + (thresholdRuleRegistry.entries.map(\.name).firstIndex(of: base(rule.name)) ?? 0)
    }

    /// A grouping's home colour.
    package static func home(_ grouping: GroupingKey) -> Int {
        let k = groupingRegistry.entries.map(\.name).firstIndex(of: base(grouping.name)) ?? 0
        return k < fixedGroupings ? k : (k + thresholdRuleRegistry.entries.count) % palette.count
    }

    /// A grouping's home colour itself, for a page that draws few groupings, each in its own.
    package static func homeColour(_ grouping: GroupingKey) -> String { palette[home(grouping)] }

    static func base(_ name: String) -> String { String(name.prefix { $0 != "(" }) }

    /// Dash patterns: rules' lines are always dashed, groupings' solid.
    package static let ruleDashes = ["6 3", "2 2", "8 3 2 3", "1 3", "10 4", "4 2 1 2 1 2"]
    /// Outline dashes of the bars of groupings.
    package static let barDashes = ["", "4 2", "1 2", "6 2 1 2", "8 3", "2 4"]

    /// The pairs of a histogram: all and related in black, unrelated in grey.
    package static func of(_ pairs: PairClass) -> String { pairs == .unrelated ? "#8C8C8C" : "#000000" }

    /// How one entry of a figure is drawn: its colour, and the dash and marker that go with that colour.
    package struct Style: Sendable, Equatable {
        package var colour: String
        package var dash: String
        package var marker: Marker
    }

    /// The styles of one figure's entries: each its home colour unless an entry drawn before took it, then the first free
    /// palette colour (past `palette.count` entries, the least used one, from the home colour on, where dashes and markers
    /// still tell them apart); the marker and dash of that colour and round; groupings solid (bars: an outline dash).
    package struct Figure {
        private var styles: [String: Style] = [:]
        private var barDashes: [String: String] = [:]
        private var used: [Int: Int] = [:]

        package init() {}

        /// A new entry's style: its home colour or the least used one, and the marker and dash of that colour and round
        /// (the n-th entry of one colour): up to six entries of one colour differ in dash and marker.
        private mutating func add(_ name: String, home: Int, rule: Bool) -> Style {
            let order = (0..<palette.count).map { (home + $0) % palette.count }
            let k = order.min { used[$0, default: 0] < used[$1, default: 0] }!
            let round = used[k, default: 0]
            used[k] = round + 1
            let s = Style(
                colour: palette[k], dash: rule ? ruleDashes[(k + round) % ruleDashes.count] : "",
                marker: Marker.allCases[(k + round) % Marker.allCases.count])
            styles[name] = s
            barDashes[name] = MethodColours.barDashes[(k + round) % MethodColours.barDashes.count]
            return s
        }

        package mutating func style(_ rule: RuleKey) -> Style {
            styles["rule " + rule.name] ?? add("rule " + rule.name, home: MethodColours.home(rule), rule: true)
        }

        /// A grouping's style: solid, or as a bar outlined in its colour's dash.
        package mutating func style(_ grouping: GroupingKey, bar: Bool = false) -> Style {
            let name = "grouping " + grouping.name
            var s = styles[name] ?? add(name, home: MethodColours.home(grouping), rule: false)
            if bar { s.dash = barDashes[name] ?? "" }
            return s
        }

        /// The style of the n-th of a figure's generic series (no method): the n-th palette colour and marker, solid.
        package static func series(_ n: Int) -> Style {
            Style(colour: palette[n % palette.count], dash: "", marker: Marker.allCases[n % Marker.allCases.count])
        }
    }

    /// A point's shape, drawn at each point of a line, at the top of a threshold's line and in the legend.
    package enum Marker: String, CaseIterable, Sendable {
        case circle, square, triangle, diamond, down, cross, plus

        /// The shape at (x, y) in `colour`, about 7 px across.
        package func svg(x: Double, y: Double, colour: String) -> String {
            let (p, s) = (SVGPlot.n, 3.5)
            let attributes = "class=\"marker\" data-marker=\"\(rawValue)\""
            switch self {
            case .circle: return "<circle \(attributes) cx=\"\(p(x))\" cy=\"\(p(y))\" r=\"\(p(s))\" fill=\"\(colour)\"/>"
            case .square:
                let size = "width=\"\(p(2 * s))\" height=\"\(p(2 * s))\""
                return "<rect \(attributes) x=\"\(p(x - s))\" y=\"\(p(y - s))\" \(size) fill=\"\(colour)\"/>"
            case .cross, .plus:
                let d =
                    self == .cross
                    ? "M\(p(x - s)) \(p(y - s)) L\(p(x + s)) \(p(y + s)) M\(p(x - s)) \(p(y + s)) L\(p(x + s)) \(p(y - s))"
                    : "M\(p(x - s)) \(p(y)) L\(p(x + s)) \(p(y)) M\(p(x)) \(p(y - s)) L\(p(x)) \(p(y + s))"
                return "<path \(attributes) d=\"\(d)\" stroke=\"\(colour)\" stroke-width=\"2\" fill=\"none\"/>"
            case .triangle, .down, .diamond:
                let points: [(Double, Double)] =
                    self == .diamond
                    ? [(x, y - s - 1), (x + s, y), (x, y + s + 1), (x - s, y)]
                    : self == .triangle
                        ? [(x, y - s - 1), (x + s, y + s), (x - s, y + s)] : [(x, y + s + 1), (x + s, y - s), (x - s, y - s)]
                let list = points.map { "\(p($0.0)),\(p($0.1))" }.joined(separator: " ")
                return "<polygon \(attributes) points=\"\(list)\" fill=\"\(colour)\"/>"
            }
        }
    }
}
