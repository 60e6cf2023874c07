import CKernels
import Testing

@testable import ThemeLabCore

/// The leader's C loops (Sources/CKernels/leader.c) against a direct Swift statement of what they compute, bit for bit:
/// the group sums of several sweeps at once, and the nearest group on every path this CPU runs.
@Suite struct LeaderKernelTests {
    static let lengths = [0, 1, 3, 4, 7, 8, 9, 16, 17, 300]

    /// Sums of 1 to 9 sweeps in one call (four per pass, the rest one at a time) equal each sweep's own sums added in
    /// index order, on rows with ties, signed zeros and a NaN, over labels with long runs of one group.
    @Test func groupSumsOfSeveralSweepsAreEachSweepsOwn() {
        var random = SeededRandom(seed: 4)
        for n in Self.lengths {
            let row = (0..<n).map { b -> Float in b == 5 ? .nan : b % 9 == 2 ? -0.0 : Float(Int(random.next() % 201) - 100) / 37 }
            for sweeps in 1...9 {
                let groups = (0..<sweeps).map { s in Int32(1 + s % 5) }
                let labels = groups.map { g in (0..<n).map { b in Int32((b / 3 + Int(random.next() % 2)) % Int(g)) } }
                var sums = groups.map { [Double](repeating: 7, count: Int($0)) }
                withPointers(labels, &sums) { l, s in tl_group_sums_f32(row, n, Int32(sweeps), l, s, groups) }
                for s in 0..<sweeps {
                    var expected = [Double](repeating: 0, count: Int(groups[s]))
                    for b in 0..<n { expected[Int(labels[s][b])] += Double(row[b]) }
                    #expect(sums[s].map(\.bitPattern) == expected.map(\.bitPattern), "n \(n), \(sweeps) sweeps, sweep \(s)")
                }
            }
        }
    }

    /// The nearest group: sums over positive norms (0 otherwise), the first of equals, NaN never chosen, −1 with no group
    /// or only NaN; the same on every path.
    @Test(arguments: KernelPath.available)
    func nearestGroupIsTheFirstHighestQuotient(path: KernelPath) {
        var random = SeededRandom(seed: 8)
        for n in Self.lengths {
            let sums = (0..<n).map { k -> Double in k % 11 == 4 ? .nan : k % 5 == 1 ? -0.0 : Double(Int(random.next() % 9)) / 4 }
            let norms = (0..<n).map { k -> Double in k % 7 == 3 ? 0 : k % 13 == 6 ? -1 : Double(1 + random.next() % 3) }
            var (expected, top) = (-1, -Double.infinity)
            for k in 0..<n {
                let q = norms[k] > 0 ? sums[k] / norms[k] : 0
                if q > top { (expected, top) = (k, q) }
            }
            var quotients = [Double](repeating: 0, count: n)
            var best = 0.0
            let found = tl_nearest_group(path.code, sums, norms, Int32(n), &quotients, &best)
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
