/// A way to turn similarities into groups. Threshold groupings cut at each rule's value;
/// label-informed references are told the number of topics instead. Adding one is a file with a
/// type conforming to this protocol, plus a line in `grouping(named:)`.
public protocol Grouping: Sendable {
    /// The name used on the command line, in experiment files and in reports.
    var name: String { get }
    /// True for the references told k = number of topics (upper bounds, never methods).
    var isLabelInformed: Bool { get }
    /// True for groupings that choose their cuts themselves (HDBSCAN, Leiden): one row, no threshold rule.
    var cutsItself: Bool { get }
    /// What the pairwise pass must gather for it.
    var needs: PassNeeds { get }
    /// The groups at `request.threshold` (threshold groupings) or for `request.topics` groups
    /// (references); a note instead when the pass could not give what it needs.
    func groups(_ request: GroupingRequest, in pass: PassProducts) throws -> GroupingCut
    /// The best ARI any threshold gives it (label-informed), when it has one; `ruled` are its cuts
    /// at the rules' values.
    func ceiling(in pass: PassProducts, topics: [Int32], ruled: [BestCut], request: GroupingRequest) throws -> Ceiling?
}

extension Grouping {
    public var isLabelInformed: Bool { false }
    public var cutsItself: Bool { false }
    public var needs: PassNeeds { PassNeeds() }
    public func ceiling(in pass: PassProducts, topics: [Int32], ruled: [BestCut], request: GroupingRequest) throws -> Ceiling? { nil }
}

/// What a grouping is asked for: a threshold or a number of groups, and what seeded groupings use.
public struct GroupingRequest {
    public var threshold: Double?
    public var topics: Int?
    /// The visiting order (corpus `order`, else row order) of order-dependent groupings.
    public var order: [Int]
    public var labels: [Int32]?
    public var shuffles: Int
    public var seed: UInt64

    public init(threshold: Double?, topics: Int?, order: [Int], labels: [Int32]?, shuffles: Int, seed: UInt64) {
        self.threshold = threshold
        self.topics = topics
        self.order = order
        self.labels = labels
        self.shuffles = shuffles
        self.seed = seed
    }
}

/// A partition (labels numbered from 0, −1 for noise), or why there is none; the leader adds its
/// spread over seeded shuffles of the visiting order.
public struct GroupingCut {
    public var labels: [Int32]?
    public var note: String?
    public var spread: LeaderSpread?

    public init(labels: [Int32]?, note: String? = nil, spread: LeaderSpread? = nil) {
        self.labels = labels
        self.note = note
        self.spread = spread
    }
}

/// Every grouping, in the order references and ceilings are reported.
public let allGroupings: [Grouping] = [
    SingleLinkageComponents(), AverageLinkageCut(), LeaderAssignment(), SphericalKMeansReference(), AverageLinkageReference(),
]

/// The groupings an analysis runs by default, in the order their rows appear.
public let standardGroupings = ["components", "leader", "average", "kmeans-k", "average-k"]

/// A grouping by name: `components`, `leader`, `average`, `kmeans-k`, `average-k`, or one that cuts
/// itself: `hdbscan(m)`, `hdbscan(m,k)`, `hdbscan-leaf(m)`, `hdbscan-leaf(m,k)`, `leiden(k)`, `leiden(k,γ)`.
public func grouping(named name: String) throws -> Grouping {
    if let g = allGroupings.first(where: { $0.name == name }) { return g }
    let parsed = try RuleName(name)
    switch parsed.base {
    case "hdbscan", "hdbscan-leaf": return try HDBSCANGrouping(parsed)
    case "leiden": return try LeidenGrouping(parsed)
    default:
        throw ThemeLabError.usage(
            "unknown grouping '\(name)' (expected \(standardGroupings.joined(separator: ", ")), hdbscan(m), hdbscan(m,k), "
                + "hdbscan-leaf(m), hdbscan-leaf(m,k), leiden(k), leiden(k,γ))")
    }
}

extension GroupingCut {
    /// Labels with every noise item (−1) its own group: how the headline metrics count noise.
    public static func noiseAsSingletons(_ labels: [Int32]) -> [Int32] {
        var next = (labels.max() ?? -1) + 1
        return labels.map { l in
            guard l < 0 else { return l }
            defer { next += 1 }
            return next
        }
    }
}

/// The best ARI over a grouping's own parameter values (noise as singletons), as a ceiling.
func bestParameter(
    _ grouping: String, _ parameter: String, values: [Double], topics: [Int32], labels: (Double) throws -> [Int32]
) rethrows -> Ceiling? {
    var best: BestCut?
    for v in values {
        let groups = GroupingCut.noiseAsSingletons(try labels(v))
        let ari = Recovery(topics: topics, groups: groups).ari
        if best == nil || ari > best!.ari { best = BestCut(threshold: v, ari: ari, groups: Set(groups).count) }
    }
    let listed = values.map(formatArgument).joined(separator: ", ")
    return best.map { Ceiling(grouping: grouping, search: "\(parameter) ∈ {\(listed)}", $0, parameter: parameter) }
}

/// Labels renumbered 0, 1, … by first appearance; noise (−1) stays −1.
func renumbered(_ labels: [Int32]) -> [Int32] {
    var number: [Int32: Int32] = [:]
    return labels.map { l in
        guard l >= 0 else { return -1 }
        if let k = number[l] { return k }
        let k = Int32(number.count)
        number[l] = k
        return k
    }
}

/// Why a rule or grouping reading k neighbours gives nothing on `items` items (k must be below N), or nil.
func tooFewItems(_ name: String, neighbours k: Int, items n: Int) -> String? {
    k < n ? nil : "\(name): k = \(k) neighbours needs more than \(k) items; this corpus has \(n)"
}
