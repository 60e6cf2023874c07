import COpenBLAS
import ThemeLabCore
import ThemeLabMeasures
import ThemeLabMethods
import ThemeLabPairs

/// What the threshold explorer (`ExplorerPage`) needs of one space to redraw it at any threshold: the single- and
/// average-linkage merges with their exact heights, the leader on its threshold grid, the partitions of the groupings
/// that choose their own level, each group's most central entries, and a map of the items. Kept for the corpus's own
/// analysis when a page is asked for; never written into the results JSON.
package struct ExplorerSpace: Sendable, Equatable {
    /// Merges in order: merge k joins the groups of items `a[k]` and `b[k]` when the threshold t ≤ `heights[k]`
    /// (similarity ≥ t joins, as `SpanningForest.labels(atLeast:)` and `Dendrogram.cut(atSimilarity:)` cut).
    package struct Merges: Sendable, Equatable {
        package var a: [Int32] = []
        package var b: [Int32] = []
        /// The harness's Float32 heights, compared with a Float64 threshold after widening.
        package var heights: [Float] = []
        /// The most central entries of the group merge k makes (`centralEntries(alongMerges:vectors:count:)`).
        package var central: [[Int32]] = []
    }

    /// A fixed partition: the leader at one grid threshold, or a grouping that chooses its own level.
    package struct Partition: Sendable, Equatable {
        package var grouping: GroupingKey
        package var threshold: Double?
        /// The rule whose value this threshold is (nil: a grid quantile, or no threshold).
        package var rule: RuleKey?
        /// −1: left out as noise.
        package var labels: [Int32]
        /// Groups of more than `GroupMembers.centralCount` items: their most central entries (`centralEntries`).
        package var central: [Int32: [Int]]
    }

    package var forest: Merges
    /// Nil above `AverageLinkage.maxItems` items, with the reason in `averageNote`.
    package var average: Merges?
    package var averageNote: String?
    /// The leader in corpus order on `LeaderGrouping.thresholdGrid` and every rule's value, lowest first.
    package var leader: [Partition]
    package var fixed: [Partition]
    /// Each item's coordinates on the space's first two principal axes (`PrincipalAxes`).
    package var map: [[Float]]

    /// What the pass must gather for an explorer on `items` items.
    package static func needs(items: Int) -> PassNeeds {
        PassNeeds(spanningForest: true, averageLinkage: items <= AverageLinkage.maxItems)
    }

    /// The explorer of one space: `rows` still hold their partitions; `order` is the leader's visiting order.
    package init(
        _ x: Matrix, pass: PassProducts, thresholds: [ThresholdOutcome], rows: [GroupingOutcome], order: [Int]
    ) throws {
        let edges = try pass.spanningForest().edges
        forest = Merges(edges.map { (Int($0.i), Int($0.j), $0.w) }, vectors: x)
        if pass.gathered.averageLinkage, case .success(let tree) = try pass.dendrogram() {
            average = Merges(tree.merges.map { ($0.a, $0.b, $0.similarity) }, vectors: x)
        } else {
            averageNote = "average linkage holds N(N−1)/2 similarities; it is drawn up to \(AverageLinkage.maxItems) items"
        }
        let ruled = Dictionary(thresholds.compactMap { t in t.value.map { ($0, t.rule) } }, uniquingKeysWith: { a, _ in a })
        let grid = Set(LeaderGrouping.thresholdGrid(pass.distribution)).union(ruled.keys).sorted()
        leader = try zip(grid, LeaderAlgorithm.group(x, thresholds: grid, order: order)).map { t, labels in
            Partition(grouping: LeaderGrouping().key, threshold: t, rule: ruled[t], labels: labels, central: Self.central(labels, x))
        }
        fixed = rows.compactMap { r in
            guard r.rule == nil, let labels = r.partition else { return nil }
            return Partition(grouping: r.grouping, threshold: nil, rule: nil, labels: labels, central: Self.central(labels, x))
        }
        map = try Self.principalCoordinates(x)
    }

    private static func central(_ labels: [Int32], _ x: Matrix) -> [Int32: [Int]] {
        centralEntries(labels, vectors: x, count: GroupMembers.centralCount)
    }

    /// Each row of `x` on the first two principal axes of its covariance (largest variance first), centred on the mean.
    /// Each axis's sign is fixed so that its largest component is positive: LAPACK may return either sign.
    static func principalCoordinates(_ x: Matrix) throws -> [[Float]] {
        guard x.rows >= 2 else { return [[Float](repeating: 0, count: x.rows), [Float](repeating: 0, count: x.rows)] }
        let axes = try PrincipalAxes(x).axes(top: min(2, x.cols))
        let centred = subtracting(columnMean(x), from: x)
        return (0..<2).map { k in
            guard k < axes.count else { return [Float](repeating: 0, count: x.rows) }
            let big = axes[k].indices.max { abs(axes[k][$0]) < abs(axes[k][$1]) } ?? 0
            let axis = axes[k][big] < 0 ? axes[k].map { -$0 } : axes[k]
            var out = [Float](repeating: 0, count: x.rows)
            centred.withUnsafePointer { p in
                cblas_sgemv(CblasRowMajor, CblasNoTrans, Int32(x.rows), Int32(x.cols), 1, p, Int32(x.cols), axis, 1, 0, &out, 1)
            }
            return out
        }
    }
}

