import ThemeLabCore
import ThemeLabPairs

/// A claim's verdict, written as REPORT.md and the results files print it.
package enum Verdict: String, Codable, Sendable, CustomStringConvertible {
    case holds
    case partly
    /// C8's partial verdict, in the wording the README fixed for the replay before it ran.
    case inPart = "in part"
    case doesNotHold = "does not hold"
    /// The verdict at the corpus's figures changes inside their intervals.
    case inconclusive
    /// C5 on a corpus whose related share is close to the tenth the 90th percentile assumes: the claim does not apply.
    case shareNearTenth = "n/a (share ≈ 10%)"

    package var description: String { rawValue }
}
