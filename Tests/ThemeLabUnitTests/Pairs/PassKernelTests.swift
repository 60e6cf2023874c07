import CKernels
import Testing

@testable import ThemeLabCore
@testable import ThemeLabPairs

/// The pass's C loops (Sources/CKernels/pass.c) on every path this CPU runs: the fine histogram, the spanning forest's
/// test of a tile row, a row's heaviest pair and a diagonal tile's Prim. Each against a direct Swift statement of what it
/// computes, bit for bit, on values full of ties, signed zeros, NaN and values on the levels and bin edges.
@Suite struct PassKernelTests {
    /// Seeded values in [−1.25, 1.25] on a grid of 1/64 (so ties and bin edges are common), with the specials mixed in.
    static func values(_ count: Int, seed: UInt64) -> [Float] {
        var random = SeededRandom(seed: seed)
        let specials: [Float] = [.nan, -0.0, 0, 1, -1, 2, -3, Float(1).nextDown, Float(-1).nextUp, .infinity]
        return (0..<count).map { k in
            k % 7 == 3 ? specials[(k / 7) % specials.count] : Float(Int(random.next() % 161) - 80) / 64
        }
    }

    static let lengths = [0, 1, 3, 4, 5, 7, 8, 9, 12, 15, 16, 17, 31, 40, 1000, 2048]

    /// Fine bin b = ⌊(s + 1)·bins/2⌋ clamped, by hand: s = −1 → 0; 0 → bins/2; 1 and 2 → the last bin; just below 0 →
    /// bins/2 − 1; −3 and NaN → 0; −1 + 2/bins → 1; at 65 536 bins and at 2²⁴ (the most `themelab pairs --bins` takes).
    @Test(arguments: KernelPath.available)
    func fineBinsByHand(path: KernelPath) {
        for bins in [65_536, 1 << 24] {
            let cases: [(Float, Int)] = [
                (-1, 0), (0, bins / 2), (1, bins - 1), (-Float.ulpOfOne, bins / 2 - 1), (2, bins - 1), (-3, 0), (.nan, 0),
                (Float(2) / Float(bins) - 1, 1), (0.5, 3 * bins / 4),
            ]
            for (value, expected) in cases {
                // Nine copies, so the value takes a vector lane and the tail.
                let totals = WorkerTotals(bins: bins, keepValues: false, path: path)
                [Float](repeating: value, count: 9).withUnsafeBufferPointer { totals.add($0.baseAddress!, 9) }
                #expect(totals.finish().histogram[expected] == 9, "\(bins) bins: bin of \(value), expected \(expected)")
            }
        }
    }

    /// Counts, extremes and sums on every path equal those of the direct statement: the bin by converting then clamping,
    /// the extremes of the non-NaN values, the sums as eight lanes and a tail (`WorkerTotals.add`'s order), bit for bit;
    /// with NaN among the values, the sums NaN.
    @Test(arguments: Self.lengths, KernelPath.available)
    func fineHistogramIsItsStatementOnEveryPath(_ count: Int, path: KernelPath) {
        // Full mantissas over many scales (no large value to hide the small ones' last bits), so that the order of the
        // additions shows in the sums' bits; signed zeros among them.
        var random = SeededRandom(seed: UInt64(count))
        let values = (0..<count).map { k in
            k % 7 == 3 ? (k % 2 == 0 ? 0 : -0.0) : Float(random.uniform() - 0.5) * Float(1 << (random.next() % 12)) / 2048
        }
        for values in [values, values.enumerated().map { $0 % 11 == 5 ? .nan : $1 }] {
            let totals = WorkerTotals(bins: 64, keepValues: false, path: path)
            // Two calls: the running extremes and sums carry over.
            values.withUnsafeBufferPointer { p in
                totals.add(p.baseAddress!, count / 2)
                totals.add(p.baseAddress! + count / 2, count - count / 2)
            }
            let sums = totals.takeTileSums()
            let got = totals.finish()
            var expected = [UInt64](repeating: 0, count: 64)
            for v in values { expected[v.isNaN ? 0 : min(max(Int((v + 1) * 32), 0), 63)] += 1 }
            #expect(got.histogram == expected && got.count == count)
            let real = values.filter { !$0.isNaN }
            #expect(got.min == real.min() ?? .infinity && got.max == real.max() ?? -.infinity)
            let statement = [Array(values[..<(count / 2)]), Array(values[(count / 2)...])].reduce((0.0, 0.0)) { total, part in
                let (s, q) = Self.laneSums(part)
                return (total.0 + s, total.1 + q)
            }
            let same = { (a: Double, b: Double) in a.bitPattern == b.bitPattern || (a.isNaN && b.isNaN && real.count < count) }
            #expect(same(sums.sum, statement.0) && same(sums.sumSquares, statement.1), "\(sums) against \(statement)")
        }
    }

