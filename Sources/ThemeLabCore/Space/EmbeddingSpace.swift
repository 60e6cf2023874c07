import COpenBLAS
import Foundation

/// A geometry to compare vectors in. Each turns raw vectors (N×d, one row per item) into unit
/// vectors whose dot products are the similarities of that space (docs/method.md, "Claims and definitions").
package enum EmbeddingSpace: Sendable, Hashable, Codable, CustomStringConvertible {
    /// Cosine of the raw vectors: u = x/‖x‖.
    case raw
    /// The journal method's space: μ = mean of unit vectors, c = (u − μ)/‖u − μ‖.
    case centred
    /// Subtract the mean of the raw (unnormalised) vectors, then normalise.
    case centredUnnormalised
    /// All-but-the-top (Mu & Viswanath 2018): centred, then remove the top D principal
    /// directions of the centred vectors' covariance, then renormalise.
    case allButTheTop(directions: Int?)
    /// Whitening (Su et al. 2021): centred, times U_k·diag(1/√λ_k), then renormalise.
    case whiten(components: Int?)
    /// Per-dimension standardisation (Timkey & van Schijndel 2021, "rogue dimensions"): the unit vectors' mean
    /// subtracted and each dimension divided by its standard deviation over the corpus (1 where it is 0, as
    /// scikit-learn's StandardScaler), then normalised.
    case standardised

    /// Every space, in the order help texts and docs list them.
    package static let registry = Registry<EmbeddingSpace>(
        kind: "space",
        [
            RegistryEntry("raw", summary: "cosine of the raw vectors") { _ in .raw },
            RegistryEntry("centred", summary: "the journal method's: the mean unit vector subtracted, then normalised") { _ in .centred },
            RegistryEntry("centred-unnormalised", summary: "the mean of the raw vectors subtracted, then normalised") { _ in
                .centredUnnormalised
            },
            RegistryEntry(
                "abtt", forms: ["abtt", "abtt(D)"], parameters: [.count("D")],
                summary: "all-but-the-top: centred, the top D principal directions removed (default max(1, d/100))",
                examples: ["abtt", "abtt(2)"]
            ) { .allButTheTop(directions: $0.whole(at: 0)) },
            RegistryEntry(
                "whiten", forms: ["whiten", "whiten(k)"], parameters: [.count("k")],
                summary: "centred, then whitened on the top k principal components (default all)",
                examples: ["whiten", "whiten(3)"]
            ) { .whiten(components: $0.whole(at: 0)) },
            RegistryEntry(
                "standardised",
                summary: "the mean unit vector subtracted and each dimension divided by its standard deviation, then normalised"
            ) { _ in .standardised },
        ])

    /// The memory the space's transform holds beyond the vectors, in bytes: the d×d covariance (three copies of
    /// Float64) of the spaces that decompose it; nil for the others.
    package func memory(dimensions d: Int) -> Double? {
        switch self {
        case .whiten, .allButTheTop: 3 * 8 * Double(d) * Double(d)
        default: nil
        }
    }

    /// The space `name` names (`registry`; `centered` is `centred`).
    package init(name: String) throws { self = try Self.registry.parse(name == "centered" ? "centred" : name) }

    /// Written as its name (`abtt(2)`), in results and experiment files alike.
    package init(from decoder: any Decoder) throws {
        let c = try decoder.singleValueContainer()
        do { self = try EmbeddingSpace(name: try c.decode(String.self)) } catch let e as ThemeLabError {
            throw DecodingError.dataCorruptedError(in: c, debugDescription: "\(e)")
        }
    }

    package func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(description)
    }

    package var description: String {
        switch self {
        case .raw: "raw"
        case .centred: "centred"
        case .centredUnnormalised: "centred-unnormalised"
        case .allButTheTop(let d): d.map { "abtt(\($0))" } ?? "abtt"
        case .whiten(let k): k.map { "whiten(\($0))" } ?? "whiten"
        case .standardised: "standardised"
        }
    }

    /// Unit vectors of this space.
    /// - Parameters:
    ///   - x: the vectors as given, one row per item.
    ///   - unit: `x`'s unit rows (`unitRows(x)`) when the caller has them, so that they are not computed again.
    ///   - itemName: names a row in errors (a zero or non-finite vector).
    /// - Returns: one unit row per item, whose dot products are the similarities of this space.
    package func transform(_ x: Matrix, unit: Matrix? = nil, itemName: (Int) -> String = { "row \($0)" }) throws -> Matrix {
        func unitX() throws -> Matrix { try unit ?? unitRows(x, itemName: itemName) }
        switch self {
        case .raw:
            return try unitX()
        case .centred:
            let u = try unitX()
            return try unitRows(subtracting(columnMean(u), from: u), itemName: { "\(itemName($0)) after centring" })
        case .centredUnnormalised:
            if unit == nil { try checkUnitRows(x, itemName: itemName) }
            return try unitRows(subtracting(columnMean(x), from: x), itemName: { "\(itemName($0)) after centring" })
        case .allButTheTop(let directions):
            let c = try EmbeddingSpace.centred.transform(x, unit: unit, itemName: itemName)
            let d = directions ?? max(1, c.cols / 100)
            guard d < c.cols else { throw ThemeLabError.invalid("abtt(\(d)): D must be below the dimension \(c.cols)") }
            let pca = try PrincipalAxes(c)
            var projected = c
            for axis in pca.axes(top: d) { projectOut(axis, from: &projected) }
            return try unitRows(projected, itemName: { "\(itemName($0)) after removing the top \(d) directions" })
        case .whiten(let components):
            let c = try EmbeddingSpace.centred.transform(x, unit: unit, itemName: itemName)
            let k = components ?? c.cols
            guard k <= c.cols else { throw ThemeLabError.invalid("whiten(\(k)): k must be at most the dimension \(c.cols)") }
            let pca = try PrincipalAxes(c)
            let smallest = pca.eigenvalues[pca.eigenvalues.count - k]
            guard smallest > 1e-6 * pca.eigenvalues.last! else {
                throw ThemeLabError.input(
                    "whiten(\(k)): the covariance has rank below \(k), or nearly (its \(k)th eigenvalue is under 1e-6 of the largest; "
                        + "\(c.rows) items in \(c.cols) dims); choose a smaller k")
            }
            return try unitRows(pca.whitened(c, components: k), itemName: { "\(itemName($0)) after whitening" })
        case .standardised:
            let u = try unitX()
            return try unitRows(standardisingColumns(u), itemName: { "\(itemName($0)) after standardising" })
        }
    }
}

