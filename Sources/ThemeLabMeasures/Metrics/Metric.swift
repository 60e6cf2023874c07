import ThemeLabCore
import ThemeLabPairs

/// One figure of a grouping's recovery of the topics: the one key for `Recovery`'s fields, the replicate estimates of a
/// row and the tidy CSV's columns. Raw values are the names the results files use (the columns stay as they were).
package enum Metric: String, CaseIterable, Sendable, Codable, CodingKeyRepresentable {
    case groups, ari, nmi, homogeneity, completeness
    case vMeasure = "v_measure"
    case pairPrecision = "pair_precision"
    case pairRecall = "pair_recall"
    case pairF1 = "pair_f1"
    case purity
    case singletonShare = "singleton_share"
    case largestGroupShare = "largest_group_share"
    /// The share of items a grouping that cuts itself leaves as noise (replicate estimates only; its CSV column is
    /// `noise_share`, beside the point figure).
    case noiseShare = "noise share"

    /// The figures `Recovery` holds, in report order (the CSV's columns and the replicate columns).
    package static let recovery: [Metric] = [
        .groups, .ari, .nmi, .homogeneity, .completeness, .vMeasure, .pairPrecision, .pairRecall, .pairF1, .purity, .singletonShare,
        .largestGroupShare,
    ]

    /// The values the figure can take: ARI from −1 to 1, a group count from 0, every other figure (an index, a share)
    /// from 0 to 1. A figure outside is impossible, and `check` refuses it.
    package var range: ClosedRange<Double> {
        switch self {
        case .ari: -1...1
        case .groups: 0...Double.infinity
        case .nmi, .homogeneity, .completeness, .vMeasure, .pairPrecision, .pairRecall, .pairF1, .purity, .singletonShare,
            .largestGroupShare, .noiseShare:
            0...1
        }
    }

    /// Whether a fall is a regression: what a gate tolerance may name (group counts and shares are not worse by
    /// themselves).
    package var fallIsRegression: Bool {
        switch self {
        case .ari, .nmi, .homogeneity, .completeness, .vMeasure, .pairPrecision, .pairRecall, .pairF1, .purity: true
        case .groups, .singletonShare, .largestGroupShare, .noiseShare: false
        }
    }
}

extension Recovery {
    /// The value of `metric` (nil where it is undefined, or not a figure of `Recovery`).
    package func value(_ metric: Metric) -> Double? {
        switch metric {
        case .groups: Double(groups)
        case .ari: ari
        case .nmi: nmi
        case .homogeneity: homogeneity
        case .completeness: completeness
        case .vMeasure: vMeasure
        case .pairPrecision: pairPrecision
        case .pairRecall: pairRecall
        case .pairF1: pairF1
        case .purity: purity
        case .singletonShare: singletonShare
        case .largestGroupShare: largestGroupShare
        case .noiseShare: nil
        }
    }
}
