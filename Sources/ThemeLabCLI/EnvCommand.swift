import Foundation
import ThemeLabCore
import ThemeLabCorpus
import ThemeLabEncoder
import ThemeLabMeasures
import ThemeLabMethods
import ThemeLabPairs
import ThemeLabReport
import ThemeLabStudy

struct EnvCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        name: "env", abstract: "Versions, BLAS library and kernel, CPU features, model folder.",
        discussion: """
            Prints what the harness runs on: its version, the OpenBLAS build and the kernel it selected (and who chose it),
            the arithmetic (canonical: the Haswell kernel, the same bytes on every x86-64 CPU with AVX2; native:
            THEMELAB_KERNEL=native, OpenBLAS's own choice), the CPU and its vector extensions, the encoder kernel's path
            (the same bits on each: THEMELAB_ENCODER_PATH=scalar|avx2|avx512, default the widest this CPU runs), and the
            model folder with what it is (architecture, tokenizer, pooling modes, modules, dimensions).
            """)

    var model: String?
    var json = false
    var verify = false

    static var arguments: [Argument<Self>] {
        [
            .option(
                ExperimentPlan.Encoder.CodingKeys.model, \.model, value: "<DIR>",
                unset: "$THEMELAB_MODEL, else the one scripts/bootstrap installed", checked: true, help: "The model folder to describe."),
            .flag("--json", \.json, help: "Machine-readable output."),
            .flag(
                "--verify", \.verify,
                help: "Hash the model's weights again and check the remembered hash (commands reuse it while the file's inode, "
                    + "size, modification and change times are unchanged); exit 1 when the remembered hash was wrong."),
        ]
    }

    func run(_ io: Invocation) throws {
        if verify { return try verifyWeights(io) }
        let p = Provenance.current(command: io.commandLine, inputs: [:])
        let given = [model, ProcessEnvironment.modelFolder].compactMap { $0 }.first { !$0.isEmpty }
        let folder = given ?? ModelFolder.bootstrapFolder()
        let described = folder.map { path in
            do { return try ModelFolder(path: path).configuration().summary } catch { return "not usable: \(error)" }
        }
        let path = try EncoderKernel.path(asked: ProcessEnvironment.encoderPath)
        let env = EnvironmentReport(
            provenance: p, swiftVersion: swiftVersion, encoderPath: path.rawValue, encoderPaths: KernelPath.available.map(\.rawValue),
            modelFolder: folder, model: described)
        if json {
            io.print(try JSONOutput.string(env), terminator: "")
            return
        }
        let paths = env.encoderPaths.joined(separator: ", ")
        io.print(
            """
            themelab      \(p.version)
            swift         \(env.swiftVersion)
            blas          \(p.blas.config)
            kernel        \(p.blas.kernel) (\(p.blas.kernelChosenBy)), \(p.blas.threads) threads
            arithmetic    \(BLASRuntime.arithmetic) (\(BLASRuntime.arithmeticVariable)=canonical|native)
            cpu           \(p.cpu)
            features      \(p.cpuFeatures)
            encoder       \(path.rawValue) path of the encoder kernel (of \(paths); the same bits on each)
            model folder  \(env.modelFolder.map { escapingControlCharacters($0) } ?? "none found")
            model         \(env.model.map { escapingControlCharacters($0) } ?? "none")
            """)
        if let warning = BLASRuntime.slowKernelWarning(kernel: p.blas.kernel, cpu: .current()) { io.print(warning) }
    }

    /// `--verify`: the weights' hash computed again against the remembered one.
    func verifyWeights(_ io: Invocation) throws {
        let folder = try ModelFolder.locate(explicit: model)
        let weights = folder.path + "/model.safetensors"
        let (remembered, actual) = try FileHashCache.verify(file: weights)
        switch remembered {
        case actual?: io.print("\(weights): SHA-256 \(actual), remembered value verified")
        case nil: io.print("\(weights): SHA-256 \(actual), now remembered (none was for this state of the file)")
        case let wrong?: throw ThemeLabError.input("\(weights): remembered SHA-256 \(wrong) was wrong; it is \(actual) (record replaced)")
        }
    }
}

struct EnvironmentReport: Codable {
    var provenance: Provenance
    var swiftVersion: String
    /// The encoder kernel's path in use, and those this CPU runs.
    var encoderPath: String
    var encoderPaths: [String]
    var modelFolder: String?
    /// What the model folder is (`EncoderConfiguration.summary`), or why it cannot be used.
    var model: String?
}

var swiftVersion: String {
    #if swift(>=6.3)
        "6.3 or later"
    #else
        "6.0–6.2"
    #endif
}
