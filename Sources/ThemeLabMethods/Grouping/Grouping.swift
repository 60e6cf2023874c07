import ThemeLabCore
import ThemeLabMeasures
import ThemeLabPairs

/// A way to turn similarities into groups. Adding one is a file with a type conforming to this
/// protocol and its registry entry, plus a line in `groupingRegistry`.
package protocol Grouping: Sendable {
    /// The name used on the command line, in experiment files and in reports.
    var name: String { get }
    /// How its rows are made: at each rule's threshold, at cuts of its own, or told the number of topics.
    var kind: GroupingKind { get }
    /// What its partition depends on besides the vectors: the visiting order, a seed (the study reruns such a grouping
    /// under another of each and reports the agreement, `GroupingOutcome.rerunARI`).
    var dependsOn: RunDependence { get }
    /// What the pairwise pass must gather for it on a corpus of `items` items; it reads nothing else of the pass.
    func needs(items: Int) -> PassNeeds
    /// The groups for `request.target` (a threshold, the number of topics, or its own cuts); a note
    /// instead when the corpus cannot give what it needs. Callers ask through `cut`.
    func groups(_ request: GroupingRequest, in pass: PassProducts) throws -> GroupingCut
    /// A threshold grouping's groups at each of `thresholds` (`groups` with each as the target): one call, so a grouping
    /// whose thresholds can share work does it once.
    func groups(at thresholds: [Double], _ request: GroupingRequest, in pass: PassProducts) throws -> [GroupingCut]
    /// The best ARI any threshold or parameter gives it (label-informed), when it has one, searched over cuts or
    /// values fixed by the data alone, never by the rules an analysis asks for.
    func ceiling(in pass: PassProducts, topics: [Int32], request: GroupingRequest) throws -> Ceiling?
}

/// How a grouping's rows are made.
package enum GroupingKind: Sendable, Equatable {
    /// Cut at each threshold rule's value: one row per rule.
    case threshold
    /// Chooses its cuts itself (HDBSCAN, Leiden): one row, no threshold rule.
    case cutsItself
    /// Told k = the number of topics: an upper bound, never a method; labeled corpora only.
    case labelInformedReference
}

extension Grouping {
    /// Its name as a value, the key of its rows.
    package var key: GroupingKey { GroupingKey(name) }
    package var kind: GroupingKind { .threshold }
    package var dependsOn: RunDependence { [] }
    package func needs(items: Int) -> PassNeeds { PassNeeds() }
    package func groups(at thresholds: [Double], _ request: GroupingRequest, in pass: PassProducts) throws -> [GroupingCut] {
        try thresholds.map { t in
            var asked = request
            asked.target = .threshold(t)
            return try groups(asked, in: pass)
        }
    }
    package func ceiling(in pass: PassProducts, topics: [Int32], request: GroupingRequest) throws -> Ceiling? { nil }
}

/// How every grouping is asked for its groups (the analysis, the tests): its own `groups`, except on a corpus with no
/// spread at all (every vector the same), which is one group under every grouping, whatever its threshold, criterion,
/// resolution or k: nothing there tells two items apart, and a split would only be the order of the rows.
extension Grouping {
    package func cut(_ request: GroupingRequest, in pass: PassProducts) throws -> GroupingCut {
        pass.vectors.rowsAreAllEqual ? .oneGroup(pass.vectors.rows) : try groups(request, in: pass)
    }

    package func cuts(at thresholds: [Double], _ request: GroupingRequest, in pass: PassProducts) throws -> [GroupingCut] {
        pass.vectors.rowsAreAllEqual ? thresholds.map { _ in .oneGroup(pass.vectors.rows) } : try groups(at: thresholds, request, in: pass)
    }
}

/// What a partition depends on besides the vectors.
package struct RunDependence: OptionSet, Sendable {
    package let rawValue: Int
    package init(rawValue: Int) { self.rawValue = rawValue }
    /// The order items are visited in (the leader).
    package static let order = RunDependence(rawValue: 1)
    /// A random seed (Leiden, k-means, subsamples).
    package static let seed = RunDependence(rawValue: 2)
}

