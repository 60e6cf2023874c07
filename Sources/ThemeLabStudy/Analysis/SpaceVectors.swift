import Foundation
import Synchronization
import ThemeLabCore

/// The vectors an analysis computes a space's figures on (unit rows, corpus order) with the corpus's labels, written
/// by `ablate --vectors DIR` as DIR/CORPUS--SOURCE--SPACE.npy and .json, for peers that run on the same vectors
/// (`Experiments/bench/peer-clustering`).
package struct SpaceVectors: Codable, Sendable, Equatable {
    package var corpus: String
    package var source: String
    package var space: String
    /// Topic numbers (0 … topics − 1) in corpus order; nil for an unlabelled corpus.
    package var labels: [Int32]?

    /// The file name both files share, without extension.
    package var stem: String { [corpus, source, space].map(fileNameSlug).joined(separator: "--") }

    /// The two files `write` writes into `folder` for one space of an analysis.
    package static func files(in folder: String, corpus: String, source: String, space: String) -> [String] {
        let stem = SpaceVectors(corpus: corpus, source: source, space: space).stem
        return ["\(folder)/\(stem).npy", "\(folder)/\(stem).json"]
    }

    /// Writes `x` and this description into `folder`, refusing a name this process has written before (two sources of
    /// one corpus can share a description: `embeddings x.npy` from two folders).
    package func write(_ x: Matrix, into folder: String) throws {
        let path = "\(folder)/\(stem)"  // with .npy and .json (`files`)
        guard Self.written.withLock({ $0.insert(path).inserted }) else {
            throw ThemeLabError.input("\(path).npy would be written twice: two corpora or vector sources share its name")
        }
        try NPY.write(x, to: path + ".npy")
        try AtomicFile.write(try JSONOutput.string(self), to: path + ".json")
    }

    /// Every path written so far by this process (analyses run two at a time).
    private static let written = Mutex<Set<String>>([])
}
