import Foundation
import Testing

@testable import ThemeLabCore
@testable import ThemeLabPairs

/// The pairwise pass against a naive Float64 reference: every i<j cosine computed directly.
@Suite struct PairEngineTests {
    struct Reference {
        var related: [Double] = []
        var unrelated: [Double] = []
    }

    func reference(_ x: Matrix, labels: [Int32]?) -> Reference {
        var r = Reference()
        for i in 0..<x.rows {
            for j in (i + 1)..<max(x.rows, i + 1) {
                var dot = 0.0
                for k in 0..<x.cols { dot += Double(x[i, k]) * Double(x[j, k]) }
                if let l = labels, l[i] == l[j] { r.related.append(dot) } else { r.unrelated.append(dot) }
            }
        }
        return r
    }

    /// Bin counts must agree exactly, except that a value within 1e-6 of a bin edge (float
    /// rounding of the Gram) may fall on either side; the number of such values bounds the difference.
    func expectSameHistogram(_ got: PairAccumulator, _ values: [Double]) {
        let bins = got.histogram.count
        var expected = [Int](repeating: 0, count: bins)
        var ambiguous = 0
        for v in values {
            let position = (v + 1) * Double(bins) / 2
            if abs(position - position.rounded()) * 2 / Double(bins) < 1e-6 { ambiguous += 1 }
            expected[min(max(Int(position), 0), bins - 1)] += 1
        }
        let difference = zip(got.histogram, expected).reduce(0) { $0 + abs(Int($1.0) - $1.1) }
        #expect(difference <= 2 * ambiguous, "bins differ by \(difference), \(ambiguous) values on an edge")
        #expect(got.count == values.count)
    }

    func numpyQuantile(_ values: [Double], _ q: Double) -> Double {
        let s = values.sorted()
        let h = Double(s.count - 1) * q
        let lo = Int(h.rounded(.down))
        return s[lo] + (h - Double(lo)) * (s[min(lo + 1, s.count - 1)] - s[lo])
    }

