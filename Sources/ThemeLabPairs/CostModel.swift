import Foundation
import ThemeLabCore

/// Time and peak memory of the full pairwise pass as functions of N and d, fitted by least
/// squares to `themelab bench pairs --mode full` measurements:
///   time   ≈ P · (2d / F + h),          P = N(N − 1)/2 pairs, F = BLAS flop rate, h = per-pair cost
///                                       of the histograms, spanning forest and reading the tile;
///   memory ≈ m₀ + N · (4·c·d + r),      c = copies of the N×d matrix held, r = bytes per item of the
///                                       forest's snapshot, buffers and labels.
package struct CostModel: Sendable {
    /// One measurement.
    package struct Point: Sendable {
        package var n: Int, d: Int, seconds: Double, peakMiB: Double
        /// The OpenBLAS kernel it ran on, when the line names it.
        package var kernel: String?
        package init(n: Int, d: Int, seconds: Double, peakMiB: Double, kernel: String? = nil) {
            self.n = n
            self.d = d
            self.seconds = seconds
            self.peakMiB = peakMiB
            self.kernel = kernel
        }

        /// A JSON line of `themelab bench pairs` (all values are strings), read at `place` (`FILE:LINE`).
        package init(benchLine line: String, at place: String = "bench line") throws {
            guard let object = try JSONInput.parse(Data(line.utf8), file: place) as? [String: String],
                let n = object["n"].flatMap(Int.init), let d = object["d"].flatMap(Int.init),
                let s = object["seconds"].flatMap(Double.init), let m = object["peak_rss_mib"].flatMap(Double.init)
            else {
                throw ThemeLabError.input("\(place): not a `themelab bench pairs` line: \(line.prefix(80))")
            }
            guard (2...1_000_000_000).contains(n), (1...1_000_000_000).contains(d), s.isFinite, s > 0, m.isFinite, m >= 0 else {
                throw ThemeLabError.input(
                    "\(place): n must be 2 to 10⁹, d 1 to 10⁹, seconds above 0 and peak_rss_mib at least 0: \(line.prefix(80))")
            }
            self.init(n: n, d: d, seconds: s, peakMiB: m, kernel: object["kernel"])
        }

        package var pairs: Double { Double(n) * Double(n - 1) / 2 }

        /// The `themelab bench pairs` lines of a JSONL file, a refusal naming the line.
        package static func read(path: String) throws -> [Point] {
            guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { throw ThemeLabError.input("\(path): cannot read") }
            return try text.split(separator: "\n", omittingEmptySubsequences: false).enumerated().compactMap { k, line in
                guard !line.trimmingCharacters(in: .whitespaces).isEmpty else { return nil }
                return try Point(benchLine: String(line), at: "\(path):\(k + 1)")
            }
        }
    }

    /// Flops per second of the Gram, and seconds per pair of everything else.
    package var flopRate: Double, perPair: Double
    /// Bytes: fixed, per item per dimension, per item.
    package var base: Double, perItemDimension: Double, perItem: Double

    package init(flopRate: Double, perPair: Double, base: Double, perItemDimension: Double, perItem: Double) {
        self.flopRate = flopRate
        self.perPair = perPair
        self.base = base
        self.perItemDimension = perItemDimension
        self.perItem = perItem
    }

    /// An earlier fit of the harness (kernel Zen, 2 cores; slower than both per-kernel fits of docs/performance.md, so conservative),
    /// memory rounded up: what memory checks and `themelab slurm` requests use unless given a fit of their own.
    package static let reference = CostModel(
        flopRate: 157.0e9, perPair: 3.37e-9, base: 52 * 1_048_576, perItemDimension: 8.8, perItem: 1100)

    package init(fitting points: [Point]) throws {
        guard points.count >= 3, Set(points.map(\.d)).count >= 2 else {
            throw ThemeLabError.input("the cost model needs at least 3 measurements over at least 2 values of d")
        }
        // Time: seconds = a · (P·2d) + b · P, weighted by 1/seconds so every size counts alike.
        let t = leastSquares(points.map { [2 * $0.pairs * Double($0.d) / $0.seconds, $0.pairs / $0.seconds] }, points.map { _ in 1 })
        flopRate = 1 / t[0]
        perPair = t[1]
        let m = leastSquares(points.map { [1, Double($0.n) * Double($0.d), Double($0.n)] }, points.map { $0.peakMiB * 1_048_576 })
        base = m[0]
        perItemDimension = m[1]
        perItem = m[2]
    }

    package func seconds(n: Int, d: Int) -> Double {
        let p = Double(n) * Double(n - 1) / 2
        return p * (2 * Double(d) / flopRate + perPair)
    }

    /// Peak memory of a pass over n × d vectors that holds `rows` of them (all by default; fewer in a seeded shard).
    package func peakMiB(n: Int, d: Int, rows: Int? = nil) -> Double {
        (base + perItemDimension * Double(rows ?? n) * Double(d) + perItem * Double(n)) / 1_048_576
    }
}

/// Solves min ‖A·x − b‖² by the normal equations (a handful of unknowns).
package func leastSquares(_ a: [[Double]], _ b: [Double]) -> [Double] {
    let k = a[0].count
    var m = [[Double]](repeating: [Double](repeating: 0, count: k + 1), count: k)
    for (row, y) in zip(a, b) {
        for i in 0..<k {
            for j in 0..<k { m[i][j] += row[i] * row[j] }
            m[i][k] += row[i] * y
        }
    }
    for c in 0..<k {
        let p = (c..<k).max { abs(m[$0][c]) < abs(m[$1][c]) }!
        m.swapAt(c, p)
        for r in 0..<k where r != c && m[c][c] != 0 {
            let f = m[r][c] / m[c][c]
            for j in c...k { m[r][j] -= f * m[c][j] }
        }
    }
    return (0..<k).map { (i: Int) -> Double in m[i][i] == 0 ? 0 : m[i][k] / m[i][i] }
}
