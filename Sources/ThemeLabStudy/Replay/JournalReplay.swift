import Foundation
import ThemeLabCore
import ThemeLabCorpus
import ThemeLabEncoder
import ThemeLabMeasures
import ThemeLabMethods
import ThemeLabPairs

/// One replay of a journal in one order: every policy, for every rule, on the same timeline.
///
/// The first `initial` saves are the journal as it stands at the first launch: one regroup over
/// them is every policy's starting point and the first record. Launch L ≥ 1 then holds the next
/// `launch` saves. At each later save n (N = n + 1 items):
/// 1. a policy that regroups at launch, at the first save of a launch, adopts the fresh regroup of
///    the items before it (unless its last regroup already covers them);
/// 2. if the policy asks for a regroup after this save (or its last regroup gave no threshold), it
///    adopts the fresh regroup of all N items; otherwise the save is assigned incrementally;
/// 3. the shown grouping is recorded against the labels and against the fresh regroup of N items.
/// The fresh regroup at each save is computed once per rule and shared by every policy.
package struct JournalReplay {
    package let launch: Int
    package let initial: Int
    package let rules: [ThresholdRule]
    package let policies: [RegroupPolicy]

    package init(launch: Int, initial: Int, rules: [ThresholdRule], policies: [RegroupPolicy]) {
        self.launch = launch
        self.initial = initial
        self.rules = rules
        self.policies = policies
    }

    /// What one policy showed at each recorded save (saves `initial − 1` … end).
    package struct Timeline: Sendable {
        package var ari: [Double] = []
        package var staleness: [Double] = []
        package var largestShare: [Double] = []
        package var groups: [Double] = []
        package var regroups: [Double] = []
        /// Cumulative similarities computed (regroups and incremental steps).
        package var work: [Double] = []
        /// Cumulative seconds of the policy's own work.
        package var seconds: [Double] = []
    }

    /// A policy's state while replaying.
    package struct Track {
        package var regroup: Regroup
        package var itemsAtRegroup: Int
        package var meanSquareAtRegroup: Double
        package var incremental: IncrementalGroups?
        package var regroups = 0
        package var work = 0.0
        package var seconds = 0.0
        package var timeline = Timeline()

        package var labels: [Int32] { incremental?.labels ?? regroup.labels }
        package var sizes: [Int] { incremental?.sizes ?? regroup.sizes }

        package mutating func adopt(_ r: Regroup, items: Int, meanSquare: Double) {
            regroup = r
            itemsAtRegroup = items
            meanSquareAtRegroup = meanSquare
            incremental = nil
            regroups += 1
            work += r.work
            seconds += r.seconds
        }
    }

    /// Timelines indexed [rule][policy], for unit vectors `u` (corpus order) with dense `topics`, saved in `order`.
    package func run(_ u: Matrix, topics: [Int32], order: [Int]) throws -> [[Timeline]] {
        let n = order.count
        guard initial >= 2 && initial <= n else {
            throw ThemeLabError.input("replay: 'initial' is \(initial); it must be at least 2 and at most the journal's \(n) items")
        }
        let gram = JournalGram(u, order: order)
        let fresh = FreshRegroup(rules: rules)
        let journalTopics = order.map { topics[$0] }
        for _ in 0..<initial { gram.addSave() }
        var current = fresh.regroups(gram)
        var tracks = startingTracks(current, meanSquare: gram.meanSquare)
        record(initial, &tracks, current: current, topics: journalTopics)
        var built = [StartingGroups](repeating: StartingGroups(), count: rules.count)
        for a in initial..<n {
            let before = current
            let meanSquareBefore = gram.meanSquare
            gram.addSave()
            current = fresh.regroups(gram)
            let launchStarts = (a - initial) % launch == 0
            for r in rules.indices {
                for (p, policy) in policies.enumerated() {
                    if policy.regroupsAtLaunch && launchStarts && tracks[r][p].itemsAtRegroup < a {
                        tracks[r][p].adopt(before[r], items: a, meanSquare: meanSquareBefore)
                    }
                    advance(&tracks[r][p], policy, save: a, fresh: current[r], gram: gram, built: &built[r])
                }
                built[r].keepOnly(items: Set(tracks[r].map(\.itemsAtRegroup)))
            }
            record(a + 1, &tracks, current: current, topics: journalTopics)
        }
        return tracks.map { $0.map(\.timeline) }
    }

    /// Every rule's track of every policy, each starting from the rule's first regroup, counted as its first.
    private func startingTracks(_ first: [Regroup], meanSquare: Double) -> [[Track]] {
        first.map { r in
            policies.map { _ in
                var t = Track(regroup: r, itemsAtRegroup: initial, meanSquareAtRegroup: meanSquare)
                t.adopt(r, items: initial, meanSquare: meanSquare)
                return t
            }
        }
    }

    /// Appends what every track shows after `n` saves to its timeline, against the labels and the fresh regroups `current`.
    private func record(_ n: Int, _ tracks: inout [[Track]], current: [Regroup], topics journalTopics: [Int32]) {
        let topicsSoFar = Array(journalTopics[0..<n])
        for r in rules.indices {
            for p in policies.indices {
                let labels = tracks[r][p].labels
                let sizes = tracks[r][p].sizes
                let (regroups, work, seconds) = (tracks[r][p].regroups, tracks[r][p].work, tracks[r][p].seconds)
                // Appended in place: a copy of the timeline would copy every array at every save.
                tracks[r][p].timeline.ari.append(adjustedRandIndex(PairConfusion(denseClasses: topicsSoFar, clusters: labels)))
                tracks[r][p].timeline.staleness.append(
                    adjustedRandIndex(PairConfusion(denseClasses: current[r].labels, clusters: labels)))
                tracks[r][p].timeline.largestShare.append(Double(sizes.max() ?? 0) / Double(n))
                tracks[r][p].timeline.groups.append(Double(sizes.count))
                tracks[r][p].timeline.regroups.append(Double(regroups))
                tracks[r][p].timeline.work.append(work)
                tracks[r][p].timeline.seconds.append(seconds)
            }
        }
    }

    /// Save `a` on one policy's track: it adopts `regroup`, the fresh regroup of all a + 1 items, if the policy asks for
    /// a regroup (or its last regroup gave no threshold); otherwise the save is assigned incrementally.
    private func advance(
        _ track: inout Track, _ policy: RegroupPolicy, save a: Int, fresh regroup: Regroup, gram: JournalGram, built: inout StartingGroups
    ) {
        let (itemsThen, squareThen) = (track.itemsAtRegroup, track.meanSquareAtRegroup)
        let context = SaveContext(
            items: a + 1, itemsAtLastRegroup: itemsThen,
            meanCosine: { gram.meanCosine(then: itemsThen, meanSquareThen: squareThen) })
        if track.regroup.threshold == nil || policy.regroups(after: context) {
            track.adopt(regroup, items: a + 1, meanSquare: gram.meanSquare)
            return
        }
        // Taken out of the track while it changes, so its sums are never copied (but once from a shared start).
        var groups: IncrementalGroups
        if let own = track.incremental {
            groups = own
        } else {
            let start = built.groups(items: itemsThen) {
                IncrementalGroups(regroup: track.regroup, mean: gram.mean(of: itemsThen), vectors: gram.vectors)
            }
            (groups, track.seconds) = (start.groups, track.seconds + start.seconds)
        }
        track.incremental = nil
        let started = Date()
        track.work += Double(groups.assign(gram.vectors, row: a))
        track.incremental = groups
        track.seconds += Date().timeIntervalSince(started)
    }
}

/// One rule's incremental groups as the fresh regroup of N saves leaves them, by N: every policy that adopted that regroup
/// starts its incremental assignment from the same groups (the same labels, centred by the same mean), so they are built
/// once and each policy takes a copy. Each policy is still charged the seconds the build took, as it would be alone.
private struct StartingGroups {
    private var kept: [Int: (groups: IncrementalGroups, seconds: Double)] = [:]

    /// The groups after the regroup of `items` saves, built by `make` if no policy has asked for them yet.
    mutating func groups(items: Int, _ make: () -> IncrementalGroups) -> (groups: IncrementalGroups, seconds: Double) {
        if let known = kept[items] { return known }
        let started = Date()
        let made = (groups: make(), seconds: Date().timeIntervalSince(started))
        kept[items] = made
        return made
    }

    /// Drops the groups of regroups no policy stands on any more.
    mutating func keepOnly(items: Set<Int>) { kept = kept.filter { items.contains($0.key) } }
}
