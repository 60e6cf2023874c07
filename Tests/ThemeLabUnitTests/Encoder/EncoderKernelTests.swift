import CKernels
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

    /// GELU step by step, x·½(1 + erf(x/√2)) with the kernel's erf.
    static func gelu(_ x: Float) -> Float { 0.5 * x * (1 + EncoderKernel.erf(x * 0.70710678118654752)) }

    /// What the product's last steps take besides the sum: a scale, a bias, a residual [m][n], GELU or not.
    struct Finish {
        var scale: Float = 1
        var bias: [Float]? = nil
        var residual: [Float]? = nil
        /// The residual's row stride (nil: the product's width).
        var stride: Int? = nil
        var gelu = false
    }

    /// c[i][j] = (Σₖ a[i][k]·w[j][k], one FMA a step from 0) · scale + bias[j] + residual[i][j], then GELU: the order the
    /// kernel promises, each step rounded once.
    static func reference(_ a: [Float], _ w: [Float], m: Int, n: Int, k: Int, _ f: Finish) -> [Float] {
        (0..<(m * n)).map { e in
            let (i, j) = (e / n, e % n)
            var acc: Float = 0
            for kk in 0..<k { acc = acc.addingProduct(a[i * k + kk], w[j * k + kk]) }
            var v = acc * f.scale
            if let bias = f.bias { v = v + bias[j] }
            if let residual = f.residual { v = v + residual[i * (f.stride ?? n) + j] }
            return f.gelu ? gelu(v) : v
        }
    }

    /// The kernel's product on `path`, into a fresh array.
    static func product(_ path: KernelPath, _ a: [Float], _ b: PackedMatrix, m: Int, _ f: Finish = Finish()) -> [Float] {
        var c = [Float](repeating: .nan, count: m * b.columns)
        let (bias, residual) = (f.bias ?? [], f.residual ?? [])
        a.withUnsafeBufferPointer { a in
            bias.withUnsafeBufferPointer { bias in
                residual.withUnsafeBufferPointer { residual in
                    c.withUnsafeMutableBufferPointer { c in
                        let finish = EncoderKernel.Finish(
                            scale: f.scale, bias: bias.isEmpty ? nil : bias.baseAddress!,
                            residual: residual.isEmpty ? nil : (residual.baseAddress!, f.stride ?? b.columns), gelu: f.gelu)
                        EncoderKernel.product(path, rows: m, a.baseAddress!, lda: b.depth, b, finish, into: c.baseAddress!, ldc: b.columns)
                    }
                }
            }
        }
        return c
    }

    @Test(arguments: [
        (1, 1, 1), (7, 17, 33), (13, 16, 16), (9, 40, 70), (25, 384, 64), (97, 33, 5), (8, 32, 384), (97, 40, 300), (130, 33, 129),
        (11, 11, 32), (11, 32, 11), (5, 16, 3),
    ])
    func everyPathGivesTheReferenceBits(_ m: Int, _ n: Int, _ k: Int) throws {
        let (a, w, bias) = (Self.values(m * k, seed: 1), Self.values(n * k, seed: 2), Self.values(n, seed: 3))
        let packed = w.withUnsafeBufferPointer { PackedMatrix(transposing: $0.baseAddress!, stride: k, columns: n, depth: k) }
        let (residual, strided) = (Self.values(m * n, seed: 4), Self.values(m * (n + 3), seed: 6))
        let finishes = [
            Finish(bias: bias), Finish(scale: 0.17677669), Finish(bias: bias, residual: residual), Finish(bias: bias, gelu: true),
            Finish(scale: 0.17677669, bias: bias, residual: strided, stride: n + 3, gelu: true),
        ]
        for f in finishes {
            let expected = Self.reference(a, w, m: m, n: n, k: k, f)
            for path in KernelPath.available {
                let c = Self.product(path, a, packed, m: m, f)
                #expect(c.map(\.bitPattern) == expected.map(\.bitPattern), "\(path) \(m)×\(n)×\(k) \(f)")
            }
        }
    }

    /// The ceiling's loop counts what it runs: twelve chains, two flops a lane a step (1, 8 or 16 lanes), by hand.
    @Test func theCeilingCountsItsFlops() {
        for path in KernelPath.available {
            let lanes: Double = [.scalar: 1, .avx2: 8, .avx512: 16][path]!
            #expect(tl_fma_ceiling(path.code, 1000) == 24 * lanes * 1000, "\(path)")
        }
    }

    /// B given [k][n] (values) packs to the same product as its transpose given [n][k] (keys).
    @Test func bothPackingsGiveOneProduct() throws {
        let (n, k) = (21, 19)
        let w = Self.values(n * k, seed: 5)
        let transposed = (0..<(k * n)).map { e in w[(e % n) * k + e / n] }  // [k][n]
        let p1 = w.withUnsafeBufferPointer { PackedMatrix(transposing: $0.baseAddress!, stride: k, columns: n, depth: k) }
        var p2 = [Float](repeating: .nan, count: PackedMatrix.size(columns: n, depth: k))
        transposed.withUnsafeBufferPointer { b in
            p2.withUnsafeMutableBufferPointer { PackedMatrix.pack(b.baseAddress!, stride: n, depth: k, columns: n, into: $0.baseAddress!) }
        }
        #expect(p1.values.map(\.bitPattern) == p2.map(\.bitPattern))
    }

    /// The products' GELU gives the same bits on every path, for widths that leave a partial panel, and the formula
    /// x·½(1 + erf(x/√2)) with the kernel's erf, computed here step by step: a product 1·x (one step of k, exact) of two
    /// rows with GELU as its last step.
    @Test(arguments: [1, 15, 16, 17, 33, 1_536])
    func geluGivesOneAnswerOnEveryPath(_ n: Int) throws {
        func gelu(_ x: [Float], path: KernelPath) -> [Float] {
            let packed = x.withUnsafeBufferPointer { PackedMatrix(transposing: $0.baseAddress!, stride: 1, columns: x.count, depth: 1) }
            return Self.product(path, [1, 1], packed, m: 2, Finish(gelu: true))
        }
        let x = Self.values(n, seed: 8).map { $0 * 6 }
        for path in KernelPath.available {
            #expect(gelu(x, path: path).map(\.bitPattern) == (x + x).map { Self.gelu($0).bitPattern }, "\(path), \(n) values")
        }
        for path in KernelPath.available {  // 48 values: whole vectors on every path
            let large = [Float](repeating: -50, count: 16) + [Float](repeating: 0, count: 16) + [Float](repeating: 50, count: 16)
            #expect(gelu(large, path: path).map(\.bitPattern) == (0..<96).map { [Float(-0.0), 0, 50][$0 % 48 / 16].bitPattern }, "\(path)")
        }
    }

    /// Softmax gives the same bits on every path (rows with a tail after whole vectors), sums to 1 within rounding and
    /// agrees with a Float64 softmax of the same x − max within (6 + n)·2⁻²⁴ relative; eˣ within 3 ulp of libm's exp over [−87, 0].
    @Test(arguments: [1, 7, 16, 23, 128])
    func softmaxGivesOneAnswerOnEveryPath(_ n: Int) throws {
        let rows = 3
        let x = Self.values(rows * n, seed: 9).map { $0 * 12 }
        var answers: [[Float]] = []
        for path in KernelPath.available {
            var y = x
            y.withUnsafeMutableBufferPointer { EncoderKernel.softmax(path, $0.baseAddress!, rows: rows, columns: n) }
            answers.append(y)
        }
        #expect(answers.allSatisfy { $0.map(\.bitPattern) == answers[0].map(\.bitPattern) })
        for r in 0..<rows {
            let row = Array(x[(r * n)..<((r + 1) * n)])
            let exps = row.map { Foundation.exp(Double($0 - row.max()!)) }  // x − max rounded as the kernel rounds it
            let total = exps.reduce(0, +)
            let bound = Double(6 + n) * 0x1p-24  // eˣ 2 ulp, the product 1, a Float32 sum of n terms n units (Higham §3.1)
            for (j, e) in exps.enumerated() { #expect(abs(Double(answers[0][r * n + j]) - e / total) <= bound * e / total) }
        }
        for i in 0...8_700 {
            let v = -Float(i) / 100
            let exact = Foundation.exp(Double(v))
            #expect(abs(Double(EncoderKernel.exp(v)) - exact) <= 3 * Double(Float(exact).ulp), "exp(\(v))")
        }
    }

    /// Layer norm gives the same bits on every path (widths with a tail after whole vectors) and agrees with a Float64
    /// reference within Float32 rounding.
    @Test(arguments: [5, 16, 19, 384])
    func layerNormGivesOneAnswerOnEveryPath(_ width: Int) throws {
        let rows = 4
        let x = Self.values(rows * width, seed: 10).map { $0 * 3 + 0.5 }
        let (gamma, beta) = (Self.values(width, seed: 11), Self.values(width, seed: 12))
        var answers: [[Float]] = []
        for path in KernelPath.available {
            var y = x
            y.withUnsafeMutableBufferPointer {
                EncoderKernel.layerNorm(path, $0, rows: rows, width: width, gamma: gamma, beta: beta, epsilon: 1e-12)
            }
            answers.append(y)
        }
        #expect(answers.allSatisfy { $0.map(\.bitPattern) == answers[0].map(\.bitPattern) })
        for r in 0..<rows {
            let row = x[(r * width)..<((r + 1) * width)].map(Double.init)
            let mean = row.reduce(0, +) / Double(width)
            let sd = (row.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / Double(width) + 1e-12).squareRoot()
            for k in 0..<width {
                let expected = (row[k] - mean) / sd * Double(gamma[k]) + Double(beta[k])
                #expect(abs(Double(answers[0][r * width + k]) - expected) <= 1e-6, "row \(r), column \(k)")
            }
        }
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
        let c = Self.product(KernelPath.best, a, packed, m: m)
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
        #expect(try EncoderKernel.path(asked: nil) == KernelPath.best)
        #expect(try EncoderKernel.path(asked: "scalar") == .scalar)
    }
}
