import Foundation
import ThemeLabCore
import ThemeLabMeasures

/// A choice of method from the number of entries alone: one method per band of sizes [Nᵢ, Nᵢ₊₁) of the grid (the first
/// from 0, the last without end), each chosen on the tuning corpora by the study's procedure: within the band, the
/// method whose worst-case relative regret (1 − ratio to the ceiling) over the corpora and sizes there has the smallest
/// upper bound (ties: the smaller worst case at the draws' means). Then set beside a fixed method on the study corpora.
package struct SizeRule: Sendable {
    /// The lower end of each band, ascending (the first 0), and the index of its method in `SizeResults.methods`.
    package var bands: [(from: Int, method: Int)]

    /// The method at `n` entries.
    package func method(at n: Int) -> Int { bands.last { $0.from <= n }!.method }

    /// Chosen on the curves of `role` among the methods run on the study corpora too: the bands are the grid's sizes; a
    /// band without a scored point keeps the choice of the band before it (the first: the first method).
    package init(choosingOn results: SizeResults, role: SizeCurve.Role = .tuning) {
        let grid = results.gridSizes(role)
        var bands: [(from: Int, method: Int)] = []
        for (i, from) in grid.enumerated() {
            let upTo = i + 1 < grid.count ? grid[i + 1] : Int.max
            let scored = results.methods(.study).compactMap { m in
                results.worstOver(m, role: role) { _, p in (from..<upTo).contains(p.items) }.map { (m: m, worst: $0) }
            }
            let best = scored.max { ($0.worst.low, $0.worst.ratio.value) < ($1.worst.low, $1.worst.ratio.value) }
            bands.append((i == 0 ? 0 : from, best?.m ?? bands.last?.method ?? 0))
        }
        self.bands = bands.isEmpty ? [(0, 0)] : bands
    }

    /// The bands with equal neighbours merged, for reading.
    package var merged: [(from: Int, method: Int)] {
        bands.reduce(into: []) { out, band in if out.last?.method != band.method { out.append(band) } }
    }
}
