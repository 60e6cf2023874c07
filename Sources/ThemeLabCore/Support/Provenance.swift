import Foundation

/// Where a reported figure came from: tool version, BLAS library and kernel, CPU, the command,
/// and the checksum of every input. `createdAt` is the only field that changes between
/// identical runs.
package struct Provenance: Codable, Sendable, Equatable {
    package struct BLAS: Codable, Sendable, Equatable {
        package var config: String
        package var kernel: String
        package var kernelChosenBy: String
        package var threads: Int
        /// Canonical or native (see `Arithmetic`); absent in files written before it was recorded.
        package var arithmetic: Arithmetic?
    }

    package var tool: String
    package var version: String
    package var command: [String]
    package var blas: BLAS
    package var cpu: String
    package var cpuFeatures: String
    /// Input path (relative to the checkout when inside it) → SHA-256 of its bytes.
    package var inputs: [String: String]
    package var model: String?
    package var createdAt: String

    /// This machine and run; `createdAt` is passed in so the files of one run share one time stamp.
    package static func current(command: [String], inputs: [String: String], model: String? = nil, createdAt: Date = Date()) -> Provenance {
        let cpu = CPUFeatures.current()
        return Provenance(
            tool: "themelab", version: Tool.version, command: command,
            blas: BLAS(
                config: BLASRuntime.config, kernel: BLASRuntime.corename,
                kernelChosenBy: BLASRuntime.kernelSource, threads: BLASRuntime.threads, arithmetic: BLASRuntime.arithmetic),
            cpu: cpu.model, cpuFeatures: cpu.summary, inputs: inputs, model: model,
            createdAt: ISO8601DateFormatter().string(from: createdAt))
    }

    /// Checksums of the given files, keyed by path as `ProjectFiles.display` shows it.
    package static func checksums(_ paths: [String]) throws -> [String: String] {
        try Dictionary(paths.map { (ProjectFiles.display($0), try SHA256.hex(file: $0)) }, uniquingKeysWith: { a, _ in a })
    }
}

/// The harness itself.
package enum Tool {
    package static let version = "0.1.0"
}
