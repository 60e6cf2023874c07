import CKernels
import COpenBLAS
import ThemeLabCore
import ThemeLabMeasures
import ThemeLabPairs

/// The journal method's grouping, the leader algorithm: visit items in order; each joins the group whose centroid (normalised
/// sum of its members; zero if they cancel) is most similar, if that similarity is ≥ t, else starts a group.
/// Order-dependent.
///
/// The similarity of item a to group g, s_g·x_a / ‖s_g‖ with s_g = Σ_{b∈g} x_b, is computed as
/// Σ_{b∈g} x_a·x_b over ‖s_g‖ (`LeaderAtThreshold`), so every threshold of a sweep shares one product: the dot
/// products of each block of `blockRows` items with the items visited up to it, one `sgemm` per block
/// (N²·d/2 multiply-adds in all), then N²/2 additions per threshold. Memory O(blockRows·N).
package enum LeaderAlgorithm {
    /// Refused above this many items: the product is N²·d/2 multiply-adds.
    package static let maxItems = 100_000
    /// Items per `sgemm`; a fixed size, so a sweep of several thresholds gives each the bits it gets alone.
    package static let blockRows = 256

    /// Group labels for the rows of `x` visited in `order` (default: row order); rows not visited are −1.
    package static func group(_ x: Matrix, threshold t: Double, order: [Int]? = nil) throws -> [Int32] {
        try group(x, thresholds: [t], order: order)[0]
    }

    /// `group(x, threshold:order:)` for each of `thresholds`, from one shared product.
    package static func group(_ x: Matrix, thresholds: [Double], order: [Int]? = nil) throws -> [[Int32]] {
        let visit = order ?? Array(0..<x.rows)
        return try sweeps(x, thresholds: thresholds, order: visit).map { sweep in
            var labels = [Int32](repeating: -1, count: x.rows)
            let found = sweep.labels
            for (p, i) in visit.enumerated() { labels[i] = found[p] }
            return labels
        }
    }

    /// The thresholds, from the top down, at which the partition of `x` visited in `order` changes:
    /// below the largest similarity an item fell short by (`LeaderAtThreshold.nearestRejection`) the run is the same, and at it
    /// that item joins, so each run gives the next. Nil when there are more than `limit`. The products are computed once
    /// and kept for every run (the same blocks, so the same bits): about N²/2 floats, so callers bound N
    /// (`LeaderGrouping.exactItems`).
    package static func breakpoints(_ x: Matrix, order: [Int], limit: Int) throws -> [Double]? {
        var kept: [(start: Int, end: Int, block: [Float])] = []
        try products(x, order: order) { start, end, b in
            kept.append((start, end, Array(UnsafeBufferPointer(start: b, count: (end - start) * end))))
        }
        func nearestRejection(below t: Double) -> Double {
            let sweep = [LeaderAtThreshold(threshold: t, items: order.count)]
            for k in kept { k.block.withUnsafeBufferPointer { feed(sweep, k.start, k.end, $0.baseAddress!) } }
            return sweep[0].nearestRejection
        }
        var found: [Double] = []
        var t = nearestRejection(below: .infinity)
        while t > -.infinity {
            guard found.count < limit else { return nil }
            found.append(t)
            t = nearestRejection(below: t)
        }
        return found
    }

    /// One finished sweep per threshold, from one shared product: labels by visiting position.
    static func sweeps(_ x: Matrix, thresholds: [Double], order visit: [Int]) throws -> [LeaderAtThreshold] {
        let sweeps = thresholds.map { LeaderAtThreshold(threshold: $0, items: visit.count) }
        try products(x, order: visit) { start, end, b in feed(sweeps, start, end, b) }
        return sweeps
    }

    /// Feeds the block of rows start..<end (each `end` long: row p holds x_p·x_q for q < end) to every sweep, each row's
    /// sums for all sweeps in one call (`tl_group_sums_f32`).
    private static func feed(_ sweeps: [LeaderAtThreshold], _ start: Int, _ end: Int, _ b: UnsafePointer<Float>) {
        let labels = sweeps.map { UnsafePointer($0.labelBuffer.baseAddress) }
        let sums = sweeps.map { $0.sumBuffer.baseAddress }
        var groups = [Int32](repeating: 0, count: sweeps.count)
        for p in start..<end {
            let row = b + (p - start) * end
            for s in sweeps.indices { groups[s] = Int32(sweeps[s].sizes.count) }
            tl_group_sums_f32(row, p, Int32(sweeps.count), labels, sums, groups)
            for sweep in sweeps { sweep.place(p, selfSimilarity: Double(row[p])) }
        }
    }

    /// The products of the rows of `x` visited in `order`, a block of `blockRows` rows against the rows up to its end at a
    /// time, each given to `body` (start, end, the block) before the next is computed.
    private static func products(_ x: Matrix, order visit: [Int], _ body: (Int, Int, UnsafePointer<Float>) -> Void) throws {
        guard x.rows <= maxItems else {
            throw ThemeLabError.input("leader grouping is O(N²·d); \(x.rows) items exceeds its limit of \(maxItems)")
        }
        let (n, d) = (visit.count, x.cols)
        let ordered = x.rows(visit)
        var block = [Float](repeating: 0, count: min(blockRows, n) * n)
        // One BLAS thread, as the CLI runs: OpenBLAS's threads split a product by rows and a row's rounding depends on its
        // place, and the ceiling's breakpoints are these very sums, so their last bits must not move with the thread count.
        let blasThreads = openblas_get_num_threads()
        openblas_set_num_threads(1)
        defer { openblas_set_num_threads(blasThreads) }
        ordered.storage.withUnsafeBufferPointer { buffer in
            let v = buffer.baseAddress!
            block.withUnsafeMutableBufferPointer { b in
                for start in stride(from: 0, to: n, by: blockRows) {
                    let end = min(start + blockRows, n)
                    // Rows start..<end against rows 0..<end: row p of the block holds x_p·x_q for q ≤ p (and a few q > p).
                    cblas_sgemm(
                        CblasRowMajor, CblasNoTrans, CblasTrans, Int32(end - start), Int32(end), Int32(d), 1, v + start * d, Int32(d),
                        v, Int32(d), 0, b.baseAddress, Int32(end))
                    body(start, end, UnsafePointer(b.baseAddress!))
                }
            }
        }
    }
}

