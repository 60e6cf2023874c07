import Foundation
import ThemeLab

let envCommand = Command(
    summary: "versions, BLAS library and kernel, CPU features, model folder",
    help: """
        usage: themelab env [--json]

        Prints what the harness runs on: its version, the OpenBLAS build and the kernel it
        selected (and who chose it), the CPU and its vector extensions, and the model folder.
          --json   machine-readable output
        """,
    switches: ["json"]
) { args in
    let p = Provenance.current(command: CommandLine.arguments, inputs: [:])
    let env = EnvironmentReport(
        provenance: p, swiftVersion: swiftVersion,
        modelFolder: ModelFolder.bootstrapFolder() ?? ProcessInfo.processInfo.environment["THEMELAB_MODEL"])
    if args.flags.contains("json") {
        print(try JSONOutput.string(env), terminator: "")
        return
    }
    print(
        """
        themelab      \(p.version)
        swift         \(env.swiftVersion)
        blas          \(p.blas.config)
        kernel        \(p.blas.kernel) (\(p.blas.kernelChosenBy)), \(p.blas.threads) threads
        cpu           \(p.cpu)
        features      \(p.cpuFeatures)
        model folder  \(env.modelFolder ?? "none found")
        """)
    if let warning = BLASRuntime.slowKernelWarning(kernel: p.blas.kernel, cpu: .current()) { print(warning) }
}

struct EnvironmentReport: Codable {
    var provenance: Provenance
    var swiftVersion: String
    var modelFolder: String?
}

var swiftVersion: String {
    #if swift(>=6.3)
        "6.3 or later"
    #else
        "6.0–6.2"
    #endif
}
