import Foundation
import ThemeLabCore

/// Labeled unit vectors drawn from a seeded generative model, for runs that need no encoder.
///
/// Model: a shared unit direction m, a random unit direction c_t and an anisotropy level
/// a_t = a + σₐ·z_t (z_t ~ N(0, 1)) per topic, and isotropic noise:
///   x = a_t·m + b·c_t + s·ε/√d,  ε ~ N(0, I_d),  u = x/‖x‖.
/// The common term lifts every raw cosine: two items of different topics score about
/// a_t·a_t′/√((a_t² + b² + s²)(a_t′² + b² + s²)), so a sets the centre of the unrelated band and
/// σₐ its width (random c_t are nearly orthogonal in high d and add only ~b²/(‖x‖²√d)); items of
/// one topic score about (a_t² + b²)/(a_t² + b² + s²). Centring removes m and leaves b·c_t + noise.
package struct SyntheticVectors: Sendable, Codable, Equatable {
    package var dimensions: Int
    package var topicSizes: [Int]
    /// a: the common direction's weight.
    package var anisotropy: Double
    /// σₐ: its spread across topics.
    package var anisotropySpread: Double
    /// b: the topic direction's weight.
    package var topicStrength: Double
    /// s: the noise's weight.
    package var noise: Double
    package var seed: UInt64

    /// The fields of a generator in an experiment file (`ExperimentSchema`).
    package enum CodingKeys: String, CodingKey, CaseIterable {
        case dimensions, topicSizes, anisotropy, anisotropySpread, topicStrength, noise, seed
    }

    package init(
        dimensions: Int, topicSizes: [Int], anisotropy: Double, anisotropySpread: Double = 0,
        topicStrength: Double, noise: Double, seed: UInt64
    ) {
        self.dimensions = dimensions
        self.topicSizes = topicSizes
        self.anisotropy = anisotropy
        self.anisotropySpread = anisotropySpread
        self.topicStrength = topicStrength
        self.noise = noise
        self.seed = seed
    }

    /// The raw picture the journal method's author reported: d = 512, unrelated raw cosines in a band about 0.08 wide
    /// above 0.85, topics of uneven size.
    /// The corpus name: anisotropy and topic count to read, then a digest of every parameter, so two
    /// generators that differ in anything (seed, sizes, strength, noise, d) never share a name.
    package var identity: String {
        let digest = SHA256.hex((try? JSONOutput.encode(self)) ?? Data()).prefix(8)
        return "synthetic-a\(formatArgument(anisotropy))-t\(topicSizes.count)-\(digest)"
    }

    package static func journalMethodRaw(seed: UInt64 = 1) -> SyntheticVectors {
        SyntheticVectors(
            dimensions: 512, topicSizes: [12, 10, 8, 8, 6, 6, 5, 5], anisotropy: 2.4, anisotropySpread: 0.3,
            topicStrength: 0.7, noise: 0.5, seed: seed)
    }

    /// The generated items as a corpus (ids and labels, no text).
    package func corpus(name: String) -> (corpus: Corpus, vectors: Matrix) {
        let (vectors, labels) = generate()
        let items = labels.enumerated().map { CorpusItem(id: "\(name)-\($0.offset + 1)", label: "topic-\($0.element + 1)") }
        return (Corpus(name: name, items: items), vectors)
    }

    /// Unit vectors in topic order and their topic index.
    package func generate() -> (vectors: Matrix, labels: [Int32]) {
        var rng = SeededRandom(seed: seed)
        let d = dimensions
        func randomUnit() -> [Double] {
            let v = (0..<d).map { _ in rng.gaussian() }
            let norm = v.reduce(0) { $0 + $1 * $1 }.squareRoot()
            return v.map { $0 / norm }
        }
        let common = randomUnit()
        let n = topicSizes.reduce(0, +)
        var out = Matrix(rows: n, cols: d)
        var labels: [Int32] = []
        var row = 0
        for (t, size) in topicSizes.enumerated() {
            let centre = randomUnit()
            let a = anisotropy + anisotropySpread * rng.gaussian()
            for _ in 0..<size {
                var x = (0..<d).map { k in a * common[k] + topicStrength * centre[k] + noise * rng.gaussian() / Double(d).squareRoot() }
                let norm = x.reduce(0) { $0 + $1 * $1 }.squareRoot()
                x = x.map { $0 / norm }
                for k in 0..<d { out[row, k] = Float(x[k]) }
                labels.append(Int32(t))
                row += 1
            }
        }
        return (out, labels)
    }
}
