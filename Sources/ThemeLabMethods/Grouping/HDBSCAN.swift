import Foundation
import ThemeLabCore
import ThemeLabMeasures
import ThemeLabPairs

/// HDBSCAN (Campello, Moulavi & Sander 2013; McInnes & Healy 2017) on cosine distance 1 − s:
/// density-based hierarchical clustering that chooses its cuts locally, leaving low-density items
/// as noise. As scikit-learn's `HDBSCAN(metric="precomputed")` computes it:
/// - core distance of an item: its distance to the (k − 1)-th nearest other item (k = `min_samples`,
///   which counts the item itself);
/// - mutual reachability: max(core_a, core_b, d(a, b)); in similarities min(core_a, core_b, s);
/// - its minimum spanning tree, as single-linkage merges at λ = 1 / distance;
/// - the condensed tree: a split where both sides have ≥ m items makes two clusters, smaller sides
///   fall out of their cluster as points at that λ;
/// - stability of a cluster: Σ over its items and child clusters of (λ leaving − λ born) · size;
/// - selection: excess of mass (a cluster is kept unless its children's total stability is larger;
///   never the root) or the leaves of the cluster tree. Items under no selected cluster are noise.
package enum HDBSCAN {
    package enum Selection: String, Sendable, Codable {
        case excessOfMass = "eom"
        case leaf
    }

    /// The condensed tree of a spanning tree's merges.
    package struct CondensedTree: Sendable {
        /// Per cluster (0 is the root): its parent (−1 for the root), λ at birth, child clusters.
        package var parent: [Int]
        package var birth: [Double]
        package var children: [[Int]]
        /// Per cluster: Σ (λ leaving − λ born) · size.
        package var stability: [Double]
        /// Per item: the cluster it last belongs to (it falls out of it, or the cluster ends with it).
        package var itemCluster: [Int]

        /// Debug builds: traps naming the broken invariants (`invariantViolations`); compiled out of release builds.
        package func checkInvariants() {
            #if DEBUG
                let broken = invariantViolations()
                precondition(broken.isEmpty, "condensed tree: \(broken.joined(separator: "; "))")
            #endif
        }

        /// What the tree breaks of its contract: one entry per cluster in each list; the root (0) has parent −1;
        /// every other cluster is numbered after its parent, born at a λ no lower, and one of its parent's two
        /// children (the children lists are the parent links, in order); no stability is negative (∞ − ∞ at λ = ∞
        /// gives NaN, let through); every item is in a cluster.
        package func invariantViolations() -> [String] {
            let count = parent.count
            guard count > 0, [birth.count, children.count, stability.count].allSatisfy({ $0 == count }) else {
                return ["\(count) parents, \(birth.count) births, \(children.count) children lists, \(stability.count) stabilities"]
            }
            var broken: [String] = []
            if parent[0] != -1 { broken.append("the root's parent is \(parent[0]), not −1") }
            var expected = [[Int]](repeating: [], count: count)
            for c in 1..<count {
                let p = parent[c]
                guard 0 <= p && p < c else {
                    broken.append("cluster \(c) has parent \(p), not one numbered before it")
                    continue
                }
                expected[p].append(c)
                if !(birth[c] >= birth[p]) { broken.append("cluster \(c) is born at λ \(birth[c]) below its parent's \(birth[p])") }
            }
            if children != expected { broken.append("the children lists are not the parent links") }
            if let c = expected.firstIndex(where: { ![0, 2].contains($0.count) }) { broken.append("cluster \(c) does not split in two") }
            if let c = stability.firstIndex(where: { $0 < 0 }) { broken.append("cluster \(c) has negative stability \(stability[c])") }
            if let v = itemCluster.firstIndex(where: { !(0..<count).contains($0) }) {
                broken.append("item \(v) is in cluster \(itemCluster[v]), not one of 0..<\(count)")
            }
            return broken
        }
    }

    /// The single-linkage hierarchy of a spanning tree, heaviest edge first: merge e makes node n + e of `left[e]` and
    /// `right[e]` at λ = 1 / distance; `size` of every node.
    package static func hierarchy(items n: Int, tree: [SpanningForest.Edge]) -> (left: [Int], right: [Int], lambda: [Double], size: [Int]) {
        var sets = UnionFind(count: n)
        var node = Array(0..<n)  // the hierarchy node of each set's root
        var left = [Int](repeating: 0, count: n - 1)
        var right = [Int](repeating: 0, count: n - 1)
        var lambda = [Double](repeating: 0, count: n - 1)
        var size = [Int](repeating: 1, count: 2 * n - 1)
        for (e, edge) in tree.enumerated() {
            let (a, b) = (sets.find(Int(edge.i)), sets.find(Int(edge.j)))
            (left[e], right[e]) = (node[a], node[b])
            let distance = 1 - Double(edge.w)
            lambda[e] = distance > 0 ? 1 / distance : .infinity
            size[n + e] = size[left[e]] + size[right[e]]
            sets.union(a, b)
            node[sets.find(a)] = n + e
        }
        return (left, right, lambda, size)
    }

    /// The condensed tree for minimum cluster size `m`, from a maximum spanning tree of
    /// mutual-reachability similarities, heaviest edge first.
    package static func condense(items n: Int, tree: [SpanningForest.Edge], minClusterSize m: Int) -> CondensedTree {
        precondition(tree.count == n - 1, "a spanning tree of \(n) items has \(n - 1) edges")
        let (left, right, lambda, size) = hierarchy(items: n, tree: tree)
        var out = CondensedTree(parent: [-1], birth: [0], children: [[]], stability: [0], itemCluster: [Int](repeating: 0, count: n))
        guard n > 1 else { return out }
        /// Every item under hierarchy node `top` leaves `cluster` at `at`.
        func fallOut(_ top: Int, from cluster: Int, at: Double) {
            var stack = [top]
            while let v = stack.popLast() {
                if v < n {
                    out.itemCluster[v] = cluster
                    out.stability[cluster] += at - out.birth[cluster]
                } else {
                    stack.append(left[v - n])
                    stack.append(right[v - n])
                }
            }
        }
        var stack = [(node: 2 * n - 2, cluster: 0)]
        while let (v, c) = stack.popLast() {
            let e = v - n
            let (l, r, at) = (left[e], right[e], lambda[e])
            switch (size[l] >= m, size[r] >= m) {
            case (true, true):
                for side in [l, r] {
                    let child = out.parent.count
                    out.parent.append(c)
                    out.birth.append(at)
                    out.children.append([])
                    out.stability.append(0)
                    out.children[c].append(child)
                    out.stability[c] += (at - out.birth[c]) * Double(size[side])
                    if side >= n { stack.append((side, child)) } else { out.itemCluster[side] = child }
                }
            case (false, false):
                fallOut(l, from: c, at: at)
                fallOut(r, from: c, at: at)
            case (true, false):
                fallOut(r, from: c, at: at)
                if l >= n { stack.append((l, c)) } else { fallOut(l, from: c, at: at) }
            case (false, true):
                fallOut(l, from: c, at: at)
                if r >= n { stack.append((r, c)) } else { fallOut(r, from: c, at: at) }
            }
        }
        out.checkInvariants()
        return out
    }

    /// The selected clusters' labels (numbered by first appearance), −1 for noise.
    package static func labels(_ tree: CondensedTree, selection: Selection) -> [Int32] {
        let count = tree.parent.count
        var selected = [Bool](repeating: false, count: count)
        switch selection {
        case .excessOfMass:
            // Bottom-up (children are numbered after their parents): a cluster wins unless its
            // children's total (each already the larger of its own and its children's) is larger.
            var best = tree.stability
            var wins = [Bool](repeating: false, count: count)
            for c in (1..<count).reversed() {
                let below = tree.children[c].reduce(0.0) { $0 + best[$1] }
                if below > best[c] { best[c] = below } else { wins[c] = true }
            }
            // Kept: a winner with no winning ancestor.
            var covered = [Bool](repeating: false, count: count)
            for c in 1..<count {
                let p = tree.parent[c]
                selected[c] = wins[c] && !covered[p]
                covered[c] = covered[p] || wins[c]
            }
        case .leaf:
            for c in 1..<count where tree.children[c].isEmpty { selected[c] = true }
        }
        // Each cluster's selected ancestor-or-self (top-down, parents first).
        var owner = [Int](repeating: -1, count: count)
        for c in 1..<count { owner[c] = selected[c] ? c : owner[tree.parent[c]] }
        return renumbered(tree.itemCluster.map { Int32(owner[$0]) })
    }
}

