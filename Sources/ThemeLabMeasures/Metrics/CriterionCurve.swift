import Foundation
import ThemeLabCore
import ThemeLabPairs

/// The cuts of an average-linkage dendrogram that label-free criteria choose among: 32 group counts spaced
/// geometrically from 2 to N/2 (every count for small N), each with the similarity of the weakest merge it keeps,
/// and a criterion's score of each (cuts whose score is undefined are left out).
package struct CriterionCurve: Sendable {
    package struct Cut: Sendable, Equatable {
        package var groups: Int
        package var threshold: Double
        package var score: Double
    }
    /// In increasing group count, none with an undefined (nil or NaN) score.
    package let cuts: [Cut]

    /// The candidate group counts for `items` items (none below 3 items).
    package static func counts(items n: Int, merges: Int) -> [Int] {
        guard n >= 3 else { return [] }
        let most = Swift.max(2, n / 2)
        let counts = Set((0..<32).map { Int((2 * pow(Double(most) / 2, Double($0) / 31)).rounded()) }).sorted()
        return counts.filter { $0 <= n - 1 && $0 <= merges }
    }

    /// Each candidate cut of `tree` scored by `scores` (one score per count, in order, nil where undefined).
    package init(tree: Dendrogram, items n: Int, scores: ([Int]) throws -> [Double?]) rethrows {
        let merges = tree.merges.map(\.similarity).sorted(by: >)
        let counts = Self.counts(items: n, merges: merges.count)
        cuts = zip(counts, try scores(counts)).compactMap { k, score in
            score.flatMap { $0.isNaN ? nil : Cut(groups: k, threshold: Double(merges[n - k - 1]), score: $0) }
        }
    }

    /// The mean cosine silhouette of each candidate cut (what the `silhouette` rule reads).
    package static func silhouettes(vectors x: Matrix, dendrogram tree: Dendrogram) -> CriterionCurve {
        CriterionCurve(tree: tree, items: x.rows) { counts in counts.map { silhouette(x, groups: tree.cut(groups: $0)) } }
    }

    /// The cut of the highest score, or of the lowest when lower is better; the fewest groups among equals.
    package func best(higherIsBetter: Bool) -> Cut? { bestOf(cuts, higherIsBetter: higherIsBetter, score: \.score, groups: \.groups) }
}

/// The one of `candidates` with the highest score, or the lowest when lower is better, leaving out those whose score is
/// undefined (nil or NaN); among equal scores the one with the fewest groups, then the first. Nil when none has a score.
package func bestOf<T>(_ candidates: [T], higherIsBetter: Bool, score: (T) -> Double?, groups: (T) -> Int) -> T? {
    let scored = candidates.compactMap { c in score(c).flatMap { $0.isNaN ? nil : (c, higherIsBetter ? -$0 : $0, groups(c)) } }
    return scored.min { ($0.1, $0.2) < ($1.1, $1.2) }?.0
}
