/// Labeled unit vectors drawn from a seeded generative model, for runs that need no encoder.
///
/// Model: a shared unit direction m, a unit direction c_t per topic and isotropic noise:
/// x = a·m + b·c_t + s·ε/√d with ε ~ N(0, I_d), then u = x/‖x‖. The common term a·m is the
/// anisotropy (it lifts every raw cosine by about a²/‖x‖²); b sets how tight a topic is; s the noise.
public struct SyntheticVectors: Sendable {
    public var dimensions: Int
    public var topicSizes: [Int]
    public var anisotropy: Double
    public var topicStrength: Double
    public var noise: Double
    public var seed: UInt64

    public init(dimensions: Int, topicSizes: [Int], anisotropy: Double, topicStrength: Double, noise: Double, seed: UInt64) {
        self.dimensions = dimensions
        self.topicSizes = topicSizes
        self.anisotropy = anisotropy
        self.topicStrength = topicStrength
        self.noise = noise
        self.seed = seed
    }

    /// Unit vectors in topic order and their topic index.
    public func generate() -> (vectors: Matrix, labels: [Int32]) {
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
            for _ in 0..<size {
                var x = (0..<d).map { k in anisotropy * common[k] + topicStrength * centre[k] + noise * rng.gaussian() / Double(d).squareRoot() }
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