/// `hdbscan(m)`, `hdbscan(m,k)` (excess of mass) and `hdbscan-leaf(m)`, `hdbscan-leaf(m,k)` (leaf
/// selection): m = minimum cluster size (≥ 2), k = neighbours for the core distance counting the item
/// itself (scikit-learn's `min_samples`; default m). Two passes, both planned: the neighbours in the analysis's,
/// then the mutual-reachability tree in one of its own (shared by every m at that k). Noise is −1.
package struct HDBSCANGrouping: Grouping {
    package var minClusterSize: Int
    package var neighbours: Int
    package var selection: HDBSCAN.Selection

    package init(minClusterSize: Int, neighbours: Int? = nil, selection: HDBSCAN.Selection = .excessOfMass) {
        self.minClusterSize = minClusterSize
        self.neighbours = neighbours ?? minClusterSize
        self.selection = selection
    }

    /// From arguments its entry's `parameters` have checked.
    package init(_ parsed: RuleName) {
        self.init(
            minClusterSize: parsed.whole(at: 0)!, neighbours: parsed.whole(at: 1),
            selection: parsed.base == "hdbscan-leaf" ? .leaf : .excessOfMass)
    }

    package var name: String {
        "\(selection == .leaf ? "hdbscan-leaf" : "hdbscan")(\(minClusterSize)\(neighbours == minClusterSize ? "" : ",\(neighbours)"))"
    }
    package var kind: GroupingKind { .cutsItself }
    /// The core distances read k − 1 neighbours; the tree at this k is shared by every m.
    package func needs(items: Int) -> PassNeeds { PassNeeds(neighbours: neighbours - 1, reachabilityTrees: [neighbours]) }

    package func labels(_ pass: PassProducts, minClusterSize m: Int) throws -> [Int32] {
        let tree = try pass.reachabilityTree(k: neighbours)
        return HDBSCAN.labels(HDBSCAN.condense(items: pass.vectors.rows, tree: tree, minClusterSize: m), selection: selection)
    }

    package func groups(_ request: GroupingRequest, in pass: PassProducts) throws -> GroupingCut {
        if let note = tooFewItems(name, neighbours: neighbours, items: pass.vectors.rows) { return GroupingCut(labels: nil, note: note) }
        return GroupingCut(labels: try labels(pass, minClusterSize: minClusterSize))
    }

    /// Its own ceiling: the best m at this k.
    package func ceiling(in pass: PassProducts, topics: [Int32], request: GroupingRequest) throws -> Ceiling? {
        guard tooFewItems(name, neighbours: neighbours, items: pass.vectors.rows) == nil else { return nil }
        let grid = Set([2, 3, 4, 5, 6, 8, 10, 12, 15, 20, 25, 30, 40, 50, 75, 100, minClusterSize].filter { $0 <= pass.vectors.rows })
        return try bestParameter(key, "m", values: grid.sorted().map(Double.init), topics: topics) {
            try labels(pass, minClusterSize: Int($0))
        }
    }
}

extension HDBSCANGrouping {
    /// m, then k.
    static let parameters: [Parameter] = [
        .count("the minimum cluster size m", from: 2, required: "the minimum cluster size m"), .count("k"),
    ]

    /// Its registry entry (`groupingRegistry`).
    package static let entry = RegistryEntry<any Grouping>(
        "hdbscan", forms: ["hdbscan(m)", "hdbscan(m,k)"], parameters: Self.parameters,
        summary: "HDBSCAN, excess of mass: minimum cluster size m, k neighbours for the core distance (default m)",
        examples: ["hdbscan(3)"]
    ) { HDBSCANGrouping($0) }

    package static let leafEntry = RegistryEntry<any Grouping>(
        "hdbscan-leaf", forms: ["hdbscan-leaf(m)", "hdbscan-leaf(m,k)"], parameters: Self.parameters,
        summary: "HDBSCAN with leaf selection", examples: ["hdbscan-leaf(3,2)"]
    ) { HDBSCANGrouping($0) }
}