    func expectStatistics(_ s: PairStatistics, _ values: [Double], quantileTolerance: Double) {
        let mean = values.reduce(0, +) / Double(values.count)
        let variance = values.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(values.count)
        #expect(s.count == values.count)
        #expect(
            s.min.isApproximatelyEqual(to: values.min()!, absoluteTolerance: 1e-6)
                && s.max.isApproximatelyEqual(to: values.max()!, absoluteTolerance: 1e-6))
        #expect(s.mean.isApproximatelyEqual(to: mean, absoluteTolerance: 1e-6))
        #expect(s.std.isApproximatelyEqual(to: variance.squareRoot(), absoluteTolerance: 1e-6))
        let got = [s.p1, s.p5, s.p25, s.median, s.p75, s.p95, s.p99]
        for (q, g) in zip(PairStatistics.quantileLevels, got) {
            #expect(
                g.isApproximatelyEqual(to: numpyQuantile(values, q), absoluteTolerance: quantileTolerance + 1e-6),
                "q\(q): \(g) vs \(numpyQuantile(values, q))")
        }
    }

    @Test(arguments: [(37, 5, 8), (64, 16, 64), (50, 3, 7), (23, 9, 100)])
    func labeledPassMatchesNaiveReference(n: Int, d: Int, tile: Int) throws {
        let x = try unitRows(randomMatrix(rows: n, cols: d, seed: UInt64(n * 1000 + d)))
        let labels = (0..<n).map { Int32(($0 * 7) % 5) }
        let ref = reference(x, labels: labels)
        let engine = PairEngine(bins: 64, tileSize: tile)
        let dist = engine.run(x, labels: labels)
        expectSameHistogram(dist.related, ref.related)
        expectSameHistogram(dist.unrelated, ref.unrelated)
        expectSameHistogram(dist.all, ref.related + ref.unrelated)
        expectStatistics(try #require(dist.statistics(.related)), ref.related, quantileTolerance: 0)
        expectStatistics(try #require(dist.statistics(.unrelated)), ref.unrelated, quantileTolerance: 0)
        expectStatistics(try #require(dist.statistics(.all)), ref.related + ref.unrelated, quantileTolerance: 0)
    }

    @Test func histogramQuantilesStayWithinOneBin() throws {
        let x = try unitRows(randomMatrix(rows: 300, cols: 4, seed: 9))
        let labels = (0..<300).map { Int32($0 % 3) }
        let ref = reference(x, labels: labels)
        for bins in [256, 65_536] {
            let dist = PairEngine(bins: bins, tileSize: 128, exactPairLimit: 0).run(x, labels: labels)
            let s = try #require(dist.statistics(.unrelated))
            #expect(s.quantileErrorBound == 2 / Double(bins))
            expectStatistics(s, ref.unrelated, quantileTolerance: s.quantileErrorBound)
            expectStatistics(try #require(dist.statistics(.related)), ref.related, quantileTolerance: s.quantileErrorBound)
        }
    }

    @Test func unlabeledPassReportsAllPairsOnly() throws {
        let x = try unitRows(randomMatrix(rows: 40, cols: 6, seed: 2))
        let dist = PairEngine(bins: 128, tileSize: 16).run(x)
        #expect(dist.statistics(.related) == nil && dist.statistics(.unrelated) == nil)
        let ref = reference(x, labels: nil)
        expectSameHistogram(dist.all, ref.unrelated)
        expectStatistics(try #require(dist.statistics(.all)), ref.unrelated, quantileTolerance: 0)
    }

    @Test func tinyInputs() throws {
        let one = try unitRows(Matrix(rows: 1, cols: 3, storage: [1, 2, 3]))
        let none = PairEngine(tileSize: 4).run(one, labels: [0])
        #expect(none.all.count == 0 && none.statistics(.all) == nil)

        let two = try unitRows(Matrix(rows: 2, cols: 2, storage: [3, 4, 4, 3]))
        let s = try #require(PairEngine().run(two, labels: [0, 0]).statistics(.related))
        #expect(s.count == 1 && s.median.isApproximatelyEqual(to: 0.96, absoluteTolerance: 1e-6) && s.std == 0)

        // d = 1: every cosine is ±1; signs + − + − + give 4 same-sign pairs and 6 opposite.
        let line = try unitRows(Matrix(rows: 5, cols: 1, storage: [2, -1, 3, -4, 0.5]))
        let dist = PairEngine(bins: 8, tileSize: 2).run(line, labels: [0, 0, 1, 1, 1])
        #expect(dist.all.histogram == [6, 0, 0, 0, 0, 0, 0, 4])
        #expect(dist.all.min == -1 && dist.all.max == 1)
    }

    @Test func consumersSeeEveryPairOnceWithCallerIndices() throws {
        let x = try unitRows(randomMatrix(rows: 29, cols: 4, seed: 5))
        let collector = PairCollector()
        collector.n = 29
        _ = PairEngine(tileSize: 6).run(x, labels: (0..<29).map { Int32($0 % 4) }, consumers: [collector])
        #expect(collector.seen.count == 29 * 28 / 2)
        let (i, j) = (3, 17)
        let dot = (0..<4).reduce(Float(0)) { $0 + x[i, $1] * x[j, $1] }
        #expect(collector.seen[i * 29 + j]!.isApproximatelyEqual(to: dot, absoluteTolerance: 1e-6))
    }

    /// A shard feeds the bridge tiles of other shards to the spanning forest only: a consumer that counts pairs sees each
    /// pair in exactly one shard.
    @Test func bridgeTilesReachOnlyTheForest() throws {
        let x = try unitRows(randomMatrix(rows: 29, cols: 4, seed: 5))
        let collector = PairCollector()
        collector.n = 29
        let engine = PairEngine(tileSize: 6)
        for k in 0..<4 { _ = try engine.pass(x, shard: PairShard(index: k, count: 4), consumers: [collector, SpanningForest(items: 29)]) }
        #expect(collector.seen.count == 29 * 28 / 2)
    }

    @Test func resultDoesNotDependOnWorkersOrScheduling() throws {
        let x = try unitRows(randomMatrix(rows: 700, cols: 8, seed: 11))
        let labels = (0..<700).map { Int32($0 % 9) }
        let one = PairEngine(tileSize: 64, exactPairLimit: 0, workers: 1).run(x, labels: labels)
        for _ in 0..<3 {
            let two = PairEngine(tileSize: 64, exactPairLimit: 0, workers: 2).run(x, labels: labels)
            #expect(two.related == one.related && two.unrelated == one.unrelated)
        }
    }

    /// Every shard count, 16 included (36 tiles: some shards own 2, some 3), merges to the unsharded figures and forest,
    /// although each shard's forest also read the bridge tiles of the others.
    @Test(arguments: [(true, 3), (false, 3), (false, 16)])
    func shardsMergeIntoExactlyTheUnshardedResult(exact: Bool, shards: Int) throws {
        let x = try unitRows(randomMatrix(rows: 500, cols: 6, seed: 21))
        let labels = (0..<500).map { Int32($0 % 11) }
        let engine = PairEngine(bins: 1024, tileSize: 64, exactPairLimit: exact ? 1_000_000 : 0)
        let forest = SpanningForest(items: 500)
        let whole = engine.run(x, labels: labels, consumers: [forest])
        let parts = try (0..<shards).map { k in
            try PairPartial.compute(
                x, labels: labels, shard: PairShard(index: k, count: shards), engine: engine, inputs: [fixture("leiden.json")])
        }
        #expect(PairPartial.mergedForest(parts)?.edges == forest.edges)
        // Seeded with the bridge forest, computed once, each shard computes no bridge tile and writes the same part.
        let bridge = try BridgeForest.compute(x, labels: labels, engine: engine, inputs: [fixture("leiden.json")])
        for (k, part) in parts.enumerated() {
            let seeded = try PairPartial.compute(
                x, labels: labels, shard: PairShard(index: k, count: shards), engine: engine, inputs: [fixture("leiden.json")],
                bridge: (bridge, "bridge.json"))
            #expect(seeded.bridgeDigest == bridge.edgesDigest && part.bridgeDigest == nil)
            var unseeded = seeded
            unseeded.bridgeDigest = nil
            #expect(try JSONOutput.encode(unseeded) == JSONOutput.encode(part), "shard \(k)")
        }
        // Each part keeps only its own tiles' forest edges: 16 parts carry fewer than three forests' worth, not sixteen.
        #expect(shards < 16 || parts.map { $0.forest!.count }.reduce(0, +) < 3 * 499)
        let merged = try PairPartial.merge(parts.reversed())
        #expect(merged.related == whole.related && merged.unrelated == whole.unrelated)
        #expect(merged.statistics(.all) == whole.statistics(.all) && merged.statistics(.related) == whole.statistics(.related))
        // Through JSON, as the CLI stores them.
        let decoded = try parts.map { try JSONOutput.decode(PairPartial.self, from: JSONOutput.encode($0)) }
        #expect(try PairPartial.merge(decoded).unrelated == whole.unrelated)
        let missing =
            shards == 3
            ? "shard 2 of 0..<3 missing (2 of 3 given); re-run that task"
            : "shards 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, … of 0..<16 missing (2 of 16 given); re-run those tasks"
        #expect(errorMessage { _ = try PairPartial.merge(Array(parts.prefix(2))) } == "incomplete: \(missing) and merge again")
        // A shard given twice with the same figures counts once.
        #expect(try PairPartial.merge(parts + [parts[1]]).related == whole.related)
        #expect(errorMessage { _ = try PairShard(text: "3/3") } == "--shard takes i/n with 0 ≤ i < n, got '3/3'")
    }

    /// Shards take equal runs of the tiles in group order: every tile once, runs within one tile of each other, and the
    /// rows the most-reading shard reads at N = 200 000 (worked out in Python from the same order; dealt out k mod n,
    /// every shard read them all).
    @Test(arguments: [1, 2, 4, 16, 64])
    func shardsCoverEveryTileOnceAndReadAFractionOfTheRows(shards: Int) {
        let side = 98
        let runs = (0..<shards).map { PairShard(index: $0, count: shards).tiles(side: side) }
        #expect(runs.flatMap { $0 }.sorted() == Array(0..<side * (side + 1) / 2))
        let sizes = runs.map(\.count)
        #expect(sizes.max()! - sizes.min()! <= 1)
        let engine = PairEngine()
        let read = engine.rowsRead(items: 200_000, dimensions: 384, shards: shards)
        #expect(read.max()! == [1: 200_000, 2: 200_000, 4: 177_472, 16: 101_696, 64: 51_200][shards]!, "\(read)")
    }

    /// A shard reads from a file only the rows its tiles touch, and a bridge forest of other inputs, shape or a broken
    /// forest is refused naming the file.
    @Test func seededShardReadsOnlyItsRowsAndRefusesAForeignBridge() throws {
        let x = try unitRows(randomMatrix(rows: 300, cols: 5, seed: 3))
        let engine = PairEngine(bins: 256, tileSize: 32)
        let reader = CountingRows(x)
        let bridge = try BridgeForest.compute(x, labels: nil, engine: engine, inputs: [fixture("leiden.json")])
        _ = try PairPartial.compute(
            reader, labels: nil, shard: PairShard(index: 0, count: 16), engine: engine, inputs: [fixture("leiden.json")],
            bridge: (bridge, "b.json"))
        // Tiles of 32: shard 0 of 16 touches row blocks 0, 1 and 2 (worked out in Python from the same group order).
        #expect(reader.read == 96 && engine.rowsRead(items: 300, dimensions: 5, shards: 16)[0] == 96)
        #expect(
            errorMessage {
                _ = try PairPartial.compute(
                    x, labels: nil, shard: PairShard(index: 0, count: 4), engine: engine, inputs: [fixture("sklearn-hdbscan.json")],
                    bridge: (bridge, "b.json"))
            } == "b.json was computed from other inputs (input checksums differ)")
        var broken = bridge
        broken.edges.append(broken.edges[0])
        let path = NSTemporaryDirectory() + "/bridge-\(UUID().uuidString).json"
        try JSONOutput.encode(broken).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(errorMessage { _ = try BridgeForest.read(path: path) }?.hasPrefix("\(path): 'edges': 300 edges on 300 items") == true)
    }

    @Test func unitRowsRejectsZeroAndNonFiniteRows() {
        #expect(
            errorMessage { _ = try unitRows(Matrix(rows: 2, cols: 2, storage: [1, 0, 0, 0])) } == "row 1: vector is zero, cannot normalise")
        #expect(
            errorMessage { _ = try unitRows(Matrix(rows: 1, cols: 2, storage: [1, .nan])) }
                == "row 0: vector has a non-finite value at dimension 1")
    }

    @Test func numpyLinearQuantileByHand() {
        #expect(exactQuantile([1, 2, 3, 4], 0.25) == 1.75)
        #expect(exactQuantile([1, 2, 3, 4], 0.5) == 2.5)
        #expect(exactQuantile([5], 0.99) == 5)
    }

    @Test func costModelRecoversTheFormulaItWasMadeFrom() throws {
        // Points made from 100 GFLOP/s, 1 ns per pair, 50 MiB + 8 B per N·d + 200 B per N.
        func point(_ n: Int, _ d: Int) -> CostModel.Point {
            let pairs = Double(n) * Double(n - 1) / 2
            return .init(
                n: n, d: d, seconds: pairs * (2 * Double(d) / 100e9 + 1e-9),
                peakMiB: (50 * 1_048_576 + 8 * Double(n * d) + 200 * Double(n)) / 1_048_576)
        }
        let points = [point(5000, 384), point(20000, 384), point(80000, 384), point(20000, 128), point(20000, 768)]
        let model = try CostModel(fitting: points)
        #expect(
            (model.flopRate / 100e9).isApproximatelyEqual(to: 1, absoluteTolerance: 1e-6)
                && (model.perPair / 1e-9).isApproximatelyEqual(to: 1, absoluteTolerance: 1e-6))
        #expect(
            model.perItemDimension.isApproximatelyEqual(to: 8, absoluteTolerance: 1e-6)
                && model.perItem.isApproximatelyEqual(to: 200, absoluteTolerance: 1e-4)
                && (model.base / 1_048_576).isApproximatelyEqual(to: 50, absoluteTolerance: 1e-6))
        #expect(model.seconds(n: 200_000, d: 384).isApproximatelyEqual(to: point(200_000, 384).seconds, absoluteTolerance: 1e-6))
        #expect(throws: ThemeLabError.self) { try CostModel(fitting: [point(5000, 384), point(8000, 384), point(9000, 384)]) }
        #expect(throws: ThemeLabError.self) { try CostModel.Point(benchLine: "{\"n\": 3}") }
        let line = try CostModel.Point(benchLine: #"{"n":"5000","d":"384","seconds":"0.12","peak_rss_mib":"64","kernel":"Zen"}"#)
        #expect(line.kernel == "Zen")
    }

    @Test func tilesFitTheCache() {
        // 4·t·(t + 2d) bytes: 2048 at d = 384 needs 22 MiB, at d = 1536 41 MiB.
        #expect(PairEngine.cacheTile(limit: 2048, dimensions: 384, cacheBytes: 32 << 20) == 2048)
        #expect(PairEngine.cacheTile(limit: 2048, dimensions: 1536, cacheBytes: 32 << 20) == 1024)
        #expect(PairEngine.cacheTile(limit: 2048, dimensions: 384, cacheBytes: 8 << 20) == 1024)
        #expect(PairEngine.cacheTile(limit: 2048, dimensions: 384, cacheBytes: 1 << 20) == 256)
        #expect(PairEngine.cacheTile(limit: 16, dimensions: 384, cacheBytes: 1 << 20) == 16)
        #expect(PairEngine.cacheTile(limit: 100, dimensions: 8, cacheBytes: 32 << 20) == 100)
        #expect(PairEngine.cacheTile(limit: 3000, dimensions: 384, cacheBytes: 32 << 20) == 2048)
        #expect(CPUFeatures.lastLevelCacheBytes().map { $0 > 0 } ?? true)
    }
}

