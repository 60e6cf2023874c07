import COpenBLAS
import ThemeLabCore

/// The normalised Laplacian L = I − D^−½ W D^−½ (row-major, n × n, the upper triangle filled) of the graph on the rows of
/// `x` whose weights are the positive cosines between distinct rows, W_ij = max(0, xᵢ·xⱼ) (rows unit length), and
/// D = diag(Σⱼ W_ij) (von Luxburg 2007, "A tutorial on spectral clustering", §3.2; an isolated row's diagonal is 0, as in
/// `scipy.sparse.csgraph.laplacian(normed=True)`). With `selfLoops` each row also joins itself with weight W_ii = 1, so
/// its degree counts it and L_ii = 1 − 1/D_ii (the graph Neveditsin, Lingras & Mago's estimator reads, as
/// `SpectralKEstimator` reconstructs it). The Gram by `cblas_dsyrk`.
package func cosineGraphLaplacian(_ x: Matrix, selfLoops: Bool = false) -> [Double] {
    let (n, d) = (x.rows, x.cols)
    let rows = x.storage.map(Double.init)
    var w = [Double](repeating: 0, count: n * n)
    cblas_dsyrk(CblasRowMajor, CblasUpper, CblasNoTrans, Int32(n), Int32(d), 1, rows, Int32(d), 0, &w, Int32(n))
    for i in 0..<n {
        w[i * n + i] = selfLoops ? 1 : 0
        for j in (i + 1)..<n {
            w[i * n + j] = max(0, w[i * n + j])
            w[j * n + i] = w[i * n + j]
        }
    }
    let scale = (0..<n).map { i in
        let degree = (0..<n).reduce(0.0) { $0 + w[i * n + $1] }
        return degree > 0 ? 1 / degree.squareRoot() : 0
    }
    for i in 0..<n {
        for j in i..<n { w[i * n + j] *= -scale[i] * scale[j] }
        w[i * n + i] = selfLoops ? 1 - scale[i] * scale[i] : scale[i] > 0 ? 1 : 0
    }
    return w
}

/// The eigenvalues, ascending, of the normalised Laplacian of the positive-cosine graph on the rows of `x`
/// (`cosineGraphLaplacian`), all of them, by LAPACKE `dsyevd`.
package func normalisedLaplacianEigenvalues(_ x: Matrix) throws -> [Double] { try laplacianEigenvalues(x, selfLoops: false) }

/// Every eigenvalue, ascending, of the Laplacian of the positive-cosine graph on the rows of `x`, with or without
/// self-loops (`cosineGraphLaplacian`), by LAPACKE `dsyevd` (all of them cost no more than a subset: the reduction to
/// tridiagonal form dominates).
package func laplacianEigenvalues(_ x: Matrix, selfLoops: Bool) throws -> [Double] {
    var w = cosineGraphLaplacian(x, selfLoops: selfLoops)
    let n = x.rows
    var eigenvalues = [Double](repeating: 0, count: n)
    let info = LAPACKE_dsyevd(LAPACK_ROW_MAJOR, Int8(UInt8(ascii: "N")), Int8(UInt8(ascii: "U")), Int32(n), &w, Int32(n), &eigenvalues)
    guard info == 0 else { throw ThemeLabError.input("eigenvalues of the \(n)×\(n) Laplacian failed (LAPACKE_dsyevd info \(info))") }
    return eigenvalues
}
