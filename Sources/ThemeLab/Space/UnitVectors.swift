/// Unit-normalises every row: u = x/‖x‖ (norm accumulated in Float64).
/// A zero or non-finite row is an input error naming the item.
public func unitRows(_ x: Matrix, itemName: (Int) -> String = { "row \($0)" }) throws -> Matrix {
    var u = x
    let d = x.cols
    try u.withUnsafeMutablePointer { p in
        for i in 0..<x.rows {
            let row = p + i * d
            var sumSquares = 0.0
            for k in 0..<d {
                let v = Double(row[k])
                guard v.isFinite else { throw ThemeLabError.input("\(itemName(i)): vector has a non-finite value at dimension \(k)") }
                sumSquares += v * v
            }
            guard sumSquares > 0 else { throw ThemeLabError.input("\(itemName(i)): vector is zero, cannot normalise") }
            // Divide in Float64: a row of denormals has a norm whose Float32 reciprocal is infinite.
            let norm = sumSquares.squareRoot()
            for k in 0..<d { row[k] = Float(Double(row[k]) / norm) }
        }
    }
    return u
}
