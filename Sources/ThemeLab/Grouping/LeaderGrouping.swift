import COpenBLAS

/// The app's grouping: visit items in order; each joins the group whose centroid (normalised
/// sum of its members; zero if they cancel) is most similar, if that similarity is ≥ t, else starts a group.
/// Order-dependent. Time O(N·G·d) with G groups (one `sgemv` per item), memory O(G·d).
enum LeaderGrouping {
    /// Refused above this many items: with G near N the cost is O(N²·d).
    public static let maxItems = 100_000

    /// Group labels for unit vectors `x` visited in `order` (default: row order).
    public static func group(_ x: Matrix, threshold t: Double, order: [Int]? = nil) throws -> [Int32] {
        guard x.rows <= maxItems else {
            throw ThemeLabError.input("leader grouping is O(N²·d) at worst; \(x.rows) items exceeds its limit of \(maxItems)")
        }
        let d = x.cols
        var labels = [Int32](repeating: -1, count: x.rows)
        // Per group: its sum vector (Float64) and its normalised centroid, in flat G×d buffers.
        var sums = [Double]()
        var centroids = [Float]()
        var similarities = [Float]()
        var g = 0
        x.withUnsafePointer { p in
            for i in order ?? Array(0..<x.rows) {
                let v = p + i * d
                var best = -1
                var bestSimilarity = -Float.infinity
                if g > 0 {
                    if similarities.count < g { similarities = [Float](repeating: 0, count: 2 * g) }
                    similarities.withUnsafeMutableBufferPointer { s in
                        cblas_sgemv(CblasRowMajor, CblasNoTrans, Int32(g), Int32(d), 1, centroids, Int32(d), v, 1, 0, s.baseAddress, 1)
                        for k in 0..<g where s[k] > bestSimilarity {
                            bestSimilarity = s[k]
                            best = k
                        }
                    }
                }
                if best >= 0 && Double(bestSimilarity) >= t {
                    labels[i] = Int32(best)
                    sums.withUnsafeMutableBufferPointer { all in
                        centroids.withUnsafeMutableBufferPointer { c in
                            let sum = UnsafeMutableBufferPointer(rebasing: all[(best * d)...])
                            var squares = 0.0
                            for k in 0..<d {
                                sum[k] += Double(v[k])
                                squares += sum[k] * sum[k]
                            }
                            // Members that cancel leave no direction: the centroid is zero (similarity 0), never NaN.
                            let norm = squares.squareRoot()
                            for k in 0..<d { c[best * d + k] = norm > 0 ? Float(sum[k] / norm) : 0 }
                        }
                    }
                } else {
                    labels[i] = Int32(g)
                    sums.append(contentsOf: UnsafeBufferPointer(start: v, count: d).lazy.map(Double.init))
                    centroids.append(contentsOf: UnsafeBufferPointer(start: v, count: d))
                    g += 1
                }
            }
        }
        return labels
    }
}
