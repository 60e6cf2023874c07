import ThemeLabCore
import ThemeLabPairs

/// The contingency table of two labelings of the same items: n_ck = items with class c (topic)
/// and cluster k (group). Every recovery metric is a function of it.
package struct Contingency: Sendable {
    /// Non-zero cells: (class, cluster, count).
    package let cells: [(class: Int, cluster: Int, count: Int)]
    package let classSizes: [Int]
    package let clusterSizes: [Int]
    package var total: Int { classSizes.reduce(0, +) }

    package init<C: Hashable, K: Hashable>(classes: [C], clusters: [K]) {
        precondition(classes.count == clusters.count, "one cluster per item")
        var classIndex: [C: Int] = [:]
        var clusterIndex: [K: Int] = [:]
        var counts: [Int: Int] = [:]
        var classSizes: [Int] = []
        var clusterSizes: [Int] = []
        /// A label's dense index, numbered by first appearance.
        func index<L: Hashable>(_ label: L, _ indices: inout [L: Int], _ sizes: inout [Int]) -> Int {
            if let i = indices[label] { return i }
            indices[label] = sizes.count
            sizes.append(0)
            return sizes.count - 1
        }
        for (c, k) in zip(classes, clusters) {
            let ci = index(c, &classIndex, &classSizes)
            let ki = index(k, &clusterIndex, &clusterSizes)
            classSizes[ci] += 1
            clusterSizes[ki] += 1
            counts[ci << 32 | ki, default: 0] += 1
        }
        cells = counts.keys.sorted().map { (class: $0 >> 32, cluster: $0 & 0xFFFF_FFFF, count: counts[$0]!) }
        self.classSizes = classSizes
        self.clusterSizes = clusterSizes
    }
}
