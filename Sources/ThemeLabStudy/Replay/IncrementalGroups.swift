import COpenBLAS
import ThemeLabCore
import ThemeLabCorpus
import ThemeLabEncoder
import ThemeLabMeasures
import ThemeLabMethods
import ThemeLabPairs

/// The app's incremental assignment between regroups: the space and threshold of the last regroup
/// are kept (its mean μ_last and threshold t_last); a new save u is centred by μ_last,
/// c = (u − μ_last)/‖u − μ_last‖, and joins the group whose centroid (normalised running sum of its
/// members' c, Float64) is most similar if that similarity is ≥ t_last, else starts a group.
/// Ties go to the first group and a zero sum scores 0, as in `LeaderGrouping`.
package struct IncrementalGroups {
    package let dimensions: Int
    package private(set) var labels: [Int32]
    package private(set) var sizes: [Int]
    package let threshold: Double?
    package let mean: [Double]
    /// Per group, the sum of its members' centred vectors (row-major, groups × d) and its norm.
    package private(set) var sums: [Double]
    package private(set) var norms: [Double]
    private var similarities: [Double] = []

    /// The groups of a regroup of the first `labels.count` rows of `vectors` (save order, unit), with their mean.
    package init(regroup: Regroup, mean: [Double], vectors: [Double]) {
        dimensions = mean.count
        labels = regroup.labels
        sizes = regroup.sizes
        threshold = regroup.threshold
        self.mean = mean
        sums = [Double](repeating: 0, count: regroup.sizes.count * mean.count)
        norms = [Double](repeating: 0, count: regroup.sizes.count)
        for (a, g) in labels.enumerated() {
            let c = centred(vectors, row: a)
            for k in 0..<dimensions { sums[Int(g) * dimensions + k] += c[k] }
        }
        for g in norms.indices { norms[g] = norm(of: g) }
    }

    /// (u − μ)/‖u − μ‖ for row `a` of `vectors`.
    package func centred(_ vectors: [Double], row a: Int) -> [Double] {
        let d = dimensions
        return [Double](unsafeUninitializedCapacity: d) { c, count in
            vectors.withUnsafeBufferPointer { v in
                mean.withUnsafeBufferPointer { mu in
                    var squares = 0.0
                    for k in 0..<d {
                        c[k] = v[a * d + k] - mu[k]
                        squares += c[k] * c[k]
                    }
                    let length = squares.squareRoot()
                    if length > 0 { for k in 0..<d { c[k] /= length } }
                }
            }
            count = d
        }
    }

    private func norm(of g: Int) -> Double {
        sums.withUnsafeBufferPointer { s in
            var squares = 0.0
            for k in (g * dimensions)..<((g + 1) * dimensions) { squares += s[k] * s[k] }
            return squares.squareRoot()
        }
    }

    /// Assigns row `a` of `vectors` (the next save); returns the similarities computed (one per group).
    package mutating func assign(_ vectors: [Double], row a: Int) -> Int {
        precondition(a == labels.count, "saves are assigned in order")
        let c = centred(vectors, row: a)
        let g = sizes.count
        var best = -1
        var bestSimilarity = -Double.infinity
        if g > 0, threshold != nil {
            if similarities.count < g { similarities = [Double](repeating: 0, count: 2 * g) }
            cblas_dgemv(CblasRowMajor, CblasNoTrans, Int32(g), Int32(dimensions), 1, sums, Int32(dimensions), c, 1, 0, &similarities, 1)
            for k in 0..<g {
                let similarity = norms[k] > 0 ? similarities[k] / norms[k] : 0
                if similarity > bestSimilarity {
                    bestSimilarity = similarity
                    best = k
                }
            }
        }
        if let t = threshold, best >= 0, bestSimilarity >= t {
            labels.append(Int32(best))
            sizes[best] += 1
            for k in 0..<dimensions { sums[best * dimensions + k] += c[k] }
            norms[best] = norm(of: best)
        } else {
            labels.append(Int32(g))
            sizes.append(1)
            sums += c
            norms.append(norm(of: g))
        }
        return threshold == nil ? 0 : g
    }
}
