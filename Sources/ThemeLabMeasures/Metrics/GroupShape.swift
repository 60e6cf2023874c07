import ThemeLabCore
import ThemeLabPairs

/// Purity: each group votes for its most common topic; the share of items that match their
/// group's vote, Σₖ maxᶜ n_ck / n (Manning et al. 2008, §16.3).
package func purity(_ c: Contingency) -> Double {
    var best = [Int](repeating: 0, count: c.clusterSizes.count)
    for cell in c.cells { best[cell.cluster] = max(best[cell.cluster], cell.count) }
    return c.total > 0 ? Double(best.reduce(0, +)) / Double(c.total) : 1  // no item, none mismatched
}

/// The share of items that sit alone in their group.
package func singletonShare(_ c: Contingency) -> Double {
    c.total > 0 ? Double(c.clusterSizes.filter { $0 == 1 }.count) / Double(c.total) : 0
}

/// The share of items in the largest group (1 means everything collapsed into one group).
package func largestGroupShare(_ c: Contingency) -> Double {
    c.total > 0 ? Double(c.clusterSizes.max() ?? 0) / Double(c.total) : 0
}
