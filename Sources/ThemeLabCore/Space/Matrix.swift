/// A dense row-major Float32 matrix that owns its storage. BLAS reads and writes the storage
/// in place through `withUnsafe…Pointer`; nothing is copied on the way. Its accessors are inlinable: the other stages
/// read elements in their inner loops. A hot loop in another target reads `storage.withUnsafeBufferPointer` instead of
/// `withUnsafePointer`: measured, the closure through this one is not inlined across the target boundary.
package struct Matrix: Sendable, Equatable {
    package let rows: Int
    package let cols: Int
    package var storage: [Float]

    package init(rows: Int, cols: Int, storage: [Float]) {
        precondition(rows >= 0 && cols >= 0 && storage.count == rows * cols, "matrix storage does not match its shape")
        self.rows = rows
        self.cols = cols
        self.storage = storage
    }

    package init(rows: Int, cols: Int, repeating value: Float = 0) {
        self.init(rows: rows, cols: cols, storage: [Float](repeating: value, count: rows * cols))
    }

    @inlinable package subscript(row: Int, col: Int) -> Float {
        get { storage[row * cols + col] }
        set { storage[row * cols + col] = newValue }
    }

    @inlinable package func row(_ i: Int) -> ArraySlice<Float> { storage[(i * cols)..<((i + 1) * cols)] }

    /// Whether there are two rows or more and every row holds the same values as the first.
    package var rowsAreAllEqual: Bool { rows > 1 && (1..<rows).allSatisfy { row($0) == row(0) } }

    /// Whether `other` has this shape and the same bits in every element (unlike `==`, −0 and +0 differ).
    package func hasSameBits(as other: Matrix) -> Bool {
        rows == other.rows && cols == other.cols
            && storage.withUnsafeBytes { a in other.storage.withUnsafeBytes { b in a.elementsEqual(b) } }
    }

    /// The matrix of rows `kept`, in that order.
    package func rows(_ kept: [Int]) -> Matrix { Matrix(rows: kept.count, cols: cols, storage: kept.flatMap { row($0) }) }

    @inlinable package func withUnsafePointer<R>(_ body: (UnsafePointer<Float>) throws -> R) rethrows -> R {
        try storage.withUnsafeBufferPointer { try body($0.baseAddress!) }
    }

    @inlinable package mutating func withUnsafeMutablePointer<R>(_ body: (UnsafeMutablePointer<Float>) throws -> R) rethrows -> R {
        try storage.withUnsafeMutableBufferPointer { try body($0.baseAddress!) }
    }
}