    /// One call's sums as `tl_fine_add` states them: lane j of four takes values 4m + j of the first n − n mod 4, folded
    /// from −0 in lane order, then the rest in order from 0.
    static func laneSums(_ v: [Float]) -> (Double, Double) {
        guard !v.isEmpty else { return (0, 0) }
        var (lanes, squares) = ([Double](repeating: 0, count: 4), [Double](repeating: 0, count: 4))
        let quads = v.count - v.count % 4
        for k in 0..<quads {
            lanes[k % 4] += Double(v[k])
            squares[k % 4] += Double(v[k]) * Double(v[k])
        }
        var (tail, tailSquares) = (0.0, 0.0)
        for k in quads..<v.count {
            tail += Double(v[k])
            tailSquares += Double(v[k]) * Double(v[k])
        }
        return (lanes.reduce(-0.0, +) + tail, squares.reduce(-0.0, +) + tailSquares)
    }

    /// A snapshot of a path through `items` items in a seeded order, each edge lighter than the one before, on a 1/2048
    /// grid (which holds the rows' 1/64 grid): items far along the path join the first one only at the lightest levels.
    static func snapshot(items: Int, levels: Int, seed: UInt64) -> SpanningForest.Snapshot {
        let order = SeededRandom.permutation(count: items, seed: seed)
        let edges = (0..<items - 1).map { k in SpanningForest.Edge.between(order[k], order[k + 1], w: Float(2048 - 23 * k) / 2048) }
        return SpanningForest.Snapshot(items: items, forest: SpanningForest.kruskal(items: items, edges), levelCount: levels)
    }

    /// The forest's row test keeps exactly the pairs `Snapshot.rejects` does not reject (NaN weights never), with and
    /// without mutual-reachability caps, on 4, 32 and 40 levels (past the 32 a register holds), every path.
    @Test(arguments: [4, 32, 40], KernelPath.available)
    func forestRowKeepsWhatTheSnapshotDoesNotReject(levels: Int, path: KernelPath) {
        let items = 90
        let snap = Self.snapshot(items: items, levels: levels, seed: UInt64(levels))
        #expect(snap.levels.count > 32 || levels <= 32, "\(snap.levels.count) levels")
        let columns = (0..<Int32(items)).map { ($0 * 37) % Int32(items) }
        let reach = columns.map { snap.reach[Int($0)] }
        // Rows of the items that join the first item last, so that their pairs reach the labels at the lightest levels.
        let (last, nextToLast) = { ($0[0], $0[1]) }(snap.reach.indices.sorted { (snap.reach[$0], $0) < (snap.reach[$1], $1) })
        let caps = Self.values(items, seed: 99).map { $0.isNaN || $0 < 0.5 ? Float(1) : $0 }
        for (a, caps) in [(last, nil), (nextToLast, caps)] as [(Int, [Float]?)] {
            for n in [0, 1, 15, 16, 17, 33, items] {
                // Every fifth value one of the eight lightest levels (past the 32nd when there are 40): a weight equal to
                // a cut is not strictly below it, and the labels are read at the deepest levels.
                let deep = (0..<n).map { snap.levels[snap.levels.count - 1 - ($0 / 5) % min(8, snap.levels.count)] }
                let row = Self.values(n, seed: UInt64(n + a)).enumerated().map { $0 % 5 == 1 ? deep[$0] : $1 }
                let rowCap = caps?[a] ?? .infinity
                let expected = (0..<n).filter { b in
                    let j = Int(columns[b])
                    let w = caps.map { Swift.min(row[b], rowCap, $0[j]) } ?? row[b]
                    return !w.isNaN && !snap.rejects(a, j, w)
                }
                var kept = [Int32](repeating: -1, count: n)
                let count = row.withUnsafeBufferPointer { r in
                    columns.withUnsafeBufferPointer { c in
                        snap.keep(
                            row: r.baseAddress!, n, item: a, columns: c.baseAddress!, columnReach: reach, rowCap: rowCap,
                            columnCap: caps.map { cap in columns.map { cap[Int($0)] } }, path: path, into: &kept)
                    }
                }
                #expect(kept[..<count].map(Int.init) == expected, "\(levels) levels, \(n) columns, caps: \(caps != nil)")
            }
        }
    }

