import CKernels
import COpenBLAS
import ThemeLabCore
import ThemeLabCorpus
import ThemeLabEncoder
import ThemeLabMeasures
import ThemeLabMethods
import ThemeLabPairs

/// A journal's unit vectors in save order and their raw similarities r_ab = u_a·u_b (Float64),
/// from which the centred similarities of the first N saves are computed for any N without
/// touching the vectors again. With μ the mean of the first N unit vectors,
///
///     c_a·c_b = (r_ab − p_a − p_b + m) / (n_a·n_b),   p_a = u_a·μ = (Σ_{b<N} r_ab)/N,
///     m = μ·μ = (Σ_a p_a)/N,   n_a = ‖u_a − μ‖ = √(r_aa − 2p_a + m),
///
/// so a save adds one row of raw values (one BLAS `dgemv`) and its row sums, and a regroup costs
/// O(N²) instead of O(N²·d).
package final class JournalGram {
    package let saves: Int
    package let dimensions: Int
    /// Unit vectors in save order, row-major.
    package let vectors: [Double]
    /// Row a holds r_a0 … r_aa, from a(a+1)/2.
    package private(set) var raw: [Double]
    /// Saves added so far (N).
    package private(set) var count = 0
    /// Σ_{b<N} r_ab for every a < N.
    package private(set) var rowSums: [Double]

    /// `u`: unit rows in corpus order; `order`: the item saved at each step.
    package init(_ u: Matrix, order: [Int]) {
        saves = order.count
        dimensions = u.cols
        var v = [Double](repeating: 0, count: order.count * u.cols)
        for (a, i) in order.enumerated() { for k in 0..<u.cols { v[a * u.cols + k] = Double(u[i, k]) } }
        vectors = v
        raw = [Double](repeating: 0, count: saves * (saves + 1) / 2)
        rowSums = [Double](repeating: 0, count: saves)
    }

    /// Adds the next save: its row of raw similarities and the row sums over the first N + 1 saves.
    package func addSave() {
        let a = count
        let d = dimensions
        vectors.withUnsafeBufferPointer { v in
            raw.withUnsafeMutableBufferPointer { r in
                let row = r.baseAddress! + a * (a + 1) / 2
                cblas_dgemv(
                    CblasRowMajor, CblasNoTrans, Int32(a + 1), Int32(d), 1, v.baseAddress!, Int32(d), v.baseAddress! + a * d, 1, 0, row, 1)
                var own = 0.0
                for b in 0..<a {
                    rowSums[b] += row[b]
                    own += row[b]
                }
                rowSums[a] = own + row[a]
            }
        }
        count += 1
    }

    /// μ·μ for the first `count` saves.
    package var meanSquare: Double { rowSums[0..<count].reduce(0, +) / Double(count * count) }

    /// cos(μ_now, μ_then), μ_then the mean of the first `then` saves: μ_now·μ_then = (Σ_{b<then} rowSums_b)/(N·then).
    package func meanCosine(then: Int, meanSquareThen: Double) -> Double {
        let dot = rowSums[0..<then].reduce(0, +) / Double(count * then)
        return dot / (meanSquare * meanSquareThen).squareRoot()
    }

    /// The mean of the first `n` unit vectors, accumulated in save order.
    package func mean(of n: Int) -> [Double] {
        var mu = [Double](repeating: 0, count: dimensions)
        for a in 0..<n { for k in 0..<dimensions { mu[k] += vectors[a * dimensions + k] } }
        return mu.map { $0 / Double(n) }
    }

    /// The centred similarities of the first `count` saves into `s` (row a from a(a−1)/2, entries b < a), with their
    /// minimum and maximum (a zero extreme as +0), by the C kernel's `tl_centre_row` on `path` (every path the same bits).
    package func centredPairs(into s: UnsafeMutablePointer<Double>, path: KernelPath = .best) -> (min: Double, max: Double) {
        let n = count
        let m = meanSquare
        // c_a·c_b = (r_ab − h_a − h_b)·w_a·w_b with h_a = p_a − m/2 and w_a = 1/n_a.
        var h = [Double](repeating: 0, count: n)
        var w = [Double](repeating: 0, count: n)
        raw.withUnsafeBufferPointer { r in
            for a in 0..<n {
                let p = rowSums[a] / Double(n)
                h[a] = p - m / 2
                w[a] = 1 / max(r[a * (a + 1) / 2 + a] - 2 * p + m, .leastNormalMagnitude).squareRoot()
            }
        }
        var (lo, hi) = (Double.infinity, -Double.infinity)
        raw.withUnsafeBufferPointer { r in
            for a in 1..<max(n, 1) {
                tl_centre_row(path.code, r.baseAddress! + a * (a + 1) / 2, h, w, h[a], w[a], a, s + a * (a - 1) / 2, &lo, &hi)
            }
        }
        return (lo, hi)
    }
}
