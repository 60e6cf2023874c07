import ThemeLabCore
import ThemeLabMeasures
import ThemeLabPairs

/// The eigengap heuristic (von Luxburg 2007, §8.3): with λ₁ ≤ λ₂ ≤ … the eigenvalues of the normalised Laplacian of
/// the positive-cosine graph (`normalisedLaplacianEigenvalues`), k groups score the gap λ_{k+1} − λ_k, largest best.
/// Exact up to `sampleLimit` items; above it, on a seeded sample of that many (stated in `summary`), where counts
/// of `sampleLimit` or more are undefined.
package struct EigengapCriterion: CutCriterion {
    package static let sampleLimit = 1_000

    package var name: String { "eigengap" }
    package var summary: String {
        "average linkage's cut at the count of the largest eigengap of the positive-cosine graph's normalised Laplacian "
            + "(a seeded sample of \(Self.sampleLimit) items above that size)"
    }
    package var higherIsBetter: Bool { true }
    package var isSeeded: Bool { true }

    package func scores(_ counts: [Int], tree: Dendrogram, vectors x: Matrix, seed: UInt64) throws -> [Double?] {
        let kept = x.rows <= Self.sampleLimit ? x : x.rows(SeededRandom.sample(Self.sampleLimit, of: x.rows, seed: seed))
        let eigenvalues = try normalisedLaplacianEigenvalues(kept)
        return counts.map { k in k < eigenvalues.count ? eigenvalues[k] - eigenvalues[k - 1] : nil }
    }

    package static let entry = CriterionCut.entry(EigengapCriterion())
}
