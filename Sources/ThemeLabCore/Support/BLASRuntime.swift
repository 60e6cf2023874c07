import COpenBLAS
import Foundation

/// The CPU's vector extensions, read from /proc/cpuinfo (Linux).
package struct CPUFeatures: Sendable, Equatable {
    package var model: String
    package var flags: Set<String>

    package init(model: String, flags: Set<String>) {
        self.model = model
        self.flags = flags
    }

    package static func current() -> CPUFeatures {
        guard let text = try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8) else {
            return CPUFeatures(model: "unknown", flags: [])
        }
        var model = "unknown"
        var flags = Set<String>()
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: ":", maxSplits: 1)
            guard parts.count == 2 else { continue }
            let key = parts[0].trimmingCharacters(in: .whitespaces)
            let value = parts[1].trimmingCharacters(in: .whitespaces)
            if key == "model name", model == "unknown" { model = value }
            if key == "flags", flags.isEmpty { flags = Set(value.split(separator: " ").map(String.init)) }
        }
        return CPUFeatures(model: model, flags: flags)
    }

    /// Size of the last-level cache of CPU 0 (sysfs), or nil where it is not published.
    package static func lastLevelCacheBytes() -> Int? {
        let root = "/sys/devices/system/cpu/cpu0/cache"
        let levels = (try? FileManager.default.contentsOfDirectory(atPath: root))?.filter { $0.hasPrefix("index") } ?? []
        let sized = levels.compactMap { index -> (level: Int, bytes: Int)? in
            func read(_ name: String) -> String? {
                (try? String(contentsOfFile: "\(root)/\(index)/\(name)", encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines)
            }
            guard let level = read("level").flatMap(Int.init), let size = read("size"), let unit = size.last,
                let number = Int(size.dropLast())
            else { return nil }
            return (level, number * (unit == "M" ? 1 << 20 : unit == "K" ? 1 << 10 : 1))
        }
        return sized.max { $0.level < $1.level }?.bytes
    }

    package var hasAVX512: Bool { flags.isSuperset(of: ["avx512f", "avx512bw", "avx512vl", "avx512dq"]) }
    package var hasAVX2: Bool { flags.isSuperset(of: ["avx2", "fma"]) }

    /// The widest extensions present, for reports.
    package var summary: String {
        ["avx512f", "avx2", "fma", "avx", "sse4_2"].filter(flags.contains).joined(separator: " ")
    }
}

/// The arithmetic of a run's BLAS products.
///
/// `canonical` is OpenBLAS's Haswell kernel (AVX2 + FMA) on one thread: every x86-64 CPU with AVX2 and FMA runs it,
/// Intel and AMD alike, and it rounds the same way on each (fixed blocking, exactly rounded FMA), so the same
/// inputs give the same bytes on any such machine. `native` is the kernel OpenBLAS picks for this CPU (or the one
/// `OPENBLAS_CORETYPE` names): faster on AVX-512 machines, with other last bits.
package enum Arithmetic: String, Codable, Sendable {
    case canonical, native
}

