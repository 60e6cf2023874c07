/// Each group's centroid: the normalised sum of its members' vectors (sums in Float64), as a
/// k×d row-major matrix; nil for a group with no members or a zero sum.
package func normalisedCentroids(_ x: Matrix, labels: [Int32], groups k: Int) -> [[Float]?] {
    let d = x.cols
    var sums = [Double](repeating: 0, count: k * d)
    for i in 0..<x.rows {
        let c = Int(labels[i])
        for t in 0..<d { sums[c * d + t] += Double(x[i, t]) }
    }
    return (0..<k).map { c in
        let norm = (0..<d).reduce(0.0) { $0 + sums[c * d + $1] * sums[c * d + $1] }.squareRoot()
        return norm > 0 ? (0..<d).map { Float(sums[c * d + $0] / norm) } : nil
    }
}
