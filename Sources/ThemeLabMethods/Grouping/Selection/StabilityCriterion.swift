import ThemeLabCore
import ThemeLabMeasures
import ThemeLabPairs

/// Stability under subsampling (Ben-Hur, Elisseeff & Guyon 2002; Lange, Roth, Braun & Buhmann 2004): for each of
/// `pairs` seeded pairs of random subsamples of ⌈0.8·N⌉ items, average linkage on each, cut at each candidate count;
/// a count's score is the mean ARI of the two cuts over the items both subsamples hold. ARI is already corrected for
/// chance, the correction Lange et al. make against random labellings. Costs 2·pairs more average linkages.
package struct StabilityCriterion: CutCriterion {
    package static let pairs = 5
    package static let fraction = 0.8

    package var name: String { "stability" }
    package var summary: String { "average linkage's cut that agrees most across 5 pairs of 80% subsamples (mean ARI)" }
    package var higherIsBetter: Bool { true }
    package var isSeeded: Bool { true }

    package func scores(_ counts: [Int], tree: Dendrogram, vectors x: Matrix, seed: UInt64) throws -> [Double?] {
        let n = x.rows
        let m = Int((Self.fraction * Double(n)).rounded(.up))
        var sums = [Double](repeating: 0, count: counts.count)
        for b in 0..<Self.pairs {
            let (first, second) = (
                SeededRandom.sample(m, of: n, seed: seed &+ UInt64(2 * b)), SeededRandom.sample(m, of: n, seed: seed &+ UInt64(2 * b + 1))
            )
            let (t1, t2) = (try dendrogram(x.rows(first)), try dendrogram(x.rows(second)))
            var place = [Int](repeating: -1, count: n)
            for (p, i) in second.enumerated() { place[i] = p }
            let shared = first.enumerated().compactMap { p, i in place[i] >= 0 ? (p, place[i]) : nil }
            for (c, k) in counts.enumerated() where k < m {
                let (l1, l2) = (t1.cut(groups: k), t2.cut(groups: k))
                sums[c] += adjustedRandIndex(Contingency(classes: shared.map { l1[$0.0] }, clusters: shared.map { l2[$0.1] }))
            }
        }
        return zip(counts, sums).map { k, sum in k < m ? sum / Double(Self.pairs) : nil }
    }

    /// Average linkage of unit vectors, from a pass of their own.
    func dendrogram(_ x: Matrix) throws -> Dendrogram {
        let linkage = try AverageLinkage(items: x.rows)
        PairEngine().feed(x, consumers: [linkage])
        return linkage.dendrogram()
    }

    package static let entry = CriterionCut.entry(StabilityCriterion())
}
