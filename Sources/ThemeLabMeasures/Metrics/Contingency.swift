import ThemeLabCore
import ThemeLabPairs

/// The contingency table of two labelings of the same items: n_ck = items with class c (topic)
/// and cluster k (group). Every recovery metric is a function of it.
package struct Contingency: Sendable {
    /// Non-zero cells: (class, cluster, count), ordered by class, then cluster.
    package let cells: [(class: Int, cluster: Int, count: Int)]
    /// By class and by cluster, each numbered in order of first appearance: its items.
    package let classSizes: [Int]
    package let clusterSizes: [Int]
    package var total: Int { classSizes.reduce(0, +) }

    package init<C: Hashable, K: Hashable>(classes: [C], clusters: [K]) {
        precondition(classes.count == clusters.count, "one cluster per item")
        self.init(Self.numbered(classes), Self.numbered(clusters))
    }

    /// The same table for integer labels (every grouping's), numbered by table lookups where they are small.
    package init(classes: [Int32], clusters: [Int32]) {
        precondition(classes.count == clusters.count, "one cluster per item")
        self.init(Self.numberedByTable(classes), Self.numberedByTable(clusters))
    }

    /// The table of two numbered labelings: the cells counted by sorting the pairs of numbers.
    private init(_ c: (index: [Int], sizes: [Int]), _ k: (index: [Int], sizes: [Int])) {
        let keys = zip(c.index, k.index).map { $0 << 32 | $1 }.sorted()
        var cells: [(class: Int, cluster: Int, count: Int)] = []
        var start = 0
        for end in 1..<(keys.count + 1) where end == keys.count || keys[end] != keys[start] {
            cells.append((class: keys[start] >> 32, cluster: keys[start] & 0xFFFF_FFFF, count: end - start))
            start = end
        }
        (self.cells, classSizes, clusterSizes) = (cells, c.sizes, k.sizes)
    }

    /// Each label's number, in order of first appearance, and each number's count.
    private static func numbered<L: Hashable>(_ labels: [L]) -> (index: [Int], sizes: [Int]) {
        var numbers: [L: Int] = [:]
        var sizes: [Int] = []
        let index = labels.map { label -> Int in
            if let known = numbers[label] {
                sizes[known] += 1
                return known
            }
            numbers[label] = sizes.count
            sizes.append(1)
            return sizes.count - 1
        }
        return (index, sizes)
    }

    /// The same numbers by a table where the labels are small and not negative, as a grouping's are (else by hashing).
    private static func numberedByTable(_ labels: [Int32]) -> (index: [Int], sizes: [Int]) {
        guard let high = labels.max(), labels.min()! >= 0, Int(high) < 4 * labels.count + 64 else { return numbered(labels) }
        var table = [Int](repeating: -1, count: Int(high) + 1)
        var sizes: [Int] = []
        let index = labels.map { label -> Int in
            if table[Int(label)] < 0 {
                table[Int(label)] = sizes.count
                sizes.append(0)
            }
            sizes[table[Int(label)]] += 1
            return table[Int(label)]
        }
        return (index, sizes)
    }
}
