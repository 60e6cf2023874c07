/// Claim C7: the corpus mean can be kept as per-theme running sums. Each theme keeps the sum
/// of its members' vectors (in Float64) and a count; the corpus mean is the sum of the theme
/// sums over the total count. Float64 addition of Float32 inputs is exact while no partial sum
/// needs more than 53 significant bits, so in practice the two orders give the same bits.
package struct ThemeSums: Sendable {
    package private(set) var sums: [[Double]] = []
    package private(set) var counts: [Int] = []
    package let dimensions: Int

    package init(dimensions: Int) { self.dimensions = dimensions }

    /// Adds a vector to theme `theme` (creating themes as needed).
    package mutating func add(_ vector: ArraySlice<Float>, to theme: Int) {
        while sums.count <= theme {
            sums.append([Double](repeating: 0, count: dimensions))
            counts.append(0)
        }
        for (k, v) in vector.enumerated() { sums[theme][k] += Double(v) }
        counts[theme] += 1
    }

    /// Σ_themes sum / Σ_themes count.
    package var mean: [Double] {
        var total = [Double](repeating: 0, count: dimensions)
        for s in sums { for k in 0..<dimensions { total[k] += s[k] } }
        let n = Double(counts.reduce(0, +))
        return total.map { $0 / n }
    }
}