/// What a grouping is asked for: a threshold, a number of groups or its own cuts, and what seeded
/// and order-dependent groupings use.
package struct GroupingRequest: Sendable {
    package enum Target: Sendable, Equatable {
        case threshold(Double)
        case topics(Int)
        case ownCuts
    }
    package var target: Target
    /// The visiting order (corpus `order`, else row order) of order-dependent groupings.
    package var order: [Int]
    package var labels: [Int32]?
    package var shuffles: Int
    package var seed: UInt64

    package init(target: Target, order: [Int], labels: [Int32]? = nil, shuffles: Int = 0, seed: UInt64 = 0) {
        self.target = target
        self.order = order
        self.labels = labels
        self.shuffles = shuffles
        self.seed = seed
    }

    /// The threshold a threshold grouping cuts at.
    package func threshold() throws -> Double {
        guard case .threshold(let t) = target else { throw PlanMismatch("a threshold grouping was asked for \(target)") }
        return t
    }

    /// The number of groups a label-informed reference makes.
    package func topics() throws -> Int {
        guard case .topics(let k) = target else { throw PlanMismatch("a label-informed reference was asked for \(target)") }
        return k
    }
}

/// A partition (labels numbered from 0, −1 for noise), or why there is none; the leader adds its
/// spread over seeded shuffles of the visiting order.
package struct GroupingCut {
    package var labels: [Int32]?
    package var note: String?
    package var spread: LeaderSpread?

    package init(labels: [Int32]?, note: String? = nil, spread: LeaderSpread? = nil) {
        self.labels = labels
        self.note = note
        self.spread = spread
    }
}

/// Every grouping, in the order help texts and docs list them: the fixed ones (at each rule's threshold, or told the
/// number of topics), then those that cut themselves. A new grouping is its file (a type with an `entry`) and a line here.
package let groupingRegistry = Registry<any Grouping>(
    kind: "grouping",
    [
        SingleLinkageComponents.entry, LeaderGrouping.entry, AverageLinkageCut.entry, SphericalKMeansReference.entry,
        AverageLinkageReference.entry, HDBSCANGrouping.entry, HDBSCANGrouping.leafEntry, LeidenGrouping.entry, LeidenSqrtGrouping.entry,
        AverageModularityGrouping.entry, SilhouetteCriterion.entry, CalinskiHarabaszCriterion.entry, DaviesBouldinCriterion.entry,
        StabilityCriterion.entry, EigengapCriterion.entry, LeidenSelection.entry(SilhouetteCriterion()),
        LeidenSelection.entry(CalinskiHarabaszCriterion()), LeidenSelection.entry(DaviesBouldinCriterion()),
        SpectralKGrouping.entry(.average), SpectralKGrouping.entry(.kmeans),
    ] + CohesionCriterion.entries)

/// The groupings an analysis runs by default: the registry's fixed ones (at each rule's threshold, or told the number
/// of topics), in registry order.
package let standardGroupings: [Grouping] = groupingRegistry.entries.compactMap { try? groupingRegistry.parse($0.name) }.filter {
    $0.kind != .cutsItself
}

/// The fixed groupings among `chosen`, each once, in the order their ceilings and references are reported: the
/// threshold groupings that depend on nothing, then those that depend on the visiting order or a seed, then the
/// references, each part in registry order.
package func inReportOrder(_ chosen: [Grouping]) -> [Grouping] {
    let fixed = standardGroupings.filter { g in chosen.contains { $0.kind != .cutsItself && $0.name == g.name } }
    let part = { (g: Grouping) in g.kind == .labelInformedReference ? 2 : g.dependsOn.isEmpty ? 0 : 1 }
    return (0...2).flatMap { p in fixed.filter { part($0) == p } }
}

/// The grouping `name` names (`groupingRegistry`).
package func grouping(named name: String) throws -> Grouping { try groupingRegistry.parse(name) }

extension GroupingCut {
    /// `items` items in one group.
    package static func oneGroup(_ items: Int) -> GroupingCut { GroupingCut(labels: [Int32](repeating: 0, count: items)) }

    /// Labels with every noise item (−1) its own group: how the headline metrics count noise.
    package static func noiseAsSingletons(_ labels: [Int32]) -> [Int32] {
        var next = (labels.max() ?? -1) + 1
        return labels.map { l in
            guard l < 0 else { return l }
            defer { next += 1 }
            return next
        }
    }
}

/// Why a rule or grouping reading k neighbours gives nothing on `items` items (k must be below N), or nil.
package func tooFewItems(_ name: String, neighbours k: Int, items n: Int) -> String? {
    k < n ? nil : "\(name): k = \(k) neighbours needs more than \(k) items; this corpus has \(n)"
}
