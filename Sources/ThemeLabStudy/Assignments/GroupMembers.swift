import ThemeLabCore
import ThemeLabCorpus
import ThemeLabMethods

/// Which entries form each group of one cell (space × rule × grouping): the partition, and the most central entries
/// of each group. Kept for the corpus's own analysis (not its replicates), never written into the results JSON:
/// `assignments` files and the groups listing render it.
package struct GroupMembers: Sendable, Equatable {
    /// The group of each item (−1: left out as noise).
    package var labels: [Int32]
    /// Per group of more than `centralCount` items, its `centralCount` most central ones (`centralEntries`), most central
    /// first; a smaller group is kept nowhere else than in `labels` (every one of its items is central).
    package var central: [Int32: [Int]]

    /// How many entries of a group are called its most central.
    package static let centralCount = 3

    package init(labels: [Int32], vectors x: Matrix) {
        self.labels = labels
        central = centralEntries(labels, vectors: x, count: Self.centralCount)
    }

    /// Items per group (noise under −1).
    package var sizes: [Int32: Int] { labels.reduce(into: [:]) { $0[$1, default: 0] += 1 } }

    /// A group's most central items, most central first: all of a group of `centralCount` or fewer, in item order.
    package func central(of group: Int32) -> [Int] {
        central[group] ?? (group >= 0 ? labels.indices.filter { labels[$0] == group } : [])
    }

    /// Whether each item is one of its group's most central ones (an item left out as noise is not).
    package var isCentral: [Bool] {
        let sizes = self.sizes
        var flags = labels.map { $0 >= 0 && sizes[$0]! <= Self.centralCount }
        for i in central.values.joined() { flags[i] = true }
        return flags
    }

    /// The groups, largest first (then by number); noise last.
    package var groupsBySize: [(group: Int32, size: Int)] {
        sizes.filter { $0.key >= 0 }.sorted { ($0.value, -$0.key) > ($1.value, -$1.key) }.map { ($0.key, $0.value) }
    }
}

/// The `count` items of each group of more than `count` items with the largest mean cosine similarity to the rest of
/// their group,
///     m_i = (u_i · Σ_{j∈g} u_j − u_i · u_i) / (|g| − 1),
/// on the space's unit vectors u; ties go to the earlier item. A smaller group (all its items) and noise (−1) have no
/// entry. O(N·d): one sum per group, one dot product per item.
package func centralEntries(_ labels: [Int32], vectors x: Matrix, count: Int) -> [Int32: [Int]] {
    var members: [Int32: [Int]] = [:]
    for (i, g) in labels.enumerated() where g >= 0 { members[g, default: []].append(i) }
    var out: [Int32: [Int]] = [:]
    for (g, items) in members where items.count > count {
        var sum = [Float](repeating: 0, count: x.cols)
        for i in items {
            let row = x.row(i)
            sum.withUnsafeMutableBufferPointer { s in for (k, v) in row.enumerated() { s[k] += v } }
        }
        let score = items.map { i -> Double in
            let row = x.row(i)
            let toSum = zip(row, sum).reduce(0.0) { $0 + Double($1.0) * Double($1.1) }
            let toSelf = row.reduce(0.0) { $0 + Double($1) * Double($1) }
            return (toSum - toSelf) / Double(items.count - 1)
        }
        out[g] = items.indices.sorted { (score[$0], -$0) > (score[$1], -$1) }.prefix(count).map { items[$0] }
    }
    return out
}
