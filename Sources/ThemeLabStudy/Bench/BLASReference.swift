import COpenBLAS
import Dispatch
import Foundation
import ThemeLabCore
import ThemeLabCorpus
import ThemeLabEncoder
import ThemeLabMeasures
import ThemeLabMethods
import ThemeLabPairs

/// The bare-BLAS speed references `themelab bench` sets the harness's own work against: `cblas_ssyrk` for the
/// pairwise pass's Gram, `cblas_sgemm` on the encoder's own product shapes.
package enum BLASReference {
    /// The best of `repeats` runs, in seconds, of one `cblas_ssyrk` of `x`'s rows into a full N×N matrix (4·N² bytes),
    /// on every core as a user's own Gram would run; the BLAS thread count is restored afterwards.
    package static func ssyrkSeconds(_ x: Matrix, repeats: Int) -> Double {
        let (n, d) = (x.rows, x.cols)
        var c = [Float](repeating: 0, count: n * n)
        let blasThreads = openblas_get_num_threads()
        defer { openblas_set_num_threads(blasThreads) }
        var best = Double.infinity
        for _ in 0..<repeats {
            let start = Date()
            openblas_set_num_threads(Int32(ProcessInfo.processInfo.activeProcessorCount))
            x.withUnsafePointer { a in
                c.withUnsafeMutableBufferPointer { out in
                    cblas_ssyrk(CblasRowMajor, CblasUpper, CblasNoTrans, Int32(n), Int32(d), 1, a, Int32(d), 0, out.baseAddress!, Int32(n))
                }
            }
            precondition(c[1].isFinite)
            best = min(best, Date().timeIntervalSince(start))
        }
        return best
    }

    /// Seconds for every product of `batches` as a bare single-threaded `cblas_sgemm` on scratch buffers, the batches
    /// shared among `workers` as the encoder shares them (`TransformerEncoder.matrixProducts` gives one batch's products).
    package static func sgemmSeconds(_ batches: [[TransformerEncoder.MatrixProduct]], workers: Int) -> Double {
        let largest = batches.joined().reduce(0) { Swift.max($0, $1.m * $1.k, $1.n * $1.k, $1.m * $1.n) }
        let blasThreads = openblas_get_num_threads()
        openblas_set_num_threads(1)
        defer { openblas_set_num_threads(blasThreads) }
        let start = Date()
        let queue = WorkQueue(count: batches.count, state: ())
        DispatchQueue.concurrentPerform(iterations: min(workers, batches.count)) { _ in
            let a = [Float](repeating: 0.01, count: largest)
            let b = [Float](repeating: 0.01, count: largest)
            var c = [Float](repeating: 0, count: largest)
            while let job = queue.take() {
                for p in batches[job] {
                    cblas_sgemm(
                        CblasRowMajor, CblasNoTrans, CblasTrans, Int32(p.m), Int32(p.n), Int32(p.k), 1, a, Int32(p.k), b, Int32(p.k), 0,
                        &c, Int32(p.n))
                }
            }
        }
        return Date().timeIntervalSince(start)
    }
}
