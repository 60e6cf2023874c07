import Foundation
import ThemeLabCore

/// The number of clusters read off the normalised Laplacian's eigenspectrum of a cosine-similarity graph, with adaptive
/// sampling above a size (Neveditsin, Lingras & Mago 2025, "Scalable Parameter-Light Spectral Method for Clustering Short
/// Text Embeddings with a Cohesion-Based Evaluation Metric", arXiv 2511.19350). The paper's body could not be read; this
/// follows its abstract and an unofficial re-implementation (FabienCadoret/autokluster, MIT, commits c1b52af and 429efd6),
/// and every point either leaves open is a stored property here (docs/choosing-the-level.md lists them):
///
/// 1. Graph: W_ij = max(0, cos(xᵢ, xⱼ)), with self-loops W_ii = 1 when `selfLoops`; L = I − D^−½ W D^−½
///    (`cosineGraphLaplacian`).
/// 2. Spectrum: λ₁ ≤ … ≤ λ_m, the m = min(50, n − 1) smallest (`laplacianEigenvalues`, LAPACKE `dsyevd`).
/// 3. Gaps: for k = 1 … m − 1, δ_k = |λ_{k+1} − λ_k| / (mean of the up-to-w eigenvalues ending at λ_k + ε), w = `window`,
///    ε = 1e-10 (a relative gap); with w = 0, δ_k = λ_{k+1} − λ_k (von Luxburg 2007's plain eigengap).
/// 4. Rule over k = 2 … min(50, m − 1): T = mean(δ) + std(δ) (population std), over the search range's gaps when
///    `noiseEigenvalues` is 0, and the largest k with δ_k > T wins (c1b52af); over the gaps of the q largest
///    eigenvalues when it is q ≥ 2, and the k of largest δ_k above T wins (429efd6). No k clears T: k = `fallback`
///    (bounded to the range), reported as such. With w = 0 there is no threshold: the largest gap wins (the fewest groups
///    among equals).
/// 5. Sampling: above `sampleSize` items, R = ⌈`replicateFactor`·log₂ n⌉ seeded samples of `sampleSize` items, each
///    estimated as above, combined by the mean rounded half to even (or the median, `combination`).
package struct SpectralKEstimator: Sendable, Hashable {
    package enum Combination: Int, Sendable, Hashable {
        case mean = 0
        case median = 1
    }

    package var window = 3
    package var selfLoops = true
    package var noiseEigenvalues = 0
    package var fallback = 5
    package var sampleSize = 1_000
    package var replicateFactor = 10.0
    package var combination = Combination.mean

    package static let smallestK = 2
    package static let largestK = 50
    package static let epsilon = 1e-10

    package init() {}

    /// What the estimator found on one set of rows: k, whether a gap cleared the threshold (on every sample, when
    /// sampled), the samples it read (0: the rows themselves) and the spectrum (every eigenvalue of the rows', not sampled).
    package struct Estimate: Sendable, Equatable {
        package var k: Int
        package var cleared: Bool
        package var samples: Int
        package var eigenvalues: [Double]
    }

    /// The estimate on the unit rows of `x`, nil below 3 rows (no k ≥ 2 leaves a pair to compare).
    package func estimate(_ x: Matrix, seed: UInt64) throws -> Estimate? {
        x.rows < 3 ? nil : estimate(spectra: try spectra(x, seed: seed))
    }

    /// The spectra the estimate reads: every eigenvalue, ascending, of the Laplacian of the rows themselves, or above
    /// `sampleSize` rows of each of R = ⌈r·log₂ n⌉ samples of `sampleSize` rows, each drawn with the next number of one
    /// generator seeded by `seed` (two samples at a time). Readings that differ only in how they read the spectra (w, q, the
    /// fallback, the combination) share them.
    package func spectra(_ x: Matrix, seed: UInt64) throws -> [[Double]] {
        let n = x.rows
        guard n > sampleSize else { return [try laplacianEigenvalues(x, selfLoops: selfLoops)] }
        let r = Int((replicateFactor * log2(Double(n))).rounded(.up))
        var rng = SeededRandom(seed: seed)
        let seeds = (0..<r).map { _ in rng.next() }
        return try parallelMap(r) { s in
            Result { try laplacianEigenvalues(x.rows(SeededRandom.sample(sampleSize, of: n, seed: seeds[s])), selfLoops: selfLoops) }
        }.map { try $0.get() }
    }

    /// The estimate from `spectra` (`spectra(_:seed:)`): one spectrum is the rows' own, several are samples' and their
    /// estimates are combined.
    package func estimate(spectra: [[Double]]) -> Estimate {
        let each = spectra.map(choose(spectrum:))
        guard spectra.count > 1 else { return Estimate(k: each[0].k, cleared: each[0].cleared, samples: 0, eigenvalues: spectra[0]) }
        return Estimate(k: combined(each.map(\.k)), cleared: each.allSatisfy(\.cleared), samples: spectra.count, eigenvalues: [])
    }

    /// The k estimates of the samples as one: their mean or median, rounded half to even (numpy's `round`).
    package func combined(_ ks: [Int]) -> Int {
        let values = ks.map(Double.init)
        let centre = combination == .mean ? values.reduce(0, +) / Double(values.count) : median(values)
        return Int(centre.rounded(.toNearestOrEven))
    }

    /// k from one spectrum (every eigenvalue, ascending): its m = min(50, n − 1) smallest, and its q largest.
    package func choose(spectrum all: [Double]) -> (k: Int, cleared: Bool) {
        let noise = noiseEigenvalues >= 2 ? Array(all.suffix(min(noiseEigenvalues, all.count))) : []
        return choose(Array(all.prefix(min(Self.largestK, all.count - 1))), noise: noise)
    }

    /// k from ascending eigenvalues (and, with `noiseEigenvalues`, the largest ones), and whether a gap cleared T.
    package func choose(_ eigenvalues: [Double], noise: [Double] = []) -> (k: Int, cleared: Bool) {
        let top = min(Self.largestK, eigenvalues.count - 1)
        guard Self.smallestK < top else { return (Self.smallestK, true) }
        let range = Self.smallestK...top
        let all = gaps(eigenvalues)
        let searched = range.map { all[$0 - 1] }
        guard window > 0 else {
            let best = searched.indices.max { (searched[$0], -$0) < (searched[$1], -$1) }!
            return (range.lowerBound + best, true)
        }
        let threshold = Self.threshold(noise.count >= 2 ? gaps(noise) : searched)
        let above = searched.indices.filter { searched[$0] > threshold }
        let pick = noise.count >= 2 ? above.max { (searched[$0], -$0) < (searched[$1], -$1) } : above.last
        guard let pick else { return (max(Self.smallestK, min(fallback, top)), false) }
        return (range.lowerBound + pick, true)
    }

    /// δ_k for k = 1 … count − 1 (index k − 1): the gap after λ_k, over the mean of the up-to-`window` eigenvalues ending at
    /// λ_k (plus ε); the raw gap when `window` is 0.
    package func gaps(_ eigenvalues: [Double]) -> [Double] {
        (1..<max(1, eigenvalues.count)).map { k in
            let gap = abs(eigenvalues[k] - eigenvalues[k - 1])
            guard window > 0 else { return eigenvalues[k] - eigenvalues[k - 1] }
            let held = eigenvalues[max(0, k - window)..<k]
            return gap / (held.reduce(0, +) / Double(held.count) + Self.epsilon)
        }
    }

    /// T = E[δ]·(1 + σ[δ]/(E[δ] + ε)), σ the population standard deviation: the mean plus one standard deviation.
    package static func threshold(_ gaps: [Double]) -> Double {
        guard !gaps.isEmpty else { return 0 }
        let mean = gaps.reduce(0, +) / Double(gaps.count)
        let sd = (gaps.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(gaps.count)).squareRoot()
        return mean * (1 + sd / (mean + epsilon))
    }
}
