import ThemeLabCore

/// The Calinski–Harabasz index (Calinski & Harabasz 1974), the variance ratio criterion, Euclidean on the rows as
/// given, as `sklearn.metrics.calinski_harabasz_score`:
///   CH = [B / (G − 1)] / [W / (N − G)],  B = Σ_g n_g ‖c_g − c‖²,  W = Σ_i ‖xᵢ − c_{gᵢ}‖²
/// (c_g a group's centroid, c the mean of all rows); 1 when W = 0. Higher is better. nil unless 2 ≤ G ≤ N − 1.
package func calinskiHarabasz(_ x: Matrix, groups: [Int32]) -> Double? {
    guard let g = criterionGroupCount(x, groups: groups) else { return nil }
    let c = GroupCentroids(x, groups: groups, count: g)
    let d = x.cols
    var between = 0.0
    for k in 0..<g {
        var s = 0.0
        for col in 0..<d {
            let v = c.centroids[k * d + col] - c.mean[col]
            s += v * v
        }
        between += c.sizes[k] * s
    }
    var within = 0.0
    for i in 0..<x.rows { within += c.squaredDistance(x, i, toCentroidOf: Int(groups[i])) }
    return within == 0 ? 1 : between * Double(x.rows - g) / (within * Double(g - 1))
}
