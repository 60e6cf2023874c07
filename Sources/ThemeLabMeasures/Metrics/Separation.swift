import COpenBLAS
import ThemeLabCore
import ThemeLabPairs

/// How far related pairs sit from unrelated ones, before any threshold.
package struct Separation: Codable, Sendable, Equatable {
    /// P(related similarity > unrelated similarity), ties counted half (the Mann–Whitney AUC).
    package var auc: Double
    /// d′ = (mean_rel − mean_unrel)/√((var_rel + var_unrel)/2).
    package var dPrime: Double
    /// Unrelated p99 − p1: how narrow the band of unrelated similarities is (claim C1).
    package var bandWidth: Double
    /// For each topic centroid, max − min similarity to other topics' items: median and max over topics.
    package var topicBandMedian: Double
    package var topicBandMax: Double
    /// Upper bound on the AUC's error (0 when computed from the kept values; else the share of
    /// pair comparisons falling in a shared histogram bin, counted as ties).
    package var aucErrorBound: Double

    package init(auc: Double, dPrime: Double, bandWidth: Double, topicBandMedian: Double, topicBandMax: Double, aucErrorBound: Double) {
        self.auc = auc
        self.dPrime = dPrime
        self.bandWidth = bandWidth
        self.topicBandMedian = topicBandMedian
        self.topicBandMax = topicBandMax
        self.aucErrorBound = aucErrorBound
    }

    /// One figure: the keys of their replicate estimates (raw values as the results files name them).
    package enum Figure: String, CaseIterable, Sendable, Codable, CodingKeyRepresentable {
        case auc
        case dPrime = "d_prime"
        case bandWidth = "band_width"
        case topicBandMedian = "topic_band_median"
        case topicBandMax = "topic_band_max"
    }

    package func value(_ figure: Figure) -> Double {
        switch figure {
        case .auc: auc
        case .dPrime: dPrime
        case .bandWidth: bandWidth
        case .topicBandMedian: topicBandMedian
        case .topicBandMax: topicBandMax
        }
    }
}

/// AUC from the pass's distribution: exact over kept values, else from the fine histograms
/// (pairs sharing a bin count as ties; the bound is half their share).
package func areaUnderCurve(_ d: PairDistribution) -> (auc: Double, errorBound: Double)? {
    let (r, u) = (d.related, d.unrelated)
    guard d.isLabeled, r.count > 0, u.count > 0 else { return nil }
    let total = Double(r.count) * Double(u.count)
    if let rel = d.sortedValues(.related), let unrel = d.sortedValues(.unrelated) {
        var below = 0
        var equalEnd = 0
        var wins = 0.0
        for v in rel {
            while below < unrel.count && unrel[below] < v { below += 1 }
            equalEnd = max(equalEnd, below)
            while equalEnd < unrel.count && unrel[equalEnd] == v { equalEnd += 1 }
            wins += Double(below) + 0.5 * Double(equalEnd - below)
        }
        return (wins / total, 0)
    }
    var unrelatedBelow = 0.0
    var wins = 0.0
    var shared = 0.0
    for b in r.histogram.indices {
        let (nr, nu) = (Double(r.histogram[b]), Double(u.histogram[b]))
        wins += nr * (unrelatedBelow + 0.5 * nu)
        shared += nr * nu
        unrelatedBelow += nu
    }
    return (wins / total, 0.5 * shared / total)
}

/// d′ from the exact moments.
package func dPrime(_ d: PairDistribution) -> Double? {
    guard d.isLabeled, d.related.count > 0, d.unrelated.count > 0 else { return nil }
    let pooled = ((d.related.variance + d.unrelated.variance) / 2).squareRoot()
    return pooled > 0 ? (d.related.mean - d.unrelated.mean) / pooled : nil
}

/// Per-topic band: each topic's centroid (normalised mean of its unit vectors) against the
/// items of every other topic; returns max − min per topic (one `sgemm` for all topics).
package func topicBands(_ x: Matrix, labels: [Int32]) -> [Double] {
    let k = Int(labels.max() ?? -1) + 1
    let d = x.cols
    let n = x.rows
    guard k >= 2 else { return [] }
    let centroids = normalisedCentroids(x, labels: labels, groups: k).flatMap { $0 ?? [Float](repeating: 0, count: d) }
    var similarity = [Float](repeating: 0, count: n * k)
    x.storage.withUnsafeBufferPointer { buffer in
        let p = buffer.baseAddress!
        cblas_sgemm(
            CblasRowMajor, CblasNoTrans, CblasTrans, Int32(n), Int32(k), Int32(d), 1, p, Int32(d), centroids, Int32(d), 0, &similarity,
            Int32(k))
    }
    return (0..<k).map { c in
        var lo = Float.infinity
        var hi = -Float.infinity
        for i in 0..<n where Int(labels[i]) != c {
            lo = min(lo, similarity[i * k + c])
            hi = max(hi, similarity[i * k + c])
        }
        return Double(hi - lo)
    }
}
