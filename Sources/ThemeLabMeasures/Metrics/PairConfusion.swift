import ThemeLabCore
import ThemeLabPairs

/// Pair counts of two labelings, as scikit-learn's `pair_confusion_matrix`: over ordered pairs
/// of distinct items, tp = same class and same cluster, fp = same cluster only, fn = same class
/// only, tn = neither. (Each unordered pair counts twice; ratios are unaffected.)
package struct PairConfusion: Sendable, Equatable {
    package var tp: Double, fp: Double, fn: Double, tn: Double
}

extension PairConfusion {
    package init(_ c: Contingency) {
        let n = Double(c.total)
        let sumSquares = c.cells.reduce(0.0) { $0 + Double($1.count) * Double($1.count) }
        tp = sumSquares - n
        fp = c.cells.reduce(0.0) { $0 + Double($1.count) * Double(c.clusterSizes[$1.cluster]) } - sumSquares
        fn = c.cells.reduce(0.0) { $0 + Double($1.count) * Double(c.classSizes[$1.class]) } - sumSquares
        tn = n * n - fp - fn - sumSquares
    }
}

extension PairConfusion {
    /// The same counts for labels numbered 0, 1, … (no noise), without building the table: items are
    /// bucketed by class, and within a class each item adds the count of earlier same-cluster items
    /// (Σ C(n_ck, 2) grows by n_ck at each new member). O(N + classes + clusters); for the replay,
    /// which compares groupings at every save.
    package init(denseClasses classes: [Int32], clusters: [Int32]) {
        precondition(classes.count == clusters.count, "one cluster per item")
        let n = classes.count
        let classCount = Int(classes.max() ?? -1) + 1
        let clusterCount = Int(clusters.max() ?? -1) + 1
        precondition(classes.allSatisfy { $0 >= 0 } && clusters.allSatisfy { $0 >= 0 }, "labels must be numbered from 0")
        var start = [Int](repeating: 0, count: classCount + 1)
        for c in classes { start[Int(c) + 1] += 1 }
        for c in 0..<classCount { start[c + 1] += start[c] }
        var byClass = [Int32](repeating: 0, count: n)
        var next = start
        for (i, c) in classes.enumerated() {
            byClass[next[Int(c)]] = clusters[i]
            next[Int(c)] += 1
        }
        var inCell = [Int](repeating: 0, count: clusterCount)
        var clusterSizes = [Int](repeating: 0, count: clusterCount)
        var sameCell = 0
        var sameClass = 0
        for c in 0..<classCount {
            let members = byClass[start[c]..<start[c + 1]]
            for k in members {
                sameCell += inCell[Int(k)]
                inCell[Int(k)] += 1
                clusterSizes[Int(k)] += 1
            }
            for k in members { inCell[Int(k)] = 0 }
            sameClass += members.count * (members.count - 1) / 2
        }
        let sameCluster = clusterSizes.reduce(0) { $0 + $1 * ($1 - 1) / 2 }
        // Ordered pairs, as the contingency form counts them.
        tp = 2 * Double(sameCell)
        fp = 2 * Double(sameCluster - sameCell)
        fn = 2 * Double(sameClass - sameCell)
        tn = Double(n) * Double(n - 1) - tp - fp - fn
    }
}

/// Adjusted Rand index (Hubert & Arabie 1985), in scikit-learn's pair-count form:
/// ARI = 2(tp·tn − fn·fp) / ((tp + fn)(fn + tn) + (tp + fp)(fp + tn)); 1 when fn = fp = 0.
package func adjustedRandIndex(_ c: Contingency) -> Double { adjustedRandIndex(PairConfusion(c)) }

/// The same from pair counts.
package func adjustedRandIndex(_ p: PairConfusion) -> Double {
    if p.fn == 0 && p.fp == 0 { return 1 }
    return 2 * (p.tp * p.tn - p.fn * p.fp) / ((p.tp + p.fn) * (p.fn + p.tn) + (p.tp + p.fp) * (p.fp + p.tn))
}

/// Pair precision: of the pairs grouped together, the share that share a topic. nil when no
/// pair is grouped together (every group a singleton).
package func pairPrecision(_ c: Contingency) -> Double? {
    let p = PairConfusion(c)
    return p.tp + p.fp > 0 ? p.tp / (p.tp + p.fp) : nil
}

/// Pair recall: of the same-topic pairs, the share grouped together. nil when no topic has two items.
package func pairRecall(_ c: Contingency) -> Double? {
    let p = PairConfusion(c)
    return p.tp + p.fn > 0 ? p.tp / (p.tp + p.fn) : nil
}

/// Pair F1 = 2tp/(2tp + fp + fn); 0 when nothing is grouped right, nil when there are no pairs at all.
package func pairF1(_ c: Contingency) -> Double? {
    let p = PairConfusion(c)
    let denominator = 2 * p.tp + p.fp + p.fn
    return denominator > 0 ? 2 * p.tp / denominator : nil
}
