import Foundation
import ThemeLabCore
import ThemeLabCorpus
import ThemeLabEncoder
import ThemeLabMeasures
import ThemeLabMethods
import ThemeLabPairs

/// A regroup from scratch of the first N saves, as the journal method does it: centre by their mean, pick
/// the threshold from the histogram of all pairwise similarities, then the leader grouping in
/// save order. Without a threshold (fewer than two items, or a rule with no answer) every item is
/// its own group.
package struct Regroup: Sendable {
    package var labels: [Int32]
    package var threshold: Double?
    /// Group sizes, indexed by label.
    package var sizes: [Int]
    /// Similarities computed: N(N−1)/2 pairs for the threshold plus one per item and existing group.
    package var work: Double
    package var seconds: Double
}

/// Computes fresh regroups of a journal's first N saves for several rules at once: one pass for the
/// centred similarities, one for the histogram, one leader pass per distinct threshold. Reuses its
/// buffers from save to save.
package final class FreshRegroup {
    package static let bins = 256

    package let rules: [ThresholdRule]
    private var pairs: [Double] = []

    package init(rules: [ThresholdRule]) { self.rules = rules }

    /// One regroup per rule of the first `gram.count` saves.
    package func regroups(_ gram: JournalGram) -> [Regroup] {
        let started = Date()
        let n = gram.count
        let pairCount = n * (n - 1) / 2
        if pairs.count < pairCount { pairs = [Double](repeating: 0, count: max(pairCount, 2 * pairs.count)) }
        return pairs.withUnsafeMutableBufferPointer { buffer in
            let s = buffer.baseAddress!
            var thresholds = [Double?](repeating: nil, count: rules.count)
            if n >= 2 {
                let (lo, hi) = gram.centredPairs(into: s)
                let context = Self.context(
                    pairs: UnsafeBufferPointer(start: s, count: pairCount), min: lo, max: hi, dimensions: gram.dimensions)
                thresholds = rules.map { $0.threshold(in: context) }
            }
            let shared = Date().timeIntervalSince(started)
            var done: [Double?: Regroup] = [:]
            return thresholds.map { t in
                if let r = done[t] { return r }
                let leaderStarted = Date()
                var r = Self.leader(s, items: n, threshold: t)
                r.work += Double(pairCount)
                r.seconds = shared + Date().timeIntervalSince(leaderStarted)
                done[t] = r
                return r
            }
        }
    }

    /// What a histogram rule reads: the count, extremes and numpy's 256-bin histogram of the pairs.
    package static func context(pairs: UnsafeBufferPointer<Double>, min lo: Double, max hi: Double, dimensions: Int) -> ThresholdContext {
        var histogram = CoarseHistogram(minimum: lo, maximum: hi, bins: bins)
        var counter = CoarseHistogram.BinCounter(edges: histogram.edges)
        counter.add(pairs)
        histogram.counts = counter.counts().map(Double.init)
        var all = PairAccumulator(bins: 1)
        all.count = pairs.count
        all.min = Float(lo)
        all.max = Float(hi)
        let distribution = PairDistribution(
            related: PairAccumulator(bins: 1), unrelated: all, isLabeled: false, sortedRelated: nil, sortedUnrelated: nil)
        return ThresholdContext(distribution: distribution, dimensions: dimensions, exactCoarse: histogram)
    }

    /// The leader grouping (`LeaderAtThreshold`) of `items` items in save order from their centred similarities `s`
    /// (row a from a(a−1)/2; each item's similarity to itself is 1).
    package static func leader(_ s: UnsafePointer<Double>, items n: Int, threshold t: Double?) -> Regroup {
        guard let t else {
            return Regroup(labels: (0..<n).map(Int32.init), threshold: nil, sizes: .init(repeating: 1, count: n), work: 0, seconds: 0)
        }
        let sweep = LeaderAtThreshold(threshold: t, items: n)
        for a in 0..<n { sweep.visit(s + a * (a - 1) / 2, count: a, selfSimilarity: 1) }
        return Regroup(labels: sweep.labels, threshold: t, sizes: sweep.sizes, work: Double(sweep.comparisons), seconds: 0)
    }
}
