import CKernels
import Dispatch
import ThemeLabCore

/// The encoder's matrix products (projections, feed-forward layers, attention scores and values, Dense modules) on the
/// project's own kernel (`Sources/CKernels`): one fused multiply-add chain per output element over k in a fixed
/// order, vectorised across output columns, so a vector's bits do not depend on the path (AVX-512, AVX2+FMA, scalar),
/// the batch or the BLAS library. The pairwise pass stays on BLAS.
package enum EncoderKernel {
    /// The path `$THEMELAB_ENCODER_PATH` asks for (nil: the widest), refused in one line when unknown or not on this CPU.
    package static func path(asked: String?) throws -> KernelPath {
        guard let asked, !asked.isEmpty else { return KernelPath.best }
        guard let path = KernelPath(rawValue: asked) else {
            throw ThemeLabError.invalid(
                "THEMELAB_ENCODER_PATH=\(asked): expected one of \(KernelPath.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        guard KernelPath.available.contains(path) else {
            throw ThemeLabError.invalid(
                "THEMELAB_ENCODER_PATH=\(asked): this CPU runs \(KernelPath.available.map(\.rawValue).joined(separator: ", "))")
        }
        return path
    }

    /// What each element of a product goes through after its chain over k, in this order, each step rounded once:
    /// × scale, + bias[j], + residual[i][j] (a residual connection, added as the element is stored), GELU
    /// (x·½(1 + erf(x/√2)), erf as `erf`). The same bits on every path.
    package struct Finish {
        package let scale: Float
        package let bias: UnsafePointer<Float>?
        /// A matrix of the product's shape and its row stride; it must not overlap the output.
        package let residual: (values: UnsafePointer<Float>, stride: Int)?
        package let gelu: Bool

        package init(
            scale: Float = 1, bias: UnsafePointer<Float>? = nil, residual: (values: UnsafePointer<Float>, stride: Int)? = nil,
            gelu: Bool = false
        ) {
            (self.scale, self.bias, self.residual, self.gelu) = (scale, bias, residual, gelu)
        }
    }

    /// c = finish(a·B) for a [m][B.depth] (row stride lda) and c [m][B.columns] (row stride ldc).
    package static func product(
        _ path: KernelPath, rows m: Int, _ a: UnsafePointer<Float>, lda: Int, _ b: PackedMatrix, _ finish: Finish = Finish(),
        into c: UnsafeMutablePointer<Float>, ldc: Int
    ) {
        b.values.withUnsafeBufferPointer { packed in
            product(path, rows: m, a, lda: lda, packed: packed.baseAddress!, columns: b.columns, depth: b.depth, finish, into: c, ldc: ldc)
        }
    }

    /// The product with B packed by the caller (`PackedMatrix.size`, `pack`) into a buffer it keeps.
    package static func product(
        _ path: KernelPath, rows m: Int, _ a: UnsafePointer<Float>, lda: Int, packed: UnsafePointer<Float>, columns: Int, depth: Int,
        _ finish: Finish = Finish(), into c: UnsafeMutablePointer<Float>, ldc: Int
    ) {
        assert(
            finish.residual.map { r in  // each ends after its last row's `columns` elements
                r.values + (m - 1) * r.stride + columns <= c || c + (m - 1) * ldc + columns <= r.values
            } ?? true, "a product's residual overlaps its output")
        var f = tl_finish(
            scale: finish.scale, bias: finish.bias, residual: finish.residual?.values, ldr: Int32(finish.residual?.stride ?? 0),
            gelu: finish.gelu ? 1 : 0)
        tl_gemm(path.code, Int32(m), Int32(columns), Int32(depth), a, Int32(lda), packed, &f, c, Int32(ldc))
    }

    /// Softmax of each of `rows` rows of `columns` scores in place (exp by Cephes's expf in single roundings, each row's
    /// sum in index order): the same bits on every path.
    package static func softmax(_ path: KernelPath, _ s: UnsafeMutablePointer<Float>, rows: Int, columns: Int) {
        tl_softmax(path.code, s, Int32(rows), Int32(columns))
    }

    /// Layer norm of each of `rows` rows of `width` in place, (x − mean)/√(var + ε)·γ + β, the statistics in Float64 as
    /// eight partial sums in a fixed order: the same bits on every path.
    package static func layerNorm(
        _ path: KernelPath, _ x: UnsafeMutableBufferPointer<Float>, rows: Int, width: Int, gamma: [Float], beta: [Float], epsilon: Double
    ) {
        precondition(x.count >= rows * width && gamma.count == width && beta.count == width)
        tl_layer_norm(path.code, x.baseAddress!, Int32(rows), Int32(width), gamma, beta, epsilon)
    }

    /// eˣ of `softmax` for x ≤ 0 (relative error about 2 ulp).
    package static func exp(_ x: Float) -> Float { tl_exp(x) }

    /// The erf of `gelu` (absolute error below 5e-7).
    package static func erf(_ x: Float) -> Float { tl_erf(x) }

    /// FLOP/s of `workers` threads at once each running `path`'s chains of fused multiply-adds on registers alone
    /// (`tl_fma_ceiling`, about half a second): the most this path's products can reach on this machine.
    package static func ceiling(_ path: KernelPath, workers: Int) -> Double {
        let steps = path == .scalar ? 20_000_000 : 200_000_000
        let total = WorkQueue(count: 0, state: 0.0)
        DispatchQueue.concurrentPerform(iterations: workers) { _ in
            let start = DispatchTime.now().uptimeNanoseconds
            let flops = tl_fma_ceiling(path.code, steps)
            let rate = flops * 1e9 / Double(DispatchTime.now().uptimeNanoseconds - start)
            total.withState { $0 += rate }
        }
        return total.withState { $0 }
    }
}

/// A right-hand matrix B packed for `EncoderKernel.product` (panels of 16 columns, k-major): a weight once at load, a
/// sentence's keys or values once per head.
package struct PackedMatrix: Sendable {
    /// Columns of B (outputs) and rows of B (the inner dimension).
    package let columns: Int, depth: Int
    package let values: [Float]

    /// B = Wᵀ for W stored [columns][depth] with row stride `stride` (a Linear's [out, in] weight, or keys).
    package init(transposing w: UnsafePointer<Float>, stride: Int, columns: Int, depth: Int) {
        (self.columns, self.depth) = (columns, depth)
        values = [Float](unsafeUninitializedCapacity: Self.size(columns: columns, depth: depth)) { buffer, count in
            Self.pack(transposing: w, stride: stride, columns: columns, depth: depth, into: buffer.baseAddress!)
            count = buffer.count
        }
    }

    /// Floats a packed B of these dimensions takes.
    package static func size(columns: Int, depth: Int) -> Int { Int(tl_packed_size(Int32(columns), Int32(depth))) }

    /// Packs Wᵀ (W stored [columns][depth], row stride `stride`) into `packed`, `size(columns:depth:)` floats.
    package static func pack(
        transposing w: UnsafePointer<Float>, stride: Int, columns: Int, depth: Int, into packed: UnsafeMutablePointer<Float>
    ) {
        tl_pack_transposed(w, Int32(stride), Int32(columns), Int32(depth), packed)
    }

    /// Packs B stored [depth][columns] (row stride `stride`) into `packed`, `size(columns:depth:)` floats.
    package static func pack(_ b: UnsafePointer<Float>, stride: Int, depth: Int, columns: Int, into packed: UnsafeMutablePointer<Float>) {
        tl_pack(b, Int32(stride), Int32(depth), Int32(columns), packed)
    }
}
