import ThemeLabCore

/// Each group's size and centroid (the mean of its rows, in Float64), for the internal criteria that read them;
/// groups are numbered 0 … G − 1, every item in one.
package struct GroupCentroids {
    package let sizes: [Double]
    /// G × d, row g the mean of group g.
    package let centroids: [Double]
    /// The mean of all rows.
    package let mean: [Double]

    package init(_ x: Matrix, groups: [Int32], count g: Int) {
        let d = x.cols
        var sums = [Double](repeating: 0, count: g * d)
        var sizes = [Double](repeating: 0, count: g)
        var total = [Double](repeating: 0, count: d)
        x.storage.withUnsafeBufferPointer { p in
            for i in 0..<x.rows {
                let k = Int(groups[i])
                sizes[k] += 1
                for c in 0..<d {
                    sums[k * d + c] += Double(p[i * d + c])
                    total[c] += Double(p[i * d + c])
                }
            }
        }
        for k in 0..<g where sizes[k] > 0 { for c in 0..<d { sums[k * d + c] /= sizes[k] } }
        self.sizes = sizes
        centroids = sums
        mean = total.map { $0 / Double(x.rows) }
    }

    /// ‖xᵢ − c_k‖² for item i and group k (Float64).
    package func squaredDistance(_ x: Matrix, _ i: Int, toCentroidOf k: Int) -> Double {
        let d = x.cols
        var s = 0.0
        for c in 0..<d {
            let v = Double(x[i, c]) - centroids[k * d + c]
            s += v * v
        }
        return s
    }
}

/// The number of groups when 2 ≤ G ≤ N − 1 with labels 0 … G − 1 and every label used, the range in which
/// scikit-learn's internal criteria are defined; nil otherwise.
package func criterionGroupCount(_ x: Matrix, groups: [Int32]) -> Int? {
    let g = groupCount(groups)
    guard groups.count == x.rows, groups.allSatisfy({ $0 >= 0 }), g >= 2, g <= x.rows - 1, Set(groups).count == g else { return nil }
    return g
}
