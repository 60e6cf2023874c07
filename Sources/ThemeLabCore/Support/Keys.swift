/// The name of a registered thing as a value: a threshold rule's (`RuleKey`: `otsu`, `fixed(0.55)`) or a grouping's
/// (`GroupingKey`: `leader`, `leiden(15,2)`). Rows, tables and comparisons are keyed and joined by it, and a rule's
/// key cannot be compared with a grouping's; JSON and CSV write it as its text, so strings exist only there.
package struct Key<Kind: KeyKind>: Hashable, Comparable, Codable, Sendable, CustomStringConvertible, ExpressibleByStringLiteral {
    /// The canonical name, as the registry writes it.
    package let name: String

    package init(_ name: String) { self.name = name }

    /// A name written in code (`"components"`) is a key of the kind its context asks for.
    package init(stringLiteral name: String) { self.name = name }

    package var description: String { name }

    package static func < (a: Self, b: Self) -> Bool { a.name < b.name }

    package init(from decoder: any Decoder) throws { name = try decoder.singleValueContainer().decode(String.self) }

    package func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(name)
    }
}

/// What a `Key` names.
package protocol KeyKind: Sendable {}

/// Threshold rules.
package enum RuleKeyKind: KeyKind {}

/// Groupings.
package enum GroupingKeyKind: KeyKind {}

package typealias RuleKey = Key<RuleKeyKind>
package typealias GroupingKey = Key<GroupingKeyKind>
