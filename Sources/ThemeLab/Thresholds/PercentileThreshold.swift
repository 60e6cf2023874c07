/// The p-th percentile of all pair similarities (numpy's linear definition). It assumes the
/// related pairs are the top (100 − p)% (claim C5).
struct PercentileThreshold: ThresholdRule {
    let percent: Double
    public var name: String { "percentile(\(formatArgument(percent)))" }
    var isDataDerived: Bool { true }
    public func threshold(in context: ThresholdContext) -> Double? { context.distribution.quantile(.all, percent / 100) }
}
