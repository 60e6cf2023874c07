import Foundation
import Testing
import ThemeLabCore
import ThemeLabMethods

/// Spaces against numpy (Fixtures/numpy-spaces.json, scripts/fixtures/make_space_fixtures.py):
/// every pairwise cosine within 1e-5 (Float32 against Float64). Cosines, not vectors, are
/// compared, since eigenvectors are defined up to sign.
@Suite struct SpaceTests {
    struct File: Decodable { var cosines: [String: [Double]] }
    static let reference = try! decodeFixture(File.self, "numpy-spaces.json")
        .cosines

    @Test(arguments: ["raw", "centred", "centred-unnormalised", "abtt(1)", "whiten(4)", "standardised"])
    func cosinesMatchNumpy(_ name: String) throws {
        let x = try NPY.read(path: fixture("scipy-grouping.npy"))
        let y = try EmbeddingSpace(name: name).transform(x)
        let expected = try #require(Self.reference[name])
        var k = 0
        var worst = 0.0
        for i in 0..<y.rows {
            for j in (i + 1)..<y.rows {
                let dot = (0..<y.cols).reduce(0.0) { $0 + Double(y[i, $1]) * Double(y[j, $1]) }
                worst = max(worst, abs(dot - expected[k]))
                k += 1
            }
        }
        #expect(worst < 1e-5, "\(name): max abs difference \(worst)")
    }

    /// A space built from unit rows the caller already has gives the bits it gives from the raw vectors alone, so an
    /// analysis normalises its vectors once; a zero row is refused naming it either way. (On one BLAS thread, as the
    /// harness runs: dsyevd's bits follow the thread count.)
    @Test(arguments: ["raw", "centred", "centred-unnormalised", "abtt(1)", "whiten(4)", "standardised"])
    func unitRowsGivenOnceGiveTheSameBits(_ name: String) throws {
        BLASRuntime.useOneThread()
        let x = randomMatrix(rows: 30, cols: 8, seed: 3)
        let space = try EmbeddingSpace(name: name)
        #expect(try space.transform(x, unit: try unitRows(x)).storage == (try space.transform(x)).storage)
        var zero = x
        for k in 0..<x.cols { zero[4, k] = 0 }
        #expect(errorMessage { _ = try space.transform(zero) } == "row 4: vector is zero, cannot normalise")
        #expect(errorMessage { try checkUnitRows(zero) } == "row 4: vector is zero, cannot normalise")
    }

    @Test func defaultsAndNames() throws {
        #expect(try EmbeddingSpace(name: "abtt") == .allButTheTop(directions: nil))
        #expect(try EmbeddingSpace(name: "whiten(3)").description == "whiten(3)")
        #expect(errorMessage { _ = try EmbeddingSpace(name: "abtt(0)") } == "abtt(0): D must be a whole number from 1 to 1000000, got 0")
        let small = randomMatrix(rows: 5, cols: 8, seed: 1)
        #expect(errorMessage { _ = try EmbeddingSpace.whiten(components: nil).transform(small) }?.contains("rank below 8") == true)
    }

    /// Claim C7: summing per-theme running sums gives the sentence mean. Float64 accumulation
    /// of Float32 inputs: same bits on these vectors.
    @Test func themeSumsGiveTheSentenceMeanExactly() throws {
        let x = try unitRows(try NPY.read(path: fixture("scipy-grouping.npy")))
        var sums = ThemeSums(dimensions: x.cols)
        var direct = [Double](repeating: 0, count: x.cols)
        for i in 0..<x.rows {
            sums.add(x.row(i), to: (i * 7) % 5)  // themes interleaved, not in corpus order
            for k in 0..<x.cols { direct[k] += Double(x[i, k]) }
        }
        #expect(sums.mean == direct.map { $0 / Double(x.rows) })
        #expect(sums.counts.reduce(0, +) == x.rows)
    }
}
