import ThemeLabCore
import ThemeLabPairs

/// The best ARI any threshold can give a threshold-cut grouping: the label-informed ceiling that
/// a rule's regret is measured against (regret = ceiling ARI − rule ARI).
///
/// A grouping cut at t joins every merge with similarity ≥ t, so its partitions are nested and
/// change only at merge similarities. Walking the merges from the most similar, the pair counts
/// of ARI (Hubert & Arabie 1985) update in O(topics of the smaller group) per merge:
///   Σ_g C(|g|,2) grows by |A|·|B|,  Σ_{t,g} C(n_tg,2) grows by Σ_t n_tA·n_tB,
/// so every cut is scored in one sweep. The returned ARI is recomputed by `Recovery` at the
/// chosen threshold, so it equals the figure reported for that cut.
package struct BestCut: Codable, Sendable, Equatable {
    /// Cut here (similarity ≥ threshold joins); +∞ when leaving every item alone is best.
    package var threshold: Double
    package var ari: Double
    package var groups: Int
    /// ARI against the threshold, at most `CurvePoint.limit` points in increasing threshold (the sweep's, thinned), for
    /// the ARI-against-threshold figure; empty when not traced.
    package var curve: [CurvePoint] = []

    package enum CodingKeys: String, CodingKey { case threshold, ari, groups }

    package init(threshold: Double, ari: Double, groups: Int) {
        self.threshold = threshold
        self.ari = ari
        self.groups = groups
    }

    /// `merges` as (a, b, similarity) item pairs in any order; `topics` one label per item.
    package init(items: Int, merges: [(a: Int, b: Int, similarity: Float)], topics: [Int32]) {
        let order = merges.indices.sorted { merges[$0].similarity > merges[$1].similarity }
        let total = Double(items) * Double(items - 1) / 2
        var topicSizes: [Int32: Double] = [:]
        for t in topics { topicSizes[t, default: 0] += 1 }
        let sumTopics = topicSizes.values.reduce(0) { $0 + $1 * ($1 - 1) / 2 }
        func score(cells: Double, groups: Double) -> Double {
            let expected = sumTopics * groups / total
            let maximum = (sumTopics + groups) / 2
            return maximum == expected ? 1 : (cells - expected) / (maximum - expected)
        }
        var sets = UnionFind(count: items)
        // Topic counts per group; a group's root points at its bag, and the smaller bag is
        // poured into the larger.
        var bags: [[Int32: Double]] = topics.map { [$0: 1] }
        var bag = Array(0..<items)
        var size = [Double](repeating: 1, count: items)
        var cells = 0.0
        var samePairs = 0.0
        var best = score(cells: 0, groups: 0)
        var at = Double.infinity
        var traced: [CurvePoint] = []
        var k = 0
        while k < order.count {
            let t = merges[order[k]].similarity
            while k < order.count && merges[order[k]].similarity == t {
                let m = merges[order[k]]
                k += 1
                let ra = sets.find(m.a)
                let rb = sets.find(m.b)
                guard ra != rb else { continue }
                sets.union(ra, rb)
                let root = sets.find(ra)
                samePairs += size[ra] * size[rb]
                let (small, large) = bags[bag[ra]].count < bags[bag[rb]].count ? (bag[ra], bag[rb]) : (bag[rb], bag[ra])
                for (topic, n) in bags[small] { cells += n * (bags[large][topic] ?? 0) }
                for (topic, n) in bags[small] { bags[large][topic, default: 0] += n }
                bags[small] = [:]
                bag[root] = large
                size[root] = size[ra] + size[rb]
            }
            let s = score(cells: cells, groups: samePairs)
            traced.append(CurvePoint(threshold: Double(t), ari: s))
            if s > best {
                best = s
                at = Double(t)
            }
        }
        threshold = at
        let labels = UnionFind.groups(of: items, joining: merges.lazy.filter { Double($0.similarity) >= at }.map { ($0.a, $0.b) })
        ari = Recovery(topics: topics, groups: labels).ari
        groups = Set(labels).count
        curve = CurvePoint.thinned(traced, keeping: at)
    }
}

/// One point of an ARI-against-threshold curve.
package struct CurvePoint: Codable, Sendable, Equatable {
    package var threshold: Double
    package var ari: Double

    package init(threshold: Double, ari: Double) { (self.threshold, self.ari) = (threshold, ari) }

    /// The most points a curve keeps.
    package static let limit = 120

    /// `points` in increasing threshold, thinned to at most `limit` evenly spaced ones, always keeping the ends and the
    /// point at `best`.
    package static func thinned(_ points: [CurvePoint], keeping best: Double) -> [CurvePoint] {
        let sorted = points.sorted { $0.threshold < $1.threshold }
        guard sorted.count > limit else { return sorted }
        let step = Double(sorted.count - 1) / Double(limit - 2)
        var kept = Set((0..<(limit - 1)).map { Int((Double($0) * step).rounded()) })
        if let b = sorted.firstIndex(where: { $0.threshold == best }) { kept.insert(b) }
        return kept.sorted().map { sorted[$0] }
    }
}
