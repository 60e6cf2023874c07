/// Unit-normalises every row: u = x/‖x‖ (norm accumulated in Float64).
/// A zero or non-finite row is an input error naming the item.
/// In place when the caller hands over its only copy.
package func unitRows(_ x: consuming Matrix, itemName: (Int) -> String = { "row \($0)" }) throws -> Matrix {
    let d = x.cols
    try x.withUnsafeMutablePointer { p in
        for i in 0..<x.rows {
            let row = p + i * d
            // Divide in Float64: a row of denormals has a norm whose Float32 reciprocal is infinite.
            let norm = try rowNorm(row, count: d, name: { itemName(i) })
            for k in 0..<d { row[k] = Float(Double(row[k]) / norm) }
        }
    }
    return x
}

/// Refuses what `unitRows` refuses (a zero or non-finite row, naming the item) without normalising.
package func checkUnitRows(_ x: Matrix, itemName: (Int) -> String = { "row \($0)" }) throws {
    try x.withUnsafePointer { p in
        for i in 0..<x.rows { _ = try rowNorm(p + i * x.cols, count: x.cols, name: { itemName(i) }) }
    }
}

/// The Euclidean norm of one row of `count` values (accumulated in Float64); an input error naming it when a value is
/// not finite or the row is zero.
private func rowNorm(_ row: UnsafePointer<Float>, count d: Int, name: () -> String) throws -> Double {
    var sumSquares = 0.0
    for k in 0..<d {
        let v = Double(row[k])
        guard v.isFinite else { throw ThemeLabError.input("\(name()): vector has a non-finite value at dimension \(k)") }
        sumSquares += v * v
    }
    guard sumSquares > 0 else { throw ThemeLabError.input("\(name()): vector is zero, cannot normalise") }
    return sumSquares.squareRoot()
}

/// Where a pass reads its unit vectors: a matrix of them in memory, or a file read row by row, so that a shard holds
/// only the rows its tiles touch.
package protocol PassVectors {
    var rows: Int { get }
    var cols: Int { get }
    /// The unit vectors of rows `items`, in that order.
    func vectors(of items: [Int]) throws -> Matrix
}

extension Matrix: PassVectors {
    /// The rows themselves: a matrix given to a pass already holds unit vectors.
    package func vectors(of items: [Int]) -> Matrix { rows(items) }
}

/// The rows of an `.npy` file, unit-normalised as they are read; a zero or non-finite row is an error naming it.
package struct UnitRowsFile: PassVectors {
    package let file: NPYFile
    package let itemName: (Int) -> String
    package var rows: Int { file.rows }
    package var cols: Int { file.cols }

    package init(_ file: NPYFile, itemName: @escaping (Int) -> String) {
        (self.file, self.itemName) = (file, itemName)
    }

    package func vectors(of items: [Int]) throws -> Matrix { try unitRows(try file.rows(items)) { itemName(items[$0]) } }
}