/// One threshold's leader grouping, fed the similarities of each visited item to those before it.
/// The similarity of item a to group g is Σ_{b∈g} s_ab / ‖Σ_{b∈g} x_b‖ (Float64 sums, `tl_group_sums_f32`), and
/// ‖Σ x‖² grows by 2·Σ_{b∈g} s_ab + s_aa when a joins. Ties go to the first group; a zero centroid scores 0.
/// A reference: its labels and sums live in buffers the sums kernel reads for several sweeps at once.
package final class LeaderAtThreshold {
    package let threshold: Double
    /// Members per group, indexed by label.
    package private(set) var sizes: [Int] = []
    /// Similarities compared so far (one per visited item and existing group).
    package private(set) var comparisons = 0
    /// The largest best-group similarity of an item that started a group of its own although groups existed (−∞: none):
    /// the threshold below which the sweep would first decide otherwise.
    package private(set) var nearestRejection = -Double.infinity
    private var squares: [Double] = []
    private var norms: [Double] = []
    /// Labels by visiting position; the sums of the item being visited by group (at most one group per item) and their
    /// quotients by the groups' norms (`tl_nearest_group`).
    fileprivate let labelBuffer: UnsafeMutableBufferPointer<Int32>
    fileprivate let sumBuffer: UnsafeMutableBufferPointer<Double>
    private let quotientBuffer: UnsafeMutableBufferPointer<Double>

    package init(threshold: Double, items: Int) {
        self.threshold = threshold
        labelBuffer = .allocate(capacity: items)
        labelBuffer.initialize(repeating: 0)
        sumBuffer = .allocate(capacity: items)
        sumBuffer.initialize(repeating: 0)
        quotientBuffer = .allocate(capacity: items)
        quotientBuffer.initialize(repeating: 0)
    }

    deinit {
        labelBuffer.deallocate()
        sumBuffer.deallocate()
        quotientBuffer.deallocate()
    }

    /// Labels by visiting position, for the positions visited so far.
    package var labels: [Int32] { Array(labelBuffer) }

    /// Visits the next item, position `count`, whose similarity to the item at position b is `row[b]` for b < `count`.
    package func visit(_ row: UnsafePointer<Double>, count a: Int, selfSimilarity: Double) {
        checkInOrder(a)
        var (l, s, g) = (UnsafePointer(labelBuffer.baseAddress), sumBuffer.baseAddress, Int32(sizes.count))
        tl_group_sums_f64(row, a, 1, &l, &s, &g)
        place(a, selfSimilarity: selfSimilarity)
    }

    /// Traps unless position `a` is within the buffers and no earlier position is still unvisited (the buffers are
    /// unchecked, and the C loops read the labels below `a`).
    private func checkInOrder(_ a: Int) {
        precondition(a < labelBuffer.count && sizes.count <= a, "leader: position \(a) of \(labelBuffer.count) visited out of order")
    }

    /// Places the item at position `a`, its sums to the groups summed (`tl_group_sums_f32` or `_f64`): in the group of
    /// highest similarity when that reaches the threshold, else in a new group. Positions come in order, within `items`.
    fileprivate func place(_ a: Int, selfSimilarity: Double) {
        let g = sizes.count
        checkInOrder(a)
        var bestSimilarity = -Double.infinity
        let best = Int(
            norms.withUnsafeBufferPointer {
                tl_nearest_group(
                    KernelPath.best.code, sumBuffer.baseAddress, $0.baseAddress, Int32(g), quotientBuffer.baseAddress, &bestSimilarity)
            })
        comparisons += g
        if best >= 0 && bestSimilarity >= threshold {
            labelBuffer[a] = Int32(best)
            sizes[best] += 1
            squares[best] += 2 * sumBuffer[best] + selfSimilarity
            norms[best] = max(squares[best], 0).squareRoot()
        } else {
            if best >= 0 { nearestRejection = max(nearestRejection, bestSimilarity) }
            labelBuffer[a] = Int32(g)
            sizes.append(1)
            squares.append(selfSimilarity)
            norms.append(max(selfSimilarity, 0).squareRoot())
        }
    }
}