/// Records every pair a pass gives it, and fails on a pair given twice.
final class PairCollector: PairConsumer {
    var seen: [Int: Float] = [:]
    var n = 0
    let lock = NSLock()
    func consume(_ tile: SimilarityTile, worker: Int) {
        lock.lock()
        defer { lock.unlock() }
        for a in 0..<tile.rowCount {
            for b in tile.firstColumn(ofRow: a)..<tile.colCount {
                let i = Int(tile.item[tile.rowStart + a])
                let j = Int(tile.item[tile.colStart + b])
                let key = min(i, j) * n + max(i, j)
                #expect(seen[key] == nil)
                seen[key] = tile.values[a * tile.stride + b]
            }
        }
    }
}

/// Unit rows that count how many rows a pass asks for.
final class CountingRows: PassVectors {
    let x: Matrix
    var read = 0
    init(_ x: Matrix) { self.x = x }
    var rows: Int { x.rows }
    var cols: Int { x.cols }
    func vectors(of items: [Int]) -> Matrix {
        read += items.count
        return x.rows(items)
    }
}

extension PairEngineTests {
    /// A bridge whose edge weights were rewritten is refused; parts of different bridges do not merge.
    @Test func aTamperedBridgeAndPartsOfTwoBridgesAreRefused() throws {
        let x = try unitRows(randomMatrix(rows: 300, cols: 5, seed: 3))
        let engine = PairEngine(bins: 256, tileSize: 32)
        let inputs = [fixture("leiden.json")]
        let bridge = try BridgeForest.compute(x, labels: nil, engine: engine, inputs: inputs)
        var tampered = bridge
        tampered.edges[0].w = 0.999
        let path = temporaryFolder() + "/bridge.json"
        try JSONOutput.encode(tampered).write(to: URL(fileURLWithPath: path))
        #expect(
            errorMessage { _ = try BridgeForest.read(path: path) }
                == "\(path): 'edges' do not match 'edgesDigest': the file was changed after pairs --bridge-out wrote it")
        // A second bridge (of vectors with one row moved) seeds the other shards: merge names both parts.
        var moved = x
        for k in 0..<5 { moved[7, k] = x[8, k] }
        let other = try BridgeForest.compute(moved, labels: nil, engine: engine, inputs: inputs)
        let parts = try (0..<2).map { k in
            try PairPartial.compute(
                x, labels: nil, shard: PairShard(index: k, count: 2), engine: engine, inputs: inputs,
                bridge: (k == 0 ? bridge : other, "b\(k).json"))
        }
        let message = errorMessage { _ = try PairPartial.distinctShards(parts, names: ["p0.json", "p1.json"]) }
        #expect(
            message
                == "p1.json started from bridge \(other.edgesDigest.prefix(12)), p0.json from bridge \(bridge.edgesDigest.prefix(12)): "
                + "parts of one pass share one bridge")
    }
}
