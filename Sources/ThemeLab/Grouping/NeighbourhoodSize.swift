import Foundation

/// A neighbourhood that grows with the corpus: k = round(c·√N), at least 2 and at most N − 1, so a method reading
/// it answers on any corpus of 3 or more items. √N is the classic choice for k-nearest-neighbour methods (Loftsgaarden
/// & Quesenberry 1965; Duda, Hart & Stork 2001, §4.4): k → ∞ and k/N → 0 as N grows. A topic a person returns to
/// gains entries as the journal grows, so a fixed k is too large for a small journal (k ≥ N: no answer) and too small
/// for a large one (a topic splits into pieces of k).
struct NeighbourhoodSize: Sendable, Equatable {
    /// c in k = round(c·√N).
    var scale: Double

    /// Smallest and largest c accepted: below, k is 2 on any corpus up to millions of items; above, k is N − 1 on any.
    static let scales = 0.01...100.0

    init(scale: Double) {
        precondition(Self.scales.contains(scale), "neighbourhood scale \(scale) outside \(Self.scales)")
        self.scale = scale
    }

    /// The scale argument of the grouping written `text`, checked.
    static func parsed(_ scale: Double?, in text: String) throws -> NeighbourhoodSize {
        guard let scale else { throw ThemeLabError.usage("\(text): give the scale c of k = c·√N") }
        guard scales.contains(scale) else {
            throw ThemeLabError.usage(
                "\(text): the scale c must be from \(formatArgument(scales.lowerBound)) to \(formatArgument(scales.upperBound))")
        }
        return NeighbourhoodSize(scale: scale)
    }

    /// The resolution argument of the grouping written `text` (`index`), checked; `fallback` when not given.
    static func resolution(_ parsed: RuleName, at index: Int, fallback: Double) throws -> Double {
        let gamma = index < parsed.arguments.count ? parsed.arguments[index] : fallback
        guard gamma > 0, gamma <= 1000 else {
            throw ThemeLabError.usage("\(parsed.text): the resolution γ must be above 0 and at most 1000")
        }
        return gamma
    }

    /// k on a corpus of `items` items, or nil below 3 items (a neighbour graph of 2 items has one edge and nothing to choose).
    func neighbours(items: Int) -> Int? {
        guard items >= 3 else { return nil }
        let k = (scale * Double(items).squareRoot()).rounded()
        return Int(min(Double(items - 1), max(2, k)))
    }

    /// The note a method gives on a corpus too small for any neighbourhood.
    func tooFewItems(_ name: String, items: Int) -> String? {
        items >= 3 ? nil : "\(name): a neighbourhood needs at least 3 items; this corpus has \(items)"
    }
}
