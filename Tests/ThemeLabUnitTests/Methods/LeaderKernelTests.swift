import CKernels
import Testing

@testable import ThemeLabCore

/// The leader's C loops (Sources/CKernels/leader.c) against a direct Swift statement of what they compute, bit for bit:
/// the group sums of several sweeps at once, and the nearest group on every path this CPU runs.
@Suite struct LeaderKernelTests {
    static let lengths = [0, 1, 3, 4, 7, 8, 9, 16, 17, 300]

    /// A seeded value with a full mantissa and an exponent in 2^−40 … 2^40, so sums added in another order differ.
    static func wide(_ random: inout SeededRandom) -> Double {
        let mantissa = Double(random.next() % (1 << 52)) / Double(1 << 52) + 1
        let scale = Double(sign: random.next() % 2 == 0 ? .plus : .minus, exponent: Int(random.next() % 81) - 40, significand: 1)
        return mantissa * scale
    }

    /// Sums of 1 to 9 sweeps in one call (four per pass, the rest one at a time) equal each sweep's own sums added in
    /// index order, for Float and Double rows with signed zeros and a NaN, over labels with long runs of one group. The
    /// rows' exponents are wide enough that the order shows: summed backwards, some sum differs.
    @Test func groupSumsOfSeveralSweepsAreEachSweepsOwn() {
        var random = SeededRandom(seed: 4)
        var orderShows = false
        for n in Self.lengths {
            let row = (0..<n).map { b -> Double in b == 5 ? .nan : b % 9 == 2 ? -0.0 : Self.wide(&random) }
            let rowF = row.map(Float.init)
            for sweeps in 1...9 {
                let groups = (0..<sweeps).map { s in Int32(1 + s % 5) }
                let labels = groups.map { g in (0..<n).map { b in Int32((b / 3 + Int(random.next() % 2)) % Int(g)) } }
                for single in [true, false] {
                    var sums = groups.map { [Double](repeating: 7, count: Int($0)) }
                    withPointers(labels, &sums) { l, s in
                        if single {
                            tl_group_sums_f32(rowF, n, Int32(sweeps), l, s, groups)
                        } else {
                            tl_group_sums_f64(row, n, Int32(sweeps), l, s, groups)
                        }
                    }
                    for s in 0..<sweeps {
                        var expected = [Double](repeating: 0, count: Int(groups[s]))
                        var backwards = expected
                        for b in 0..<n { expected[Int(labels[s][b])] += single ? Double(rowF[b]) : row[b] }
                        for b in (0..<n).reversed() { backwards[Int(labels[s][b])] += single ? Double(rowF[b]) : row[b] }
                        orderShows = orderShows || expected.map(\.bitPattern) != backwards.map(\.bitPattern)
                        #expect(sums[s].map(\.bitPattern) == expected.map(\.bitPattern), "n \(n), \(sweeps) sweeps, sweep \(s)")
                    }
                }
            }
        }
        #expect(orderShows)
    }

    /// The nearest group: every quotient sums[k] / norms[k] over positive norms (0 otherwise) bit for bit, the first of
    /// equals, NaN never chosen, −1 with no group or only NaN; the same on every path.
    @Test(arguments: KernelPath.available)
    func nearestGroupIsTheFirstHighestQuotient(path: KernelPath) {
        var random = SeededRandom(seed: 8)
        for n in Self.lengths {
            let sums = (0..<n).map { k -> Double in k % 11 == 4 ? .nan : k % 5 == 1 ? -0.0 : k % 17 == 8 ? 0.5 : Self.wide(&random) }
            let norms = (0..<n).map { k -> Double in k % 7 == 3 ? 0 : k % 13 == 6 ? -1 : k % 17 == 8 ? 1 : abs(Self.wide(&random)) }
            var (expected, top) = (-1, -Double.infinity)
            let direct = (0..<n).map { k in norms[k] > 0 ? sums[k] / norms[k] : 0 }
            for k in 0..<n where direct[k] > top { (expected, top) = (k, direct[k]) }
            var quotients = [Double](repeating: 0, count: n)
            var best = 0.0
            let found = tl_nearest_group(path.code, sums, norms, Int32(n), &quotients, &best)
            #expect(quotients.map(\.bitPattern) == direct.map(\.bitPattern), "\(path) n \(n)")
            #expect(Int(found) == expected && best.bitPattern == top.bitPattern, "\(path) n \(n)")
        }
        var (quotient, best) = (0.0, 0.0)
        #expect(tl_nearest_group(path.code, [.nan], [1], 1, &quotient, &best) == -1 && best == -.infinity)
    }

    /// Calls `body` with C arrays of pointers to each sweep's labels and sums.
    private func withPointers(
        _ labels: [[Int32]], _ sums: inout [[Double]],
        _ body: ([UnsafePointer<Int32>?], [UnsafeMutablePointer<Double>?]) -> Void
    ) {
        let l = labels.map { row in
            let p = UnsafeMutablePointer<Int32>.allocate(capacity: max(1, row.count))
            p.initialize(from: row, count: row.count)
            return UnsafePointer(p)
        }
        defer { for p in l { p.deallocate() } }
        let s = sums.indices.map { UnsafeMutablePointer<Double>.allocate(capacity: sums[$0].count) }
        for (p, row) in zip(s, sums) { p.initialize(from: row, count: row.count) }
        body(l, s)
        for (k, p) in s.enumerated() {
            sums[k] = Array(UnsafeBufferPointer(start: p, count: sums[k].count))
            p.deallocate()
        }
    }
}
