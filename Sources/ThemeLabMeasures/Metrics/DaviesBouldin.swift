import COpenBLAS
import ThemeLabCore

/// The Davies–Bouldin index (Davies & Bouldin 1979), Euclidean on the rows as given, as
/// `sklearn.metrics.davies_bouldin_score`:
///   DB = (1/G) Σ_g max_{h≠g} (s_g + s_h) / ‖c_g − c_h‖,  s_g = the mean distance of group g's items to its centroid c_g
/// (a pair of coinciding centroids counts 0; DB = 0 when every s_g or every centroid distance is within 1e-8 of 0, as
/// scikit-learn's `np.allclose`). Lower is better.
/// Centroid distances from one Gram product (dgemm), ‖c_g‖² + ‖c_h‖² − 2·c_g·c_h, in row blocks. nil unless 2 ≤ G ≤ N − 1.
package func daviesBouldin(_ x: Matrix, groups: [Int32]) -> Double? {
    guard let g = criterionGroupCount(x, groups: groups) else { return nil }
    let c = GroupCentroids(x, groups: groups, count: g)
    let d = x.cols
    var spread = [Double](repeating: 0, count: g)
    for i in 0..<x.rows { spread[Int(groups[i])] += c.squaredDistance(x, i, toCentroidOf: Int(groups[i])).squareRoot() }
    for k in 0..<g { spread[k] /= c.sizes[k] }
    let norms = (0..<g).map { k in (0..<d).reduce(0.0) { $0 + c.centroids[k * d + $1] * c.centroids[k * d + $1] } }
    let block = 256
    var gram = [Double](repeating: 0, count: Swift.min(block, g) * g)
    var total = 0.0
    var anyApart = false
    for start in stride(from: 0, to: g, by: block) {
        let rows = Swift.min(block, g - start)
        c.centroids.withUnsafeBufferPointer { p in
            cblas_dgemm(
                CblasRowMajor, CblasNoTrans, CblasTrans, Int32(rows), Int32(g), Int32(d), 1, p.baseAddress! + start * d, Int32(d),
                p.baseAddress!, Int32(d), 0, &gram, Int32(g))
        }
        for r in 0..<rows {
            let k = start + r
            var worst = 0.0
            for h in 0..<g where h != k {
                let distance = Swift.max(0, norms[k] + norms[h] - 2 * gram[r * g + h]).squareRoot()
                guard distance > 0 else { continue }
                anyApart = anyApart || distance > 1e-8
                worst = Swift.max(worst, (spread[k] + spread[h]) / distance)
            }
            total += worst
        }
    }
    return spread.allSatisfy({ $0 <= 1e-8 }) || !anyApart ? 0 : total / Double(g)
}
