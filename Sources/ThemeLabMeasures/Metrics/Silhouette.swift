import COpenBLAS
import Foundation
import ThemeLabCore
import ThemeLabPairs

/// Mean silhouette coefficient (Rousseeuw 1987) with cosine distance 1 − x·y on unit vectors,
/// as `sklearn.metrics.silhouette_score(X, labels, metric="cosine")`:
///   s(i) = (b − a) / max(a, b),  a = mean distance to the rest of i's group,
///   b = the smallest mean distance to another group;  s(i) = 0 for a singleton.
/// Mean distances come from group sums, x·Σ_g y / |g|, so the cost is one sgemm of N × d × G
/// (in row blocks) instead of N² distances. nil unless 2 ≤ groups ≤ N − 1, every label used
/// (`criterionGroupCount`; sklearn refuses the rest).
package func silhouette(_ x: Matrix, groups: [Int32]) -> Double? {
    let n = x.rows
    let d = x.cols
    guard let g = criterionGroupCount(x, groups: groups) else { return nil }
    var sums = [Float](repeating: 0, count: g * d)
    var sizes = [Double](repeating: 0, count: g)
    x.storage.withUnsafeBufferPointer { buffer in
        let p = buffer.baseAddress!
        for i in 0..<n {
            let k = Int(groups[i])
            sizes[k] += 1
            for c in 0..<d { sums[k * d + c] += p[i * d + c] }
        }
    }
    let block = 1024
    var similarity = [Float](repeating: 0, count: Swift.min(block, n) * g)
    var total = 0.0
    x.storage.withUnsafeBufferPointer { buffer in
        let p = buffer.baseAddress!
        for start in stride(from: 0, to: n, by: block) {
            let rows = Swift.min(block, n - start)
            cblas_sgemm(
                CblasRowMajor, CblasNoTrans, CblasTrans, Int32(rows), Int32(g), Int32(d), 1,
                p + start * d, Int32(d), sums, Int32(d), 0, &similarity, Int32(g))
            for r in 0..<rows {
                let own = Int(groups[start + r])
                guard sizes[own] > 1 else { continue }
                let a = 1 - (Double(similarity[r * g + own]) - 1) / (sizes[own] - 1)
                var b = Double.infinity
                for k in 0..<g where k != own { b = Swift.min(b, 1 - Double(similarity[r * g + k]) / sizes[k]) }
                let m = Swift.max(a, b)
                total += m > 0 ? (b - a) / m : 0
            }
        }
    }
    return total / Double(n)
}