/// Column means (accumulated in Float64).
package func columnMean(_ x: Matrix) -> [Float] {
    var sums = [Double](repeating: 0, count: x.cols)
    x.withUnsafePointer { p in
        for i in 0..<x.rows { for k in 0..<x.cols { sums[k] += Double(p[i * x.cols + k]) } }
    }
    return sums.map { Float($0 / Double(max(x.rows, 1))) }
}

/// Each column minus its mean, divided by its standard deviation (population, in Float64; 1 where it is 0).
package func standardisingColumns(_ x: Matrix) -> Matrix {
    var y = subtracting(columnMean(x), from: x)
    let n = Double(max(x.rows, 1))
    var sums = [Double](repeating: 0, count: x.cols)
    y.withUnsafeMutablePointer { p in
        for i in 0..<x.rows { for k in 0..<x.cols { sums[k] += Double(p[i * x.cols + k]) * Double(p[i * x.cols + k]) } }
        let scale = sums.map { s in s > 0 ? 1 / (s / n).squareRoot() : 1 }
        for i in 0..<x.rows { for k in 0..<x.cols { p[i * x.cols + k] = Float(Double(p[i * x.cols + k]) * scale[k]) } }
    }
    return y
}

package func subtracting(_ mean: [Float], from x: Matrix) -> Matrix {
    var y = x
    y.withUnsafeMutablePointer { p in
        for i in 0..<x.rows { for k in 0..<x.cols { p[i * x.cols + k] -= mean[k] } }
    }
    return y
}

/// x ← x − (x·a)a for every row, a unit axis (one sgemv and one sger).
package func projectOut(_ axis: [Float], from x: inout Matrix) {
    var coefficients = [Float](repeating: 0, count: x.rows)
    let (n, d) = (Int32(x.rows), Int32(x.cols))
    x.withUnsafeMutablePointer { p in
        cblas_sgemv(CblasRowMajor, CblasNoTrans, n, d, 1, p, d, axis, 1, 0, &coefficients, 1)
        cblas_sger(CblasRowMajor, n, d, -1, coefficients, 1, axis, 1, p, d)
    }
}
