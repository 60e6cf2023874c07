import Foundation
import ThemeLabCore

/// Which tiles a pass covers: shard i of n takes the i-th of n equal runs of the tiles in group order (`tiles(side:)`).
package struct PairShard: Codable, Sendable, Equatable {
    package var index: Int
    package var count: Int

    package init(index: Int, count: Int) {
        precondition(count >= 1 && (0..<count).contains(index), "shard index must be in 0..<count")
        self.index = index
        self.count = count
    }

    /// Parses "i/n".
    package init(text: String) throws {
        let parts = text.split(separator: "/")
        guard parts.count == 2, let i = Int(parts[0]), let n = Int(parts[1]), n >= 1, (0..<n).contains(i) else {
            throw ThemeLabError.invalid("--shard takes i/n with 0 ≤ i < n, got '\(text)'")
        }
        self.init(index: i, count: n)
    }

    /// The tile numbers (`PairEngine.tileNumber`) this shard covers in a pass of `side` tiles a side, ascending: its run
    /// of `groupOrder`. A shard's tiles then lie in a few of m ≈ 2√n groups of tile rows, so it reads a fraction of the
    /// rows (`PairEngine.rowsRead`: at N = 200 000, 89% with 4 shards, 51% with 16, 25% with 64), where tiles dealt
    /// out k mod n touched every row; runs differ by at most one tile.
    package func tiles(side: Int) -> [Int] { Self.runs(side: side, shards: count)[index].sorted() }

    /// Every shard's run of `groupOrder`, in shard order.
    package static func runs(side: Int, shards n: Int) -> [ArraySlice<Int>] {
        let order = groupOrder(side: side, shards: n)
        return (0..<n).map { i in order[i * order.count / n..<(i + 1) * order.count / n] }
    }

    /// Every tile of the upper triangle, walked group pair by group pair: the tile rows cut into m = round(2√n) groups
    /// (at most `side`); group row g takes pairs (g, h), h ≥ g, outward on even g and inward on odd g (so consecutive
    /// pairs share a group), and each pair's tiles row by row. m = 2√n read the fewest rows at 16 and 64 shards of
    /// those tried (m from 1 to 4√n, with and without the alternation).
    package static func groupOrder(side: Int, shards: Int) -> [Int] {
        let m = Swift.max(1, Swift.min(side, Int((2 * Double(shards).squareRoot()).rounded())))
        let start = (0...m).map { $0 * side / m }
        var order: [Int] = []
        order.reserveCapacity(side * (side + 1) / 2)
        for g in 0..<m {
            for h in g % 2 == 0 ? Array(g..<m) : (g..<m).reversed() {
                for ti in start[g]..<start[g + 1] {
                    for tj in Swift.max(ti, start[h])..<start[h + 1] { order.append(PairEngine.tileNumber(ti, tj, side: side)) }
                }
            }
        }
        return order
    }
}