    /// A row's heaviest pair is the first of the heaviest non-NaN weights, and only when heavier than the best so far.
    @Test(arguments: Self.lengths, KernelPath.available)
    func heaviestRowIsTheFirstOfTheHeaviest(_ count: Int, path: KernelPath) {
        let row = Self.values(count, seed: UInt64(count) + 7).map { $0.isInfinite ? -0.0 : $0 }
        let caps = Self.values(count, seed: 3).map { $0.isNaN ? 1 : $0 }
        for (cap, columnCap) in [(Float.infinity, nil), (0.5, caps)] as [(Float, [Float]?)] {
            for start in [-Float.infinity, 0.25] {
                var (best, at) = (start, count)
                for b in 0..<count {
                    let w = columnCap.map { Swift.min(row[b], cap, $0[b]) } ?? row[b]
                    if w > best { (best, at) = (w, b) }
                }
                var found = start
                let index = tl_heaviest_row(path.code, row, count, cap, columnCap, &found)
                #expect(index == at && found.bitPattern == best.bitPattern, "from \(start), caps: \(columnCap != nil)")
            }
        }
    }

    /// Prim on a diagonal tile gives, on every path, the tree of the direct statement: from item 0, each step raising
    /// the open items' keys to strictly heavier weights and taking the first heaviest in the order swap-removal leaves.
    @Test(arguments: [2, 3, 17, 33, 70], KernelPath.available)
    func primIsItsStatementOnEveryPath(_ t: Int, path: KernelPath) {
        let stride = t + 3
        let upper = Self.values(t * stride, seed: UInt64(t)).map { $0.isNaN || $0.isInfinite ? 0.125 : $0 }
        for caps in [nil, Self.values(t, seed: 5).map { $0.isNaN ? 1 : $0 }] as [[Float]?] {
            let weight = { (u: Int, v: Int) -> Float in
                let s = upper[min(u, v) * stride + max(u, v)]
                return caps.map { Swift.min(s, $0[v], $0[u]) } ?? s
            }
            var (key, parent, open, v) = ([Float](repeating: -.infinity, count: t), [Int](repeating: 0, count: t), Array(1..<t), 0)
            var expected: [(Int, Int, Float)] = []
            while !open.isEmpty {
                var best = 0
                for (k, u) in open.enumerated() {
                    if weight(u, v) > key[u] { (key[u], parent[u]) = (weight(u, v), v) }
                    if key[u] > key[open[best]] { best = k }
                }
                let u = open[best]
                open.swapAt(best, open.count - 1)
                open.removeLast()
                expected.append((parent[u], u, key[u]))
                v = u
            }
            var (from, to, w) = (
                [Int32](repeating: 0, count: t - 1), [Int32](repeating: 0, count: t - 1), [Float](repeating: 0, count: t - 1)
            )
            var columns = [Float](repeating: .nan, count: t * (t - 1) / 2)
            #expect(tl_prim(path.code, upper, stride, Int32(t), caps, &columns, &from, &to, &w) == 1)
            let got = (0..<t - 1).map { (Int(from[$0]), Int(to[$0]), w[$0]) }
            #expect(got.elementsEqual(expected) { $0.0 == $1.0 && $0.1 == $1.1 && $0.2.bitPattern == $1.2.bitPattern })
        }
    }
}