/// Which OpenBLAS kernel this process runs, and the one place that chooses it.
///
/// OpenBLAS reads `OPENBLAS_CORETYPE` only when the library loads, so a kernel is chosen by re-executing the process
/// with the variable set. By default that is the canonical kernel; `THEMELAB_KERNEL=native` keeps OpenBLAS's choice
/// (or the user's `OPENBLAS_CORETYPE`), except that Debian's OpenBLAS 0.3.21 falls back to the SSE3 "Prescott"
/// kernel on some newer CPUs, about 5× slower, which is replaced by the widest kernel the CPU runs.
package enum BLASRuntime {
    package static var corename: String { String(cString: openblas_get_corename()) }
    package static var config: String {
        String(cString: openblas_get_config()).trimmingCharacters(in: .whitespaces)
    }
    package static var threads: Int { Int(openblas_get_num_threads()) }

    /// The canonical kernel: its `OPENBLAS_CORETYPE` and the name OpenBLAS reports for it.
    package static let canonicalCoreType = "HASWELL"
    package static let canonicalKernel = "Haswell"
    /// The variable that chooses the arithmetic: unset or `canonical`, or `native`.
    package static let arithmeticVariable = "THEMELAB_KERNEL"

    package static let avx512Kernels: Set<String> = ["skylakex", "cooperlake", "sapphirerapids"]
    package static let avx2Kernels: Set<String> = avx512Kernels.union(["haswell", "zen"])

    /// The arithmetic a kernel gives: canonical exactly when it is the canonical kernel.
    package static func arithmetic(kernel: String) -> Arithmetic {
        kernel.lowercased() == canonicalKernel.lowercased() ? .canonical : .native
    }

    /// The arithmetic of this process's products.
    package static var arithmetic: Arithmetic { arithmetic(kernel: corename) }

    /// The arithmetic `THEMELAB_KERNEL` asks for.
    package static func requestedArithmetic(_ value: String?) throws -> Arithmetic {
        guard let value, !value.isEmpty else { return .canonical }
        guard let a = Arithmetic(rawValue: value) else {
            throw ThemeLabError.invalid("\(arithmeticVariable)=\(value.debugDescription) is neither 'canonical' nor 'native'")
        }
        return a
    }

    /// Whether this CPU runs the canonical kernel (x86-64 with AVX2 and FMA).
    package static func runsCanonical(_ cpu: CPUFeatures) -> Bool {
        #if arch(x86_64)
            cpu.hasAVX2
        #else
            false
        #endif
    }

    /// The `OPENBLAS_CORETYPE` to re-execute with, or nil when the running kernel is already the one to run: the
    /// canonical kernel when it is asked for and the CPU runs it; otherwise the running kernel, unless the user chose
    /// none and it leaves the CPU's widest extension idle.
    package static func coreTypeToForce(
        kernel: String, cpu: CPUFeatures, userCoreType: String?, requested: Arithmetic = .native
    ) -> String? {
        let k = kernel.lowercased()
        if requested == .canonical && runsCanonical(cpu) { return k == canonicalKernel.lowercased() ? nil : canonicalCoreType }
        guard userCoreType == nil else { return nil }
        if cpu.hasAVX512, !avx512Kernels.contains(k) { return "SKYLAKEX" }
        if cpu.hasAVX2, !avx2Kernels.contains(k) { return "HASWELL" }
        return nil
    }

    /// A warning when the running kernel leaves the CPU's vector units idle, else nil.
    package static func slowKernelWarning(kernel: String, cpu: CPUFeatures) -> String? {
        let k = kernel.lowercased()
        let wasted = (cpu.hasAVX2 && !avx2Kernels.contains(k))
        return wasted
            ? "warning: OpenBLAS runs the \(kernel) kernel on a CPU with \(cpu.summary); "
                + "unset OPENBLAS_CORETYPE or set it to HASWELL/SKYLAKEX for full speed" : nil
    }

    package static let reexecMarker = "THEMELAB_CORETYPE_FORCED"

    /// Called first thing in `main`: re-executes this binary with `OPENBLAS_CORETYPE` set when the running kernel is
    /// not the one `THEMELAB_KERNEL` asks for. Returns the notes to print when no re-exec happens (or it failed).
    package static func ensureKernel() throws -> [String] {
        let env = ProcessInfo.processInfo.environment
        let requested = try requestedArithmetic(env[arithmeticVariable])
        let cpu = CPUFeatures.current()
        var notes: [String] = []
        if requested == .canonical && !runsCanonical(cpu) {
            notes.append("warning: this CPU lacks AVX2 and FMA, which the canonical kernel needs: results are marked native")
        }
        guard env[reexecMarker] == nil,
            let coreType = coreTypeToForce(kernel: corename, cpu: cpu, userCoreType: env["OPENBLAS_CORETYPE"], requested: requested)
        else { return notes }
        if requested == .canonical, let user = env["OPENBLAS_CORETYPE"], user.uppercased() != canonicalCoreType {
            StandardError.write(
                "themelab: note: OPENBLAS_CORETYPE=\(user) set aside for the canonical kernel; \(arithmeticVariable)=native uses it\n")
        }
        setenv("OPENBLAS_CORETYPE", coreType, 1)
        setenv(reexecMarker, coreType, 1)
        execv("/proc/self/exe", CommandLine.unsafeArgv)
        return notes + ["warning: could not re-execute with OPENBLAS_CORETYPE=\(coreType)"]
    }

    /// Called after `ensureKernel`: every BLAS call runs on one thread. OpenBLAS's threads split a
    /// product by rows and a row's rounding depends on its place, so results would move with the core
    /// count; the pairwise pass and the encoder bring their own workers instead.
    package static func useOneThread() { openblas_set_num_threads(1) }

    /// How the kernel was chosen, for provenance.
    package static var kernelSource: String {
        let env = ProcessInfo.processInfo.environment
        if let forced = env[reexecMarker] { return "forced by themelab (OPENBLAS_CORETYPE=\(forced))" }
        if let user = env["OPENBLAS_CORETYPE"] { return "user (OPENBLAS_CORETYPE=\(user))" }
        return "OpenBLAS auto-detection"
    }
}
