import Foundation
import ThemeLabCore
import ThemeLabCorpus
import ThemeLabMethods
import ThemeLabPairs
import ThemeLabStudy

/// What the explorer page embeds: provenance, and per corpus × vector source its items and, per space, the histogram,
/// the rules' thresholds and the space's `ExplorerSpace`. Long arrays are packed little-endian (`Packed`): exact, and a
/// third of the size of decimal text.
struct ExplorerData: Encodable {
    /// Above this many items the map and member lists show a seeded sample of this many.
    static let sampleLimit = 4_000

    var title: String
    var provenance: Provenance
    var sampleLimit = Self.sampleLimit
    /// The colours the SVGs give the groupings the cursor cuts.
    var colours = Dictionary(
        uniqueKeysWithValues: ["components", "average", "leader"].map { ($0, MethodColours.homeColour(GroupingKey($0))) })
    var corpora: [CorpusView]
    /// The stop words a group's words leave out (`ClassTFIDF`'s), so the page words groups as the harness does.
    var stopWords = EnglishStopWords.all.sorted()

    init(_ results: AnalysisResults) throws {
        title = results.name
        provenance = results.provenance
        corpora = try results.analyses.map { try CorpusView($0, seed: results.settings.seed) }
    }

    /// Numbers packed as base64 of their little-endian bytes, as `Int32Array` or `Float32Array` read them.
    struct Packed: Encodable, Equatable {
        var i32: String?
        var f32: String?

        init(_ values: [Int32]) { i32 = Self.base64(values.map { $0.littleEndian }) }
        init(_ values: [Float]) { f32 = Self.base64(values.map { $0.bitPattern.littleEndian }) }

        private static func base64<T>(_ values: [T]) -> String { values.withUnsafeBytes { Data($0).base64EncodedString() } }
    }

    struct CorpusView: Encodable {
        var name: String
        var source: String
        var items: Int
        var ids: [String]
        var texts: [String]
        /// Topic names by index, and each item's topic index (nil: unlabelled).
        var labelNames: [String]?
        var labels: Packed?
        /// The items the map and member lists show when there are more than `sampleLimit` (nil: all).
        var sample: Packed?
        var notes: [String]
        var spaces: [SpaceView]

        init(_ a: CorpusAnalysis, seed: UInt64) throws {
            guard let items = a.items else { throw PlanMismatch("the explorer page needs the corpus's items") }
            (name, source, self.items, notes) = (a.corpus.name, a.source, items.count, a.notes)
            ids = items.map(\.id)
            texts = items.map { $0.text ?? "" }
            if let indices = Corpus(name: a.corpus.name, items: items).labelIndices() {
                labels = Packed(indices)
                var names: [String] = []
                for (i, l) in indices.enumerated() where Int(l) == names.count { names.append(items[i].label ?? "") }
                labelNames = names
            }
            if items.count > ExplorerData.sampleLimit {
                sample = Packed(SeededRandom.sample(ExplorerData.sampleLimit, of: items.count, seed: seed).map { Int32($0) })
            }
            spaces = a.spaces.compactMap { s in s.explorer.map { SpaceView(s, $0) } }
        }
    }

    struct SpaceView: Encodable {
        var space: String
        /// Pairs per class over 200 equal bins on [-1, 1].
        var histogram: [String: [Int]]
        var rules: [RuleLine]
        var forest: MergesView
        var average: MergesView?
        var averageNote: String?
        var leader: [PartitionView]
        var fixed: [PartitionView]
        var map: [Packed]

        init(_ s: SpaceAnalysis, _ e: ExplorerSpace) {
            space = s.space.description
            histogram = Dictionary(uniqueKeysWithValues: s.histogram.map { ("\($0.key)", $0.value) })
            var figure = MethodColours.Figure()
            rules = s.thresholds.compactMap { t in
                let style = figure.style(t.rule)
                return t.value.map { RuleLine(rule: t.rule.name, value: $0, colour: style.colour, dash: style.dash) }
            }
            forest = MergesView(e.forest)
            average = e.average.map(MergesView.init)
            averageNote = e.averageNote
            leader = e.leader.map(PartitionView.init)
            fixed = e.fixed.map(PartitionView.init)
            map = e.map.map { Packed($0) }
        }
    }

    struct RuleLine: Encodable {
        var rule: String
        var value: Double
        var colour: String
        var dash: String
    }

    struct MergesView: Encodable {
        var a: Packed
        var b: Packed
        var heights: Packed
        /// `GroupMembers.centralCount` entries per merge, −1 where its group has fewer.
        var central: Packed

        init(_ m: ExplorerSpace.Merges) {
            (a, b, heights) = (Packed(m.a), Packed(m.b), Packed(m.heights))
            let width = GroupMembers.centralCount
            central = Packed(m.central.flatMap { $0 + [Int32](repeating: -1, count: width - $0.count) })
        }
    }

    struct PartitionView: Encodable {
        var grouping: String
        var colour: String
        var threshold: Double?
        var rule: String?
        var labels: Packed
        /// Per group of more than `GroupMembers.centralCount` items: the group, then its central entries.
        var central: Packed

        init(_ p: ExplorerSpace.Partition) {
            (grouping, threshold, rule, labels) = (p.grouping.name, p.threshold, p.rule?.name, Packed(p.labels))
            colour = MethodColours.homeColour(p.grouping)
            central = Packed(p.central.keys.sorted().flatMap { g in [g] + p.central[g]!.map { Int32($0) } })
        }
    }
}
