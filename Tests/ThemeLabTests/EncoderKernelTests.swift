import COpenBLAS
import Foundation
import Testing
import ThemeLabCore
import ThemeLabEncoder

/// The encoder's own kernel: every path gives the bits of one fused multiply-add chain per element in k order (an
/// independent reference written here with `Float.addingProduct`), and sgemm's figures within rounding.
@Suite struct EncoderKernelTests {
    /// Seeded values in [−1, 1).
    static func values(_ count: Int, seed: UInt64) -> [Float] {
        var rng = SeededRandom(seed: seed)
        return (0..<count).map { _ in Float(rng.uniform() * 2 - 1) }
    }

    /// c[i][j] = (Σₖ a[i][k]·w[j][k], one FMA a step from 0) · scale + bias[j]: the order the kernel promises.
    static func reference(_ a: [Float], _ w: [Float], m: Int, n: Int, k: Int, scale: Float, bias: [Float]?) -> [Float] {
        (0..<(m * n)).map { e in
            let (i, j) = (e / n, e % n)
            var acc: Float = 0
            for kk in 0..<k { acc = acc.addingProduct(a[i * k + kk], w[j * k + kk]) }
            let v = acc * scale
            return bias.map { v + $0[j] } ?? v
        }
    }

    /// The kernel's product on `path`, into a fresh array.
    static func product(
        _ path: EncoderKernel.Path, _ a: [Float], _ b: PackedMatrix, m: Int, scale: Float = 1, bias: [Float]? = nil
    ) -> [Float] {
        var c = [Float](repeating: .nan, count: m * b.columns)
        let biasCopy = bias ?? []
        a.withUnsafeBufferPointer { a in
            biasCopy.withUnsafeBufferPointer { bias in
                c.withUnsafeMutableBufferPointer { c in
                    EncoderKernel.product(
                        path, rows: m, a.baseAddress!, lda: b.depth, b, scale: scale, bias: bias.isEmpty ? nil : bias.baseAddress!,
                        into: c.baseAddress!, ldc: b.columns)
                }
            }
        }
        return c
    }

    @Test(arguments: [(1, 1, 1), (7, 17, 33), (13, 16, 16), (9, 40, 70), (25, 384, 64), (97, 33, 5), (8, 32, 384)])
    func everyPathGivesTheReferenceBits(_ m: Int, _ n: Int, _ k: Int) throws {
        let (a, w, bias) = (Self.values(m * k, seed: 1), Self.values(n * k, seed: 2), Self.values(n, seed: 3))
        let packed = w.withUnsafeBufferPointer { PackedMatrix(transposing: $0.baseAddress!, stride: k, columns: n, depth: k) }
        for (scale, b) in [(Float(1), Optional(bias)), (0.17677669, nil)] {
            let expected = Self.reference(a, w, m: m, n: n, k: k, scale: scale, bias: b)
            for path in EncoderKernel.available {
                let c = Self.product(path, a, packed, m: m, scale: scale, bias: b)
                #expect(c.map(\.bitPattern) == expected.map(\.bitPattern), "\(path) \(m)×\(n)×\(k)")
            }
        }
    }

    /// B given [k][n] (values) packs to the same product as its transpose given [n][k] (keys).
    @Test func bothPackingsGiveOneProduct() throws {
        let (m, n, k) = (11, 21, 19)
        let (a, w) = (Self.values(m * k, seed: 4), Self.values(n * k, seed: 5))
        let transposed = (0..<(k * n)).map { e in w[(e % n) * k + e / n] }  // [k][n]
        let p1 = w.withUnsafeBufferPointer { PackedMatrix(transposing: $0.baseAddress!, stride: k, columns: n, depth: k) }
        let p2 = transposed.withUnsafeBufferPointer { PackedMatrix($0.baseAddress!, stride: n, depth: k, columns: n) }
        #expect(p1.values == p2.values)
    }

    /// Against OpenBLAS's sgemm: the same product within the error bound of a k-term Float32 sum, k·2⁻²⁴·Σ|aᵢbᵢ| per element
    /// (Higham, Accuracy and Stability of Numerical Algorithms, §3.1), for both orders.
    @Test func agreesWithSgemmWithinRounding() throws {
        let (m, n, k) = (37, 100, 384)
        let (a, w) = (Self.values(m * k, seed: 6), Self.values(n * k, seed: 7))
        var expected = [Float](repeating: 0, count: m * n)
        cblas_sgemm(
            CblasRowMajor, CblasNoTrans, CblasTrans, Int32(m), Int32(n), Int32(k), 1, a, Int32(k), w, Int32(k), 0, &expected, Int32(n))
        let packed = w.withUnsafeBufferPointer { PackedMatrix(transposing: $0.baseAddress!, stride: k, columns: n, depth: k) }
        let c = Self.product(EncoderKernel.best, a, packed, m: m)
        for e in 0..<(m * n) {
            let (i, j) = (e / n, e % n)
            let magnitude = (0..<k).reduce(0.0) { $0 + abs(Double(a[i * k + $1]) * Double(w[j * k + $1])) }
            let bound = 2 * Double(k) * 0x1p-24 * magnitude
            #expect(abs(Double(c[e]) - Double(expected[e])) <= bound, "element \(i), \(j)")
        }
    }

    @Test func anUnknownOrMissingPathIsRefusedInOneLine() throws {
        #expect(
            errorMessage { _ = try EncoderKernel.path(asked: "sse") } == "THEMELAB_ENCODER_PATH=sse: expected one of scalar, avx2, avx512")
        #expect(try EncoderKernel.path(asked: nil) == EncoderKernel.best)
        #expect(try EncoderKernel.path(asked: "scalar") == .scalar)
    }
}
