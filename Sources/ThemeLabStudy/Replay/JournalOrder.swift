import ThemeLabCore
import ThemeLabCorpus
import ThemeLabEncoder
import ThemeLabMeasures
import ThemeLabMethods
import ThemeLabPairs

/// The order in which a labeled corpus is replayed as a journal: which item is saved when.
///
/// - `corpus`: the corpus's `order` field (every item has one; the reader refuses repeats).
/// - `shuffle`: a seeded permutation, so topics interleave and return throughout.
/// - `bursts(b)`: each topic's items (shuffled) in runs of b consecutive saves, the runs shuffled:
///   a person writing several sentences about one worry in a sitting.
/// - `fading(w)`: topics appear and fade: topic k is active over [s_k, s_k + w] of the timeline
///   (s_k uniform in [0, 1 − w]), each of its items saved at a uniform time within it.
package enum JournalOrder: Sendable, Equatable {
    case corpus
    case shuffle
    case bursts(Int)
    case fading(Double)

    /// How an order is written.
    package static let forms = ["corpus", "shuffle", "bursts(b)", "fading(w)"]

    /// `corpus`, `shuffle`, `bursts(b)` (b ≥ 1 whole) or `fading(w)` (0 < w ≤ 1).
    package init(named text: String) throws {
        let name = try RuleName(text)
        switch name.base {
        case "corpus", "shuffle":
            try name.takes(atMost: 0)
            self = name.base == "corpus" ? .corpus : .shuffle
        case "bursts":
            try name.takes(atMost: 1)
            self = .bursts(try name.count("b") ?? 5)
        case "fading":
            try name.takes(atMost: 1)
            let w = name.argument ?? 0.3
            guard w > 0 && w <= 1 else {
                throw ThemeLabError.invalid("\(text): w (the share of the timeline a topic is active) must be in (0, 1]")
            }
            self = .fading(w)
        default:
            throw ThemeLabError.invalid("unknown order '\(text)' (expected \(Constraint.words(Self.forms, "or")))")
        }
    }

    package var name: String {
        switch self {
        case .corpus: "corpus"
        case .shuffle: "shuffle"
        case .bursts(let b): "bursts(\(b))"
        case .fading(let w): "fading(\(formatArgument(w)))"
        }
    }

    /// Whether each seed gives another order (then the replay reports the spread over seeds).
    package var isSeeded: Bool { self != .corpus }

    /// Item indices in save order. `topics` are the corpus's dense labels.
    package func saves(of corpus: Corpus, topics: [Int32], seed: UInt64) throws -> [Int] {
        let n = corpus.count
        switch self {
        case .corpus:
            guard let missing = corpus.items.firstIndex(where: { $0.order == nil }) else {
                return corpus.items.indices.sorted { corpus.items[$0].order! < corpus.items[$1].order! }
            }
            throw ThemeLabError.input(
                "corpus '\(corpus.name)': order 'corpus' needs an 'order' field on every item; item '\(corpus.items[missing].id)' has none")
        case .shuffle:
            return SeededRandom.permutation(count: n, seed: seed)
        case .bursts(let b):
            var rng = SeededRandom(seed: seed)
            let topicCount = Int(topics.max() ?? -1) + 1
            var runs: [[Int]] = []
            for k in 0..<topicCount {
                let members = topics.indices.filter { topics[$0] == k }
                let shuffled = SeededRandom.permutation(count: members.count, seed: rng.next()).map { members[$0] }
                runs += stride(from: 0, to: shuffled.count, by: b).map { Array(shuffled[$0..<min($0 + b, shuffled.count)]) }
            }
            return SeededRandom.permutation(count: runs.count, seed: rng.next()).flatMap { runs[$0] }
        case .fading(let w):
            var rng = SeededRandom(seed: seed)
            let topicCount = Int(topics.max() ?? -1) + 1
            let starts = (0..<topicCount).map { _ in rng.uniform() * (1 - w) }
            let times = topics.map { starts[Int($0)] + w * rng.uniform() }
            return (0..<n).sorted { (times[$0], $0) < (times[$1], $1) }
        }
    }
}
