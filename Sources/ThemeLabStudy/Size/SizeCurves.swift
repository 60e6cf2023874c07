import Foundation
import ThemeLabCore
import ThemeLabMeasures
import ThemeLabMethods

/// A method's ARI over the ceiling's at one size of one corpus: mean ARI / mean ceiling over the draws (a method without
/// groups counts 0), with the 95% percentile bootstrap interval of that ratio over the draws (as regret's relative
/// interval is computed); one draw has no interval. Nil where the mean ceiling is below `RegretTable.meaningfulCeiling`.
package struct SizeRatio: Sendable, Equatable {
    package var value: Double
    package var low: Double
    package var high: Double
    package var draws: Int

    /// The figure with its interval, or alone for one draw: "0.93 [0.88, 0.97]".
    package var text: String { draws > 1 ? "\(formatShort(value)) [\(formatShort(low)), \(formatShort(high))]" : formatShort(value) }
}

/// Which figure of a ratio a comparison reads: the point, or a bound of its interval.
package enum SizeBound: Sendable, CaseIterable {
    case point, low, high

    package func of(_ r: SizeRatio) -> Double {
        switch self {
        case .point: r.value
        case .low: r.low
        case .high: r.high
        }
    }
}

extension SizeResults {
    /// The target: within 10% of the ceiling (`RecommendationFile.target`).
    package static let target = 1 - RecommendationFile.target

    /// The curves of one role.
    package func curves(_ role: SizeCurve.Role) -> [SizeCurve] { curves.filter { $0.role == role } }

    /// The methods run on the corpora of `role` (the candidates on the tuning corpora only).
    package func methods(_ role: SizeCurve.Role) -> [Int] {
        methods.indices.filter { m in curves(role).contains { $0.points.contains { !$0.ari[m].isEmpty } } }
    }

    /// Method `m`'s ratio at `point`, one of `curves`' (computed once, when the results were made or read).
    package func ratio(_ m: Int, at point: SizePoint) -> SizeRatio? { point.ratios[m] }

    /// Mean `aris` (nil counts 0) over mean `ceiling`, with its interval over the draws.
    package func ratio(_ aris: [Double?], ceiling: [Double]) -> SizeRatio? {
        guard aris.count == ceiling.count else { return nil }  // not run on this corpus
        let top = ceiling.reduce(0, +)
        guard top / Double(ceiling.count) >= RegretTable.meaningfulCeiling else { return nil }
        let a = aris.map { $0 ?? 0 }
        let value = a.reduce(0, +) / top
        guard ceiling.count > 1 else { return SizeRatio(value: value, low: value, high: value, draws: 1) }
        let bootstrap = bootstraps[ceiling.count] ?? PercentileBootstrap(count: ceiling.count, seed: seed)
        let (low, high) = bootstrap.interval { idx in
            let c = idx.reduce(0) { $0 + ceiling[Int($1)] }
            return c > 0 ? idx.reduce(0) { $0 + a[Int($1)] } / c : 0
        }
        return SizeRatio(value: value, low: low, high: high, draws: ceiling.count)
    }

    /// The grid's sizes that some curve of `role` was measured at below its own size, ascending.
    package func gridSizes(_ role: SizeCurve.Role) -> [Int] {
        Set(curves(role).flatMap { c in c.points.map(\.items).filter { $0 < c.items } }).sorted()
    }

    /// The smallest grid size N from which `m` is within the target on every corpus of `role` at every size of N or more
    /// (the corpora that have that many entries), reading `bound` of each ratio; nil when no size of the grid is.
    package func smallestSize(_ m: Int, role: SizeCurve.Role, bound: SizeBound = .point) -> Int? {
        var failing = 0
        for c in curves(role) {
            for p in c.points where (ratio(m, at: p).map { bound.of($0) < Self.target } ?? false) { failing = max(failing, p.items) }
        }
        return gridSizes(role).first { $0 > failing }
    }

    /// The worst ratio over the points of `role` that `include` keeps, reading method `pick(point's size)` at each: the
    /// lowest ratio with its corpus and size, and the lowest lower and upper bounds over those points (a bound on the worst
    /// case, as `RegretTable.worst` gives one).
    package func worstOver(
        role: SizeCurve.Role, where include: (SizeCurve, SizePoint) -> Bool, method pick: (Int) -> Int
    ) -> SizeWorst? {
        let found = curves(role).flatMap { c in
            c.points.filter { include(c, $0) }.compactMap { p in ratio(pick(p.items), at: p).map { ($0, c.corpus, p.items) } }
        }
        guard let lowest = found.min(by: { $0.0.value < $1.0.value }) else { return nil }
        return SizeWorst(
            ratio: lowest.0, corpus: lowest.1, items: lowest.2, low: found.map(\.0.low).min()!, high: found.map(\.0.high).min()!)
    }

    /// `worstOver` for one method.
    package func worstOver(_ m: Int, role: SizeCurve.Role, where include: (SizeCurve, SizePoint) -> Bool) -> SizeWorst? {
        worstOver(role: role, where: include) { _ in m }
    }

    /// Whether a point is at grid size `n` (below its corpus's own size), or at its corpus's own size (nil).
    package static func at(_ n: Int?) -> (SizeCurve, SizePoint) -> Bool {
        { c, p in n.map { p.items == $0 && p.items < c.items } ?? (p.items == c.items) }
    }
}

/// The worst of a method's ratios over several points: the lowest, where it is, and the bounds of the worst case.
package struct SizeWorst: Sendable {
    package var ratio: SizeRatio
    package var corpus: String
    package var items: Int
    package var low: Double
    package var high: Double
}