extension ExplorerSpace.Merges {
    /// `merges` (a, b, height) in the order given, with the most central entries of the group each makes.
    init(_ merges: [(a: Int, b: Int, height: Float)], vectors x: Matrix) {
        a = merges.map { Int32($0.a) }
        b = merges.map { Int32($0.b) }
        heights = merges.map(\.height)
        central = centralEntries(alongMerges: merges.map { ($0.a, $0.b) }, vectors: x, count: GroupMembers.centralCount)
    }
}

/// The most central entries of the group each merge makes, merges applied in the order given (each joins the groups
/// of its two items): the `count` items with the largest summed cosine similarity to the rest of their group,
/// Σ_{j∈g, j≠i} u_i·u_j (the ranking of `centralEntries`, whose mean divides by |g| − 1), ties to the earlier item;
/// a group of `count` or fewer lists all its items in item order. Each merge of A and B adds u_i·S_B to the score of
/// every i in A and u_j·S_A to every j in B (S: a group's sum of unit vectors), so the cost is d times the summed
/// sizes of the merged groups. A merge of two items already together makes no group (an empty list).
package func centralEntries(alongMerges merges: [(a: Int, b: Int)], vectors x: Matrix, count: Int) -> [[Int32]] {
    let (n, d) = (x.rows, x.cols)
    var sets = UnionFind(count: n)
    var members = (0..<n).map { [Int32($0)] }
    var sums = x.storage
    var score = [Double](repeating: 0, count: n)
    return x.storage.withUnsafeBufferPointer { v in
        merges.map { m -> [Int32] in
            let (ra, rb) = (sets.find(m.a), sets.find(m.b))
            guard ra != rb else { return [] }
            sums.withUnsafeBufferPointer { s in
                for (side, other) in [(ra, rb), (rb, ra)] {
                    for i in members[side] {
                        score[Int(i)] += Double(cblas_sdot(Int32(d), v.baseAddress! + Int(i) * d, 1, s.baseAddress! + other * d, 1))
                    }
                }
            }
            _ = sets.union(ra, rb)
            let keep = sets.find(ra)
            let drop = keep == ra ? rb : ra
            if members[keep].count < members[drop].count { members.swapAt(keep, drop) }
            members[keep] += members[drop]
            members[drop] = []
            sums.withUnsafeMutableBufferPointer { s in for t in 0..<d { s[keep * d + t] += s[drop * d + t] } }
            return mostCentral(members[keep], score: score, count: count)
        }
    }
}

/// The `count` items of `group` with the largest score, ties to the earlier item, most central first; all of a group of
/// `count` or fewer, in item order. One scan: O(|group| · count).
func mostCentral(_ group: [Int32], score: [Double], count: Int) -> [Int32] {
    guard group.count > count else { return group.sorted() }
    var top: [Int32] = []
    for i in group {
        let key = (score[Int(i)], -i)
        guard top.count < count || key > (score[Int(top[count - 1])], -top[count - 1]) else { continue }
        let at = top.firstIndex { key > (score[Int($0)], -$0) } ?? top.count
        top.insert(i, at: at)
        if top.count > count { top.removeLast() }
    }
    return top
}