/// The state of a pass over some of the tiles: histograms, counts and extremes per class
/// (associative), each tile's sums (added in tile order on merge, so sharding does not change
/// a bit), and the values when the corpus is small enough for exact quantiles.
package struct PairPartial: Codable, Sendable {
    package static let currentSchema = 5
    package var schemaVersion = PairPartial.currentSchema
    /// SHA-256 of each input (embeddings, then labels when given): parts of other inputs are refused on merge.
    package var inputChecksums: [String] = []
    package var items: Int
    package var dimensions: Int
    package var tiles: Int
    /// Rows per tile side: parts cut with another `--tile` are not parts of the same pass.
    package var tileEdge: Int
    package var shard: PairShard
    package var isLabeled: Bool
    /// Sums are zero here; they live in `tileSums`.
    package var related: PairAccumulator
    package var unrelated: PairAccumulator
    /// Tile index → [related sum, related sum of squares, unrelated sum, unrelated sum of squares].
    package var tileSums: [Int: [Double]]
    package var relatedValues: [Float]?
    package var unrelatedValues: [Float]?
    /// The maximum spanning forest of this shard's pairs, when the pass built one.
    package var forest: [SpanningForest.Edge]?
    /// The `edgesDigest` of the bridge forest the shard started from (nil: it computed the bridge tiles itself).
    package var bridgeDigest: String?

    /// The maximum spanning forest of every shard's pairs (Kruskal over the union of the parts'
    /// forests: a pair left out of its shard's forest is lighter than a path of pairs that shard read, its own tiles and
    /// the bridge tiles),
    /// or nil when a part has none. Equal to the unsharded pass's forest.
    package static func mergedForest(_ parts: [PairPartial]) -> SpanningForest? {
        guard let first = parts.first, parts.allSatisfy({ $0.forest != nil }) else { return nil }
        return SpanningForest(items: first.items, edges: parts.flatMap { $0.forest! })
    }

    /// One shard's part of the pass over unit vectors `x`, with the shard's spanning forest (so `merge` can give
    /// single-linkage groups) and the SHA-256 of each input file it came from. With a `bridge` forest (checked against the
    /// inputs first) the shard computes no bridge tiles and reads only its own tiles' rows; the part is the same.
    package static func compute(
        _ x: any PassVectors, labels: [Int32]?, shard: PairShard, engine: PairEngine, inputs: [String],
        bridge: (forest: BridgeForest, name: String)? = nil, progress: ((Int, Int) -> Void)? = nil
    ) throws -> PairPartial {
        let checksums = try inputs.map { try SHA256.hex(file: $0) }
        try bridge?.forest.check(inputChecksums: checksums, items: x.rows, dimensions: x.cols, name: bridge!.name)
        let forest = SpanningForest(items: x.rows)
        if let bridge { forest.seed(bridge.forest.edges) }
        var partial = try engine.pass(
            x, labels: labels, shard: shard, consumers: [forest], bridge: bridge == nil ? .computed : .seeded, progress: progress)
        partial.forest = ownEdges(forest.edges, items: x.rows, labels: labels, tileEdge: partial.tileEdge, shard: shard)
        partial.inputChecksums = checksums
        partial.bridgeDigest = bridge?.forest.edgesDigest
        return partial
    }

    /// The forest edges that lie in the shard's own tiles. A shard's forest also holds edges of the bridge tiles other
    /// shards own; every edge of the whole forest is in the forest of the shard that owns its tile (it is in the
    /// forest of any subset of pairs that contains it), so the rest would only be merged again: 16 parts of N = 200 000
    /// carried 16 near-spanning forests to the merge without this.
    package static func ownEdges(
        _ edges: [SpanningForest.Edge], items n: Int, labels: [Int32]?, tileEdge t: Int, shard: PairShard
    ) -> [SpanningForest.Edge] {
        guard shard.count > 1 else { return edges }
        let order = PairEngine.labelRuns(labels, items: n).order
        var position = [Int](repeating: 0, count: n)
        for (p, item) in order.enumerated() { position[Int(item)] = p }
        let side = (n + t - 1) / t
        var owned = [Bool](repeating: false, count: side * (side + 1) / 2)
        for k in shard.tiles(side: side) { owned[k] = true }
        return edges.filter { e in
            let (a, b) = (position[Int(e.i)] / t, position[Int(e.j)] / t)
            return owned[PairEngine.tileNumber(Swift.min(a, b), Swift.max(a, b), side: side)]
        }
    }

    /// Reads a part file and checks that it is whole and consistent, so a tampered or truncated part
    /// is refused with its name instead of tripping an assertion during the merge.
    package static func read(path: String) throws -> PairPartial {
        guard let data = FileManager.default.contents(atPath: path) else { throw ThemeLabError.input("\(path): cannot read") }
        return try decode(data, name: path)
    }

    package static func decode(_ data: Data, name: String) throws -> PairPartial {
        let part = try JSONOutput.decode(PairPartial.self, from: data, file: name, expected: "part written by themelab pairs --shard")
        try part.validate(name: name)
        return part
    }

    package func validate(name: String) throws {
        func fail(_ what: String) -> ThemeLabError { .input("\(name): \(what)") }
        guard schemaVersion == Self.currentSchema else {
            throw fail("schemaVersion \(schemaVersion); this themelab reads \(Self.currentSchema) (re-run pairs --shard)")
        }
        guard !inputChecksums.isEmpty, inputChecksums.allSatisfy({ $0.count == 64 && $0.allSatisfy(\.isHexDigit) }) else {
            throw fail("'inputChecksums' must list the SHA-256 of each input")
        }
        guard (2...Int(Int32.max)).contains(items), dimensions >= 1, (1...(1 << 26)).contains(tiles), (1...65_536).contains(tileEdge) else {
            throw fail("'items' (2 to 2³¹ − 1), 'dimensions' (≥ 1), 'tiles' (1 to 2²⁶) or 'tileEdge' (1 to 65 536) out of range")
        }
        guard shard.count >= 1, (0..<shard.count).contains(shard.index) else { throw fail("'shard' must have 0 ≤ index < count") }
        let bins = related.histogram.count
        guard bins >= 2, unrelated.histogram.count == bins else {
            throw fail("related and unrelated histograms must have the same ≥ 2 bins")
        }
        for (field, a, values) in [("related", related, relatedValues), ("unrelated", unrelated, unrelatedValues)] {
            var total: UInt64 = 0
            for c in a.histogram {
                let (t, overflow) = total.addingReportingOverflow(c)
                guard !overflow else { throw fail("'\(field).histogram' counts overflow") }
                total = t
            }
            guard a.count >= 0, total == UInt64(a.count) else {
                throw fail("'\(field).histogram' sums to \(total) but 'count' is \(a.count)")
            }
            guard a.count == 0 || (a.min.isFinite && a.max.isFinite && a.min <= a.max) else {
                throw fail("'\(field)' min/max are not finite and ordered")
            }
            if let values {
                guard values.count == a.count, values.allSatisfy(\.isFinite) else {
                    throw fail("'\(field)Values' must hold 'count' finite values")
                }
            }
        }
        if !isLabeled, related.count != 0 { throw fail("unlabeled part with related pairs") }
        let side = (items + tileEdge - 1) / tileEdge
        guard side * (side + 1) / 2 == tiles else {
            throw fail("'tiles' is \(tiles), but \(items) items in tiles of \(tileEdge) make \(side * (side + 1) / 2)")
        }
        let own = Set(shard.tiles(side: side))
        for (tile, sums) in tileSums {
            guard own.contains(tile) else {
                throw fail("'tileSums' has tile \(tile), not one of this shard's")
            }
            guard sums.count == 4, sums.allSatisfy(\.isFinite) else { throw fail("'tileSums' of tile \(tile) must be 4 finite sums") }
        }
        for e in forest ?? [] {
            guard (0..<Int32(clamping: items)).contains(e.i), (0..<Int32(clamping: items)).contains(e.j), e.i != e.j, e.w.isFinite else {
                throw fail("'forest' has an edge (\(e.i), \(e.j), \(e.w)) outside the \(items) items")
            }
        }
    }

    /// Folds the partial states of every shard of one pass into its distribution. Errors when the parts do not belong
    /// together (other inputs or parameters) or a shard is missing; a shard given twice counts once when both copies
    /// hold the same figures (a requeued task rewrote it) and is refused when they differ (`distinctShards`).
    package static func merge(_ parts: [PairPartial]) throws -> PairDistribution {
        let parts = try distinctShards(parts)
        let sums = parts.reduce(into: [Int: [Double]]()) { $0.merge($1.tileSums) { a, _ in a } }
        if let k = (0..<parts[0].tiles).first(where: { sums[$0]?.count != 4 }) {
            throw ThemeLabError.input("tile \(k) missing from the shards")
        }
        return PassTotals.fold(parts.map(\.totals), tiles: parts[0].tiles)
    }

    /// The part's counts, as the pass made them.
    var totals: PassTotals {
        PassTotals(
            related: related, unrelated: unrelated, tileSums: tileSums, relatedValues: relatedValues, unrelatedValues: unrelatedValues,
            isLabeled: isLabeled)
    }

    /// One part per shard, in shard order, after checking that all come from one pass and none is missing. `names`
    /// label the parts in messages (file paths; default "shard i/n").
    package static func distinctShards(_ parts: [PairPartial], names: [String]? = nil) throws -> [PairPartial] {
        guard let first = parts.first else { throw ThemeLabError.invalid("nothing to merge") }
        let names = names ?? parts.map { "shard \($0.shard.index)/\($0.shard.count)" }
        for (p, name) in zip(parts, names) where p.inputChecksums != first.inputChecksums {
            throw ThemeLabError.input("\(name) was computed from other inputs than \(names[0]) (input checksums differ)")
        }
        for (p, name) in zip(parts, names) where p.bridgeDigest != first.bridgeDigest {
            func bridge(_ digest: String?) -> String { digest.map { "bridge \($0.prefix(12))" } ?? "no bridge" }
            throw ThemeLabError.input(
                "\(name) started from \(bridge(p.bridgeDigest)), \(names[0]) from \(bridge(first.bridgeDigest)): "
                    + "parts of one pass share one bridge")
        }
        for (p, name) in zip(parts, names)
        where p.items != first.items || p.dimensions != first.dimensions || p.tiles != first.tiles || p.tileEdge != first.tileEdge
            || p.shard.count != first.shard.count || p.isLabeled != first.isLabeled
            || p.related.histogram.count != first.related.histogram.count
        {
            throw ThemeLabError.input(
                "\(name) is not from the same pass as \(names[0]) (items, shard count, tile edge, bins or labels differ)")
        }
        return try ShardSet.distinct(zip(parts, names).map { ($0.shard, $1, $0) }, count: first.shard.count) {
            try JSONOutput.encode($0) == JSONOutput.encode($1)
        }
    }
}

