import COpenBLAS
import Foundation
import ThemeLabCore

/// The Cohesion Ratio (Neveditsin, Lingras & Mago 2025, arXiv 2511.19350): how far the similarity within groups exceeds the
/// background similarity of all pairs,
///   ρ_C = μ_I / (μ_G + ε),  μ_G = Σ_{i<j} S_ij / C(n, 2),  μ_I = (Σ_g Σ_{i<j ∈ g} S_ij + N₁·μ_G) / (Σ_g C(|g|, 2) + N₁ + ε),
/// pairs pooled over groups (a large group weighs more), N₁ the groups of one item, each counted as one pair at the
/// background μ_G, ε = 1e-10. 1 is no more cohesive than the background (one group for everything gives exactly 1); higher
/// is more cohesive. The paper's body could not be read: the formula is that of an unofficial re-implementation
/// (FabienCadoret/autokluster, commit 76b9e8c), and two points are stored properties: S is the positive part of the cosine,
/// max(0, xᵢ·xⱼ) (`clipped`, as that implementation's graph) or the cosine itself; a singleton adds its virtual pair
/// (`singletonPair`) or is left out. A noise label (−1) is one group, as there. Undefined (nil) when μ_G ≤ 0 (centred
/// cosines average about −1/(n − 1): use the positive part there) or when no pair is counted.
package struct CohesionRatio: Sendable, Hashable {
    package var clipped = true
    package var singletonPair = true

    package static let epsilon = 1e-10

    package init(clipped: Bool = true, singletonPair: Bool = true) {
        (self.clipped, self.singletonPair) = (clipped, singletonPair)
    }

    /// ρ_C of each of `partitions` (one label per row of `x`), from one sweep over the pairs in row blocks (one sgemm per
    /// block): O(N²·d) for the products and O(N²·P) for the sums, no N × N matrix held.
    package func ratios(_ x: Matrix, partitions: [[Int32]]) -> [Double?] {
        let n = x.rows
        guard n >= 2 else { return partitions.map { _ in nil } }
        let (total, within) = pairSums(x, partitions: partitions)
        let background = total / (Double(n) * Double(n - 1) / 2)
        guard background > 0 else { return partitions.map { _ in nil } }
        return zip(partitions, within).map { labels, inside in
            var counts: [Int32: Double] = [:]
            for l in labels { counts[l, default: 0] += 1 }
            let singletons = Double(counts.values.filter { $0 == 1 }.count)
            let pairs = counts.values.reduce(0) { $0 + $1 * ($1 - 1) / 2 } + (singletonPair ? singletons : 0)
            guard pairs > 0 else { return nil }
            let intra = (inside + (singletonPair ? singletons * background : 0)) / (pairs + Self.epsilon)
            return intra / (background + Self.epsilon)
        }
    }

    /// Σ_{i<j} S_ij over all pairs, and over the pairs within a group of each partition.
    func pairSums(_ x: Matrix, partitions: [[Int32]]) -> (total: Double, within: [Double]) {
        let (n, d) = (x.rows, x.cols)
        let block = 256
        var tile = [Float](repeating: 0, count: min(block, n) * n)
        var total = 0.0
        var within = [Double](repeating: 0, count: partitions.count)
        x.storage.withUnsafeBufferPointer { buffer in
            let p = buffer.baseAddress!
            for start in stride(from: 0, to: n, by: block) {
                let rows = min(block, n - start)
                let cols = n - start
                cblas_sgemm(
                    CblasRowMajor, CblasNoTrans, CblasTrans, Int32(rows), Int32(cols), Int32(d), 1, p + start * d, Int32(d), p + start * d,
                    Int32(d), 0, &tile, Int32(cols))
                if clipped { for k in 0..<(rows * cols) { tile[k] = max(0, tile[k]) } }
                for r in 0..<rows {
                    let row = tile[(r * cols + r + 1)..<((r + 1) * cols)]
                    total += row.reduce(0.0) { $0 + Double($1) }
                    for (k, labels) in partitions.enumerated() {
                        let own = labels[start + r]
                        var sum = 0.0
                        for (c, s) in zip(labels[(start + r + 1)...], row) where c == own { sum += Double(s) }
                        within[k] += sum
                    }
                }
            }
        }
        return (total, within)
    }
}
