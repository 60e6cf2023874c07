import COpenBLAS

/// Eigendecomposition of the d×d covariance of a set of vectors, Σ = (x − x̄)ᵀ(x − x̄)/N:
/// the Gram by `cblas_ssyrk`, the eigenpairs by LAPACKE `ssyevd` (ascending eigenvalues).
package struct PrincipalAxes {
    package let dimensions: Int
    /// Ascending.
    package let eigenvalues: [Float]
    /// Row-major d×d; column j is the eigenvector of eigenvalues[j].
    package let vectors: [Float]

    package init(_ x: Matrix) throws {
        let d = x.cols
        let centred = subtracting(columnMean(x), from: x)
        var covariance = [Float](repeating: 0, count: d * d)
        centred.withUnsafePointer { p in
            cblas_ssyrk(
                CblasRowMajor, CblasUpper, CblasTrans, Int32(d), Int32(x.rows), 1 / Float(x.rows), p, Int32(d), 0, &covariance, Int32(d))
        }
        var w = [Float](repeating: 0, count: d)
        let info = LAPACKE_ssyevd(LAPACK_ROW_MAJOR, Int8(UInt8(ascii: "V")), Int8(UInt8(ascii: "U")), Int32(d), &covariance, Int32(d), &w)
        guard info == 0 else {
            throw ThemeLabError.input("eigendecomposition of the \(d)×\(d) covariance failed (LAPACKE_ssyevd info \(info))")
        }
        dimensions = d
        eigenvalues = w
        vectors = covariance
    }

    /// The eigenvector of the j-th eigenvalue (ascending order).
    package func axis(_ j: Int) -> [Float] { (0..<dimensions).map { vectors[$0 * dimensions + j] } }

    /// The top `count` principal directions, largest variance first.
    package func axes(top count: Int) -> [[Float]] {
        (0..<count).map { axis(dimensions - 1 - $0) }
    }

    /// x·U_k·diag(1/√λ_k) over the top k components: an N×k matrix.
    package func whitened(_ x: Matrix, components k: Int) -> Matrix {
        let d = dimensions
        var transform = [Float](repeating: 0, count: d * k)
        for c in 0..<k {
            let j = d - 1 - c
            let scale = 1 / eigenvalues[j].squareRoot()
            for r in 0..<d { transform[r * k + c] = vectors[r * d + j] * scale }
        }
        var y = Matrix(rows: x.rows, cols: k)
        x.withUnsafePointer { p in
            y.withUnsafeMutablePointer { out in
                cblas_sgemm(
                    CblasRowMajor, CblasNoTrans, CblasNoTrans, Int32(x.rows), Int32(k), Int32(d), 1, p, Int32(d), transform, Int32(k), 0,
                    out, Int32(k))
            }
        }
        return y
    }
}
