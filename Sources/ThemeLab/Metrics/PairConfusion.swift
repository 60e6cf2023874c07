/// Pair counts of two labelings, as scikit-learn's `pair_confusion_matrix`: over ordered pairs
/// of distinct items, tp = same class and same cluster, fp = same cluster only, fn = same class
/// only, tn = neither. (Each unordered pair counts twice; ratios are unaffected.)
public struct PairConfusion: Sendable, Equatable {
    public var tp: Double, fp: Double, fn: Double, tn: Double
}

extension PairConfusion {
    public init(_ c: Contingency) {
        let n = Double(c.total)
        let sumSquares = c.cells.reduce(0.0) { $0 + Double($1.count) * Double($1.count) }
        tp = sumSquares - n
        fp = c.cells.reduce(0.0) { $0 + Double($1.count) * Double(c.clusterSizes[$1.cluster]) } - sumSquares
        fn = c.cells.reduce(0.0) { $0 + Double($1.count) * Double(c.classSizes[$1.class]) } - sumSquares
        tn = n * n - fp - fn - sumSquares
    }
}

/// Adjusted Rand index (Hubert & Arabie 1985), in scikit-learn's pair-count form:
/// ARI = 2(tp·tn − fn·fp) / ((tp + fn)(fn + tn) + (tp + fp)(fp + tn)); 1 when fn = fp = 0.
public func adjustedRandIndex(_ c: Contingency) -> Double {
    let p = PairConfusion(c)
    if p.fn == 0 && p.fp == 0 { return 1 }
    return 2 * (p.tp * p.tn - p.fn * p.fp) / ((p.tp + p.fn) * (p.fn + p.tn) + (p.tp + p.fp) * (p.fp + p.tn))
}

/// Pair precision: of the pairs grouped together, the share that share a topic. nil when no
/// pair is grouped together (every group a singleton).
public func pairPrecision(_ c: Contingency) -> Double? {
    let p = PairConfusion(c)
    return p.tp + p.fp > 0 ? p.tp / (p.tp + p.fp) : nil
}

/// Pair recall: of the same-topic pairs, the share grouped together. nil when no topic has two items.
public func pairRecall(_ c: Contingency) -> Double? {
    let p = PairConfusion(c)
    return p.tp + p.fn > 0 ? p.tp / (p.tp + p.fn) : nil
}

/// Pair F1 = 2tp/(2tp + fp + fn); 0 when nothing is grouped right, nil when there are no pairs at all.
public func pairF1(_ c: Contingency) -> Double? {
    let p = PairConfusion(c)
    let denominator = 2 * p.tp + p.fp + p.fn
    return denominator > 0 ? 2 * p.tp / denominator : nil
}
