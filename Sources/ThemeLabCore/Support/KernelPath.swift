import CKernels

/// A way through the project's C kernels (`Sources/CKernels`: the encoder's products, the histogram's counting loop):
/// every path gives the same bits, only the speed differs.
package enum KernelPath: String, CaseIterable, Sendable {
    case scalar, avx2, avx512

    package var code: Int32 {
        switch self {
        case .scalar: Int32(TL_PATH_SCALAR.rawValue)
        case .avx2: Int32(TL_PATH_AVX2.rawValue)
        case .avx512: Int32(TL_PATH_AVX512.rawValue)
        }
    }

    /// The widest path this CPU runs.
    package static let best: KernelPath = {
        switch tl_best_path() {
        case Int32(TL_PATH_AVX512.rawValue): .avx512
        case Int32(TL_PATH_AVX2.rawValue): .avx2
        default: .scalar
        }
    }()

    /// The paths this CPU runs, narrowest first.
    package static var available: [KernelPath] { allCases.filter { $0 == .scalar || $0 == best || ($0 == .avx2 && best == .avx512) } }
}
