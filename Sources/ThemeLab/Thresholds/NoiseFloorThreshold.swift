/// k/√d: for random unit vectors in d dimensions cosines have standard deviation 1/√d, so
/// k/√d sits k standard deviations above chance (claim C4; the app uses k = 4).
struct NoiseFloorThreshold: ThresholdRule {
    var readsOnlyThePairHistogram: Bool { true }
    public let k: Double
    public var name: String { "noise-floor(\(formatArgument(k)))" }
    public func threshold(in context: ThresholdContext) -> Double? { k / Double(context.dimensions).squareRoot() }
}