/// The parts of a sharded job, one per shard index, whatever order and repetition they were given in.
package enum ShardSet {
    /// The parts in shard order, one per index. A shard given twice is taken once when `same` says the copies agree
    /// (a requeued task that wrote its part again) and refused, naming both, when they differ; missing shards are
    /// refused naming the first ten missing indices.
    package static func distinct<Part>(
        _ parts: [(shard: PairShard, name: String, part: Part)], count: Int, same: (Part, Part) throws -> Bool
    ) throws -> [Part] {
        var chosen: [Int: (name: String, part: Part)] = [:]
        for (shard, name, part) in parts {
            if let earlier = chosen[shard.index] {
                guard try same(earlier.part, part) else {
                    throw ThemeLabError.input(
                        "\(name) and \(earlier.name) are both shard \(shard.index)/\(count) but hold different results; "
                            + "remove the wrong one (re-run that task) and merge again")
                }
                continue
            }
            chosen[shard.index] = (name, part)
        }
        guard chosen.count == count else {
            // The first ten missing indices lie among the first chosen.count + 10, however large `count` is.
            var missing: [Int] = []
            for i in 0..<count where chosen[i] == nil {
                missing.append(i)
                if missing.count == 10 { break }
            }
            let more = count - chosen.count > missing.count ? ", …" : ""
            let several = count - chosen.count > 1
            throw ThemeLabError.input(
                "incomplete: shard\(several ? "s" : "") \(missing.map(String.init).joined(separator: ", "))\(more) of 0..<\(count) missing "
                    + "(\(chosen.count) of \(count) given); re-run \(several ? "those tasks" : "that task") and merge again")
        }
        return (0..<count).map { chosen[$0]!.part }
    }
}
