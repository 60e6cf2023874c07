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

    /// The same table for integer labels (every grouping's), numbered and ordered as the generic one numbers and orders
    /// them, by table lookups and one sort instead of hashing.
    package init(classes: [Int32], clusters: [Int32]) {
        precondition(classes.count == clusters.count, "one cluster per item")
        let (c, k) = (Self.dense(classes), Self.dense(clusters))
        let keys = zip(c.index, k.index).map { $0 << 32 | $1 }.sorted()
        var cells: [(class: Int, cluster: Int, count: Int)] = []
        var start = 0
        for end in 1..<(keys.count + 1) where end == keys.count || keys[end] != keys[start] {
            cells.append((class: keys[start] >> 32, cluster: keys[start] & 0xFFFF_FFFF, count: end - start))
            start = end
        }
        (self.cells, classSizes, clusterSizes) = (cells, c.sizes, k.sizes)
    }

    /// Each label's dense index, numbered by first appearance (by a table where the labels are small and not negative, as
    /// a grouping's are), and each index's count.
    private static func dense(_ labels: [Int32]) -> (index: [Int], sizes: [Int]) {
        let small = (labels.min() ?? 0) >= 0 && Int(labels.max() ?? 0) < 4 * labels.count + 64
        var table = [Int](repeating: -1, count: small ? Int(labels.max() ?? 0) + 1 : 0)
        var numbers: [Int32: Int] = [:]
        var sizes: [Int] = []
        let index = labels.map { label -> Int in
            let known = small ? table[Int(label)] : numbers[label] ?? -1
            if known >= 0 {
                sizes[known] += 1
                return known
            }
            if small { table[Int(label)] = sizes.count } else { numbers[label] = sizes.count }
            sizes.append(1)
            return sizes.count - 1
        }
        return (index, sizes)
    }
}
