/// Each group's centroid: the normalised sum of its members' vectors (sums in Float64, members in row order), as a
/// k×d row-major matrix; nil for a group with no members or a zero sum. Every label must lie in 0..<k.
package func normalisedCentroids(_ x: Matrix, labels: [Int32], groups k: Int) -> [[Float]?] {
    let (n, d) = (x.rows, x.cols)
    precondition(labels.count >= n, "a label for every row")
    var sums = [Double](repeating: 0, count: k * d)
    x.storage.withUnsafeBufferPointer { v in
        sums.withUnsafeMutableBufferPointer { sums in
            for i in 0..<n {
                let c = Int(labels[i])
                precondition(c >= 0 && c < k, "label \(c) of row \(i) outside 0..<\(k)")
                let (row, sum) = (v.baseAddress! + i * d, sums.baseAddress! + c * d)
                for t in 0..<d { sum[t] += Double(row[t]) }
            }
        }
    }
    return (0..<k).map { c in
        let norm = (0..<d).reduce(0.0) { $0 + sums[c * d + $1] * sums[c * d + $1] }.squareRoot()
        return norm > 0 ? (0..<d).map { Float(sums[c * d + $0] / norm) } : nil
    }
}
