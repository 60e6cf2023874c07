import Foundation
import ThemeLabCore
import ThemeLabMeasures
import ThemeLabPairs

/// A neighbourhood that grows with the corpus: k = round(c·√N), at least 2 and at most N − 1, so a method reading
/// it answers on any corpus of 3 or more items. √N is the classic choice for k-nearest-neighbour methods (Loftsgaarden
/// & Quesenberry 1965; Duda, Hart & Stork 2001, §4.4): k → ∞ and k/N → 0 as N grows. A topic a person returns to
/// gains entries as the journal grows, so a fixed k is too large for a small journal (k ≥ N: no answer) and too small
/// for a large one (a topic splits into pieces of k).
package struct NeighbourhoodSize: Sendable, Equatable {
    /// c in k = round(c·√N).
    package var scale: Double

    /// Smallest and largest c accepted: below, k is 2 on any corpus up to millions of items; above, k is N − 1 on any.
    package static let scales = 0.01...100.0

    package init(scale: Double) {
        precondition(Self.scales.contains(scale), "neighbourhood scale \(scale) outside \(Self.scales)")
        self.scale = scale
    }

    /// k on a corpus of `items` items, or nil below 3 items (a neighbour graph of 2 items has one edge and nothing to choose).
    package func neighbours(items: Int) -> Int? {
        guard items >= 3 else { return nil }
        let k = (scale * Double(items).squareRoot()).rounded()
        return Int(min(Double(items - 1), max(2, k)))
    }

    /// The note a method gives on a corpus too small for any neighbourhood.
    package func tooFewItems(_ name: String, items: Int) -> String? {
        items >= 3 ? nil : "\(name): a neighbourhood needs at least 3 items; this corpus has \(items)"
    }
}

/// The arguments of a grouping on the neighbour graph at k = round(c·√N), written `NAME(c)` or `NAME(c,γ)`: the
/// neighbourhood's scale c and a resolution γ, left out of the name when it is the grouping's default.
package struct ScaledNeighbourGraph: Sendable, Equatable {
    package var neighbourhood: NeighbourhoodSize
    package var resolution: Double
    package let defaultResolution: Double

    package init(scale: Double, resolution: Double?, defaultResolution: Double) {
        neighbourhood = NeighbourhoodSize(scale: scale)
        self.resolution = resolution ?? defaultResolution
        self.defaultResolution = defaultResolution
    }

    /// c within `NeighbourhoodSize.scales`, 0 < γ ≤ 1000: the parameters of the groupings built on it.
    package static let parameters = [
        Parameter("the scale c", .interval(NeighbourhoodSize.scales), required: "the scale c of k = c·√N"),
        Parameter("the resolution γ", .above(0, atMost: 1000)),
    ]

    /// From arguments `parameters` have checked.
    package init(_ parsed: RuleName, defaultResolution: Double) {
        self.init(scale: parsed.value(at: 0)!, resolution: parsed.value(at: 1), defaultResolution: defaultResolution)
    }

    /// `base(c)`, or `base(c,γ)` when γ is not the default.
    package func name(_ base: String) -> String {
        "\(base)(\(formatArgument(neighbourhood.scale))\(resolution == defaultResolution ? "" : "," + formatArgument(resolution)))"
    }

    /// The neighbour lists and the graph at the corpus's k; nothing below 3 items.
    package func needs(items: Int) -> PassNeeds {
        neighbourhood.neighbours(items: items).map { PassNeeds(neighbours: $0, neighbourGraphs: [$0]) } ?? PassNeeds()
    }
}
