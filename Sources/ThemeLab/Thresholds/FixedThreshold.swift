/// A constant threshold; the app first used 0.55, tuned on synthetic vectors (claim C3).
struct FixedThreshold: ThresholdRule {
    var readsOnlyThePairHistogram: Bool { true }
    public let value: Double
    public var name: String { "fixed(\(formatArgument(value)))" }
    public func threshold(in context: ThresholdContext) -> Double? { value }
}

/// `0.55`, `4`, `90`: arguments printed without trailing zeros.
func formatArgument(_ x: Double) -> String {
    x == x.rounded() && abs(x) < 1e15 ? String(Int(x)) : String(x)
}
