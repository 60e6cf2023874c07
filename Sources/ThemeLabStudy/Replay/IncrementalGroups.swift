import COpenBLAS
import ThemeLabCore
import ThemeLabCorpus
import ThemeLabEncoder
import ThemeLabMeasures
import ThemeLabMethods
import ThemeLabPairs

/// The journal method's incremental assignment between regroups: the space and threshold of the last regroup
/// are kept (its mean μ_last and threshold t_last); a new save u is centred by μ_last,
/// c = (u − μ_last)/‖u − μ_last‖, and joins the group whose centroid (normalised running sum of its
/// members' c, Float64) is most similar if that similarity is ≥ t_last, else starts a group.
/// Ties go to the first group and a zero sum scores 0, as in `LeaderAlgorithm`.
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
        let d = dimensions
        precondition(vectors.count >= labels.count * d, "a vector for every grouped save")
        var sums = [Double](repeating: 0, count: regroup.sizes.count * d)
        var c = [Double](repeating: 0, count: d)
        vectors.withUnsafeBufferPointer { v in
            sums.withUnsafeMutableBufferPointer { sums in
                c.withUnsafeMutableBufferPointer { c in
                    for (a, g) in regroup.labels.enumerated() {
                        precondition(g >= 0 && Int(g) < regroup.sizes.count, "save \(a)'s group \(g) is not among the regroup's")
                        Self.centre(v.baseAddress! + a * d, by: mean, into: c)
                        let sum = sums.baseAddress! + Int(g) * d
                        for k in 0..<d { sum[k] += c[k] }
                    }
                }
            }
        }
        self.sums = sums
        norms = [Double](repeating: 0, count: regroup.sizes.count)
        for g in norms.indices { norms[g] = norm(of: g) }
    }

    /// (u − μ)/‖u − μ‖ for row `a` of `vectors`.
    package func centred(_ vectors: [Double], row a: Int) -> [Double] {
        precondition(vectors.count >= (a + 1) * dimensions, "no save \(a)")
        return [Double](unsafeUninitializedCapacity: dimensions) { c, count in
            vectors.withUnsafeBufferPointer { Self.centre($0.baseAddress! + a * dimensions, by: mean, into: c) }
            count = dimensions
        }
    }

    /// c = (u − μ)/‖u − μ‖ (c = u − μ when that is zero), the squares summed in order.
    private static func centre(_ u: UnsafePointer<Double>, by mean: [Double], into c: UnsafeMutableBufferPointer<Double>) {
        mean.withUnsafeBufferPointer { mu in
            var squares = 0.0
            for k in mu.indices {
                c[k] = u[k] - mu[k]
                squares += c[k] * c[k]
            }
            let length = squares.squareRoot()
            if length > 0 { for k in mu.indices { c[k] /= length } }
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
