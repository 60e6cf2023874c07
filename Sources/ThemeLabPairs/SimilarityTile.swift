import ThemeLabCore

/// One block of the similarity matrix, as the pairwise engine hands it to consumers.
///
/// Rows and columns are positions in the engine's label-sorted order; `item` maps a position back
/// to the caller's row index. The tile holds `values[a * stride + b]` = cos(row a, column b).
/// On a diagonal tile only b > a are pairs (the rest is undefined). The pointers are valid only
/// during `consume`, and only for reading.
package struct SimilarityTile: @unchecked Sendable {
    package let rowStart: Int
    package let rowCount: Int
    package let colStart: Int
    package let colCount: Int
    package let isDiagonal: Bool
    package let values: UnsafePointer<Float>
    package let stride: Int
    /// Caller's row index of each sorted position.
    package let item: UnsafePointer<Int32>

    /// The first column index (within the tile) that forms a pair with row `a`.
    @inline(__always) package func firstColumn(ofRow a: Int) -> Int { isDiagonal ? a + 1 : 0 }
}

/// Receives every tile of the pairwise pass. `consume` is called concurrently by the pass's
/// workers, each with its own `worker` number: a consumer keeps per-worker state (merged in
/// `finish`) or writes only memory that belongs to the tile.
package protocol PairConsumer: AnyObject {
    /// Before the first tile: how many workers will call `consume`.
    func prepare(workers: Int)
    func consume(_ tile: SimilarityTile, worker: Int)
    /// After the last tile.
    func finish()
    /// Whether a shard also feeds it the bridge tiles (`PassBlock`: other shards' tiles on the diagonal and next to it,
    /// which join every item to its neighbours early), pairs that other shards count. The spanning forest takes them; a
    /// consumer that counts pairs must not.
    var takesBridgeTiles: Bool { get }
}

extension PairConsumer {
    package func prepare(workers: Int) {}
    package func finish() {}
    package var takesBridgeTiles: Bool { false }
}
