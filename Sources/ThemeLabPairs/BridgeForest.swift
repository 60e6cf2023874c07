import Foundation
import ThemeLabCore

/// The maximum spanning forest of the pass's bridge tiles (on the diagonal and next to it, `PassBlock`), computed once
/// by a task before a sharded pass (`themelab pairs --bridge-out`) so that no shard computes them: each shard's forest
/// starts from it (`SpanningForest.seed`) and keeps the same edges as if it had read the tiles, since an edge left out
/// of the bridge tiles' forest is the lightest on a cycle of them and so is out of any forest of pairs that contains
/// them. At N = 200 000 the bridge tiles were 60% of a 16-way shard's own Gram work, computed by all 16; now once.
package struct BridgeForest: Codable, Sendable {
    package static let currentSchema = 2
    package var schemaVersion = BridgeForest.currentSchema
    /// SHA-256 of each input (embeddings, then labels when given): a shard of other inputs refuses it.
    package var inputChecksums: [String]
    package var items: Int
    package var dimensions: Int
    /// The OpenBLAS kernel the similarities were computed on: a shard on another kernel would join items by pairs whose
    /// last bits differ from its own, so it refuses the file.
    package var kernel: String
    /// Heaviest first, ties by (i, j).
    package internal(set) var edges: [SpanningForest.Edge]
    /// SHA-256 of the edges (`digest(of:)`): a bridge whose edges were changed after it was written is refused, and a
    /// part records the digest of the bridge it started from, so parts of different bridges do not merge.
    package internal(set) var edgesDigest: String

    /// The bridge forest of unit vectors `x` (labels sort the items as the pass does).
    package static func compute(
        _ x: any PassVectors, labels: [Int32]?, engine: PairEngine, inputs: [String], progress: ((Int, Int) -> Void)? = nil
    ) throws -> BridgeForest {
        let forest = SpanningForest(items: x.rows)
        let layout = PassLayout(
            engine: engine, items: x.rows, dimensions: x.cols, labels: labels, shard: .whole, consumers: [forest], bridge: .alone)
        _ = engine.accumulate(try x.vectors(of: layout.positions), layout, consumers: [forest], progress: progress, countsPairs: false)
        return BridgeForest(
            inputChecksums: try inputs.map { try SHA256.hex(file: $0) }, items: x.rows, dimensions: x.cols,
            kernel: BLASRuntime.corename, edges: forest.edges, edgesDigest: digest(of: forest.edges))
    }

    /// SHA-256 over each edge's i, j (32-bit) and weight's bits (IEEE binary32), little-endian, in order.
    package static func digest(of edges: [SpanningForest.Edge]) -> String {
        var bytes = Data(capacity: 12 * edges.count)
        for e in edges {
            for v in [UInt32(bitPattern: e.i), UInt32(bitPattern: e.j), e.w.bitPattern] {
                withUnsafeBytes(of: v.littleEndian) { bytes.append(contentsOf: $0) }
            }
        }
        return SHA256.hex(bytes)
    }

    /// Reads a bridge file and checks that it is a forest on its items (`items`, when given, checked first: a file that
    /// claims 2³¹ items is refused before a union-find of that size is made).
    package static func read(path: String, items expected: Int? = nil) throws -> BridgeForest {
        guard let data = FileManager.default.contents(atPath: path) else { throw ThemeLabError.input("\(path): cannot read") }
        return try decode(data, name: path, items: expected)
    }

    /// A bridge from its bytes, checked as `read` checks it; `path` names it in errors.
    package static func decode(_ data: Data, name path: String, items expected: Int? = nil) throws -> BridgeForest {
        let bridge = try JSONOutput.decode(
            BridgeForest.self, from: data, file: path, expected: "bridge written by themelab pairs --bridge-out")
        func fail(_ what: String) -> ThemeLabError { .input("\(path): \(what)") }
        guard bridge.schemaVersion == currentSchema else {
            throw fail("schemaVersion \(bridge.schemaVersion); this themelab reads \(currentSchema) (re-run pairs --bridge-out)")
        }
        guard (2...Int(Int32.max)).contains(bridge.items), bridge.dimensions >= 1 else {
            throw fail("'items' or 'dimensions' out of range")
        }
        if let expected, bridge.items != expected { throw fail("'items' is \(bridge.items), the embeddings have \(expected) rows") }
        if let broken = SpanningForest.invariantViolations(items: bridge.items, edges: bridge.edges).first {
            throw fail("'edges': \(broken)")
        }
        guard digest(of: bridge.edges) == bridge.edgesDigest else {
            throw fail("'edges' do not match 'edgesDigest': the file was changed after pairs --bridge-out wrote it")
        }
        if let e = bridge.edges.first(where: { !(-1.0001...1.0001).contains($0.w) }) {
            throw fail("'edges' has a weight \(e.w) outside [−1, 1] on (\(e.i), \(e.j))")
        }
        return bridge
    }

    /// Refuses, naming the file, a bridge of other inputs, shape or kernel than the shard about to use it.
    package func check(inputChecksums shard: [String], items n: Int, dimensions d: Int, name: String) throws {
        guard inputChecksums == shard else { throw ThemeLabError.input("\(name) was computed from other inputs (input checksums differ)") }
        guard items == n, dimensions == d else {
            throw ThemeLabError.input("\(name) is of \(items) × \(dimensions) vectors, the embeddings are \(n) × \(d)")
        }
        guard kernel == BLASRuntime.corename else {
            throw ThemeLabError.input("\(name) was computed on OpenBLAS kernel \(kernel), this run uses \(BLASRuntime.corename)")
        }
    }
}
