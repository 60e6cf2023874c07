/// The leader grouping's groups and recovery over seeded shuffles of its visiting order.
public struct LeaderSpread: Codable, Sendable, Equatable {
    public struct Summary: Codable, Sendable, Equatable {
        public var mean: Double, std: Double, min: Double, max: Double
        init(_ v: [Double]) {
            precondition(!v.isEmpty, "a spread over no shuffles")
            mean = v.reduce(0, +) / Double(v.count)
            let m = mean
            std = (v.reduce(0) { $0 + ($1 - m) * ($1 - m) } / Double(v.count)).squareRoot()
            min = v.reduce(.infinity, Swift.min)
            max = v.reduce(-.infinity, Swift.max)
        }
    }
    public var shuffles: Int
    public var groups: Summary
    public var ari: Summary?
    public var nmi: Summary?
    var pairF1: Summary?
}
