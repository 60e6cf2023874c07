import ThemeLabCore
import ThemeLabMethods
import ThemeLabPairs

/// One colour per method name in every figure: a rule's or a grouping's base name (`percentile` of `percentile(90)`)
/// takes the colour of its place in its registry, from palettes safe for colour-blind readers (groupings: Okabe–Ito,
/// then Tol's muted colours; rules: Tol's vibrant, then muted), and rules are drawn dashed, groupings solid, so the two
/// never read as one; two entries of one base in a figure differ by their dash (`dash`). Pair classes are greys.
package enum MethodColours {
    /// Groupings: Okabe & Ito (2008) without yellow (too pale on white), then Tol (2021) muted.
    package static let groupingPalette = [
        "#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#000000", "#882255", "#44AA99", "#999933",
    ]
    /// Threshold rules: Tol (2021) vibrant, then muted.
    package static let rulePalette = [
        "#0077BB", "#33BBEE", "#009988", "#EE7733", "#CC3311", "#EE3377", "#555555", "#332288", "#117733", "#AA4499", "#88CCEE",
        "#DDCC77",
    ]

    /// The colour of a threshold rule.
    package static func of(_ rule: RuleKey) -> String {
        colour(base(rule.name), in: thresholdRuleRegistry.entries.map(\.name), rulePalette)
    }

    /// The colour of a grouping.
    package static func of(_ grouping: GroupingKey) -> String {
        colour(base(grouping.name), in: groupingRegistry.entries.map(\.name), groupingPalette)
    }

    /// Dash patterns of groupings: the first of a base name solid, a second, third, … of it in one figure dashed.
    package static let groupingDashes = ["", "6 3", "2 2", "8 3 2 3"]
    /// Dash patterns of rules' lines: always dashed, a second of one base differently.
    package static let ruleDashes = ["5 3", "2 2", "8 3 2 3", "1 3"]

    /// The dash of each of `names` (its base's occurrence so far), in order, from `patterns`.
    package static func dash(_ names: [String], _ patterns: [String] = groupingDashes) -> [String] {
        var seen: [String: Int] = [:]
        return names.map { name in
            let k = seen[base(name), default: 0]
            seen[base(name)] = k + 1
            return patterns[k % patterns.count]
        }
    }

    static func base(_ name: String) -> String { String(name.prefix { $0 != "(" }) }

    static func colour(_ base: String, in names: [String], _ palette: [String]) -> String {
        palette[(names.firstIndex(of: base) ?? names.count) % palette.count]
    }

    /// The pairs of a histogram: all and related in black, unrelated in grey.
    package static func of(_ pairs: PairClass) -> String { pairs == .unrelated ? "#8C8C8C" : "#000000" }
}
