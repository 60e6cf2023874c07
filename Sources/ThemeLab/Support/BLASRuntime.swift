import COpenBLAS
import Foundation

/// The CPU's vector extensions, read from /proc/cpuinfo (Linux).
public struct CPUFeatures: Sendable, Equatable {
    public var model: String
    public var flags: Set<String>

    public init(model: String, flags: Set<String>) {
        self.model = model
        self.flags = flags
    }

    public static func current() -> CPUFeatures {
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
    public static func lastLevelCacheBytes() -> Int? {
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

    public var hasAVX512: Bool { flags.isSuperset(of: ["avx512f", "avx512bw", "avx512vl", "avx512dq"]) }
    public var hasAVX2: Bool { flags.isSuperset(of: ["avx2", "fma"]) }

    /// The widest extensions present, for reports.
    public var summary: String {
        ["avx512f", "avx2", "fma", "avx", "sse4_2"].filter(flags.contains).joined(separator: " ")
    }
}

/// Which OpenBLAS kernel this process runs, and the rule that keeps it off the generic one.
///
/// Debian's OpenBLAS 0.3.21 does not recognise some newer CPUs and falls back to the SSE3
/// "Prescott" kernel, about 5× slower. It reads `OPENBLAS_CORETYPE` only when the library
/// loads, so the fix is to re-execute the process with the variable set.
public enum BLASRuntime {
    public static var corename: String { String(cString: openblas_get_corename()) }
    public static var config: String {
        String(cString: openblas_get_config()).trimmingCharacters(in: .whitespaces)
    }
    public static var threads: Int { Int(openblas_get_num_threads()) }

    static let avx512Kernels: Set<String> = ["skylakex", "cooperlake", "sapphirerapids"]
    static let avx2Kernels: Set<String> = avx512Kernels.union(["haswell", "zen"])

    /// The `OPENBLAS_CORETYPE` to re-execute with, or nil when the running kernel already uses
    /// the CPU's widest extension (or the user chose a core type, which is respected).
    public static func coreTypeToForce(kernel: String, cpu: CPUFeatures, userCoreType: String?) -> String? {
        guard userCoreType == nil else { return nil }
        let k = kernel.lowercased()
        if cpu.hasAVX512, !avx512Kernels.contains(k) { return "SKYLAKEX" }
        if cpu.hasAVX2, !avx2Kernels.contains(k) { return "HASWELL" }
        return nil
    }

    /// A warning when the running kernel leaves the CPU's vector units idle, else nil.
    public static func slowKernelWarning(kernel: String, cpu: CPUFeatures) -> String? {
        let k = kernel.lowercased()
        let wasted = (cpu.hasAVX2 && !avx2Kernels.contains(k))
        return wasted
            ? "warning: OpenBLAS runs the \(kernel) kernel on a CPU with \(cpu.summary); "
                + "unset OPENBLAS_CORETYPE or set it to HASWELL/SKYLAKEX for full speed" : nil
    }

    static let reexecMarker = "THEMELAB_CORETYPE_FORCED"

    /// Called first thing in `main`: re-executes this binary with `OPENBLAS_CORETYPE` set when
    /// the library picked a kernel weaker than the CPU. Returns only when no re-exec happens.
    public static func ensureFastKernel() {
        let env = ProcessInfo.processInfo.environment
        guard env[reexecMarker] == nil,
            let coreType = coreTypeToForce(kernel: corename, cpu: .current(), userCoreType: env["OPENBLAS_CORETYPE"])
        else { return }
        setenv("OPENBLAS_CORETYPE", coreType, 1)
        setenv(reexecMarker, coreType, 1)
        let argv = CommandLine.unsafeArgv
        execv("/proc/self/exe", argv)
        FileHandle.standardError.write(Data("warning: could not re-execute with OPENBLAS_CORETYPE=\(coreType)\n".utf8))
    }

    /// Called after `ensureFastKernel`: every BLAS call runs on one thread. OpenBLAS's threads split a
    /// product by rows and a row's rounding depends on its place, so results would move with the core
    /// count; the pairwise pass and the encoder bring their own workers instead.
    public static func useOneThread() { openblas_set_num_threads(1) }

    /// How the kernel was chosen, for provenance.
    public static var kernelSource: String {
        let env = ProcessInfo.processInfo.environment
        if let forced = env[reexecMarker] { return "forced by themelab (OPENBLAS_CORETYPE=\(forced))" }
        if let user = env["OPENBLAS_CORETYPE"] { return "user (OPENBLAS_CORETYPE=\(user))" }
        return "OpenBLAS auto-detection"
    }
}
