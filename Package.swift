// swift-tools-version:6.0
import PackageDescription

// The stages, each a target that may use only the ones below it (a call against the grain does not compile):
//   Core (Support, Space; the C kernels' paths) ← Encoder (on the C kernels), Corpus, Pairs (the pass and every pass
//   consumer; its loops over a tile row in C) ← Measures (Metrics, uncertainty: numbers only) ← Methods (threshold rules,
//   groupings) ← Study (experiments, the replay, the claims, the recommendation) ← Report (rendering) ← Run (`reproduce`'s
//   orchestration, its stage cache, the results folder's staging and swap) ← CLI ← the executables.
// Targets see each other's `package` declarations; nothing is `public` but the CLI's entry point.

/// The numeric code is optimised in debug builds too: the test suite runs real passes and replays.
let optimised: [SwiftSetting] = [.unsafeFlags(["-O"], .when(configuration: .debug))]

func stage(_ name: String, _ dependencies: [Target.Dependency]) -> Target {
    .target(name: name, dependencies: dependencies, swiftSettings: optimised)
}

let package = Package(
    name: "ThemeLab",
    products: [
        .executable(name: "themelab", targets: ["themelab"]),
        .executable(name: "themelab-fuzz", targets: ["themelab-fuzz"]),
    ],
    targets: [
        .systemLibrary(
            name: "COpenBLAS",
            path: "Sources/COpenBLAS",
            providers: [.apt(["libopenblas-dev", "liblapacke-dev"])]
        ),
        // The project's C kernels, each with AVX-512, AVX2 and scalar paths that give the same bits (no operation fused
        // but those written as such), chosen at run time: the encoder's matrix products (one FMA chain per output element
        // in a fixed order), the pass's loops over a tile row (histograms, the spanning forest's test, Prim) and the
        // replay's and average linkage's loops.
        .target(
            name: "CKernels", path: "Sources/CKernels",
            cSettings: [.unsafeFlags(["-O3", "-ffp-contract=off", "-fno-fast-math"])]
        ),
        stage("ThemeLabCore", ["COpenBLAS", "CKernels"]),
        stage("ThemeLabEncoder", ["ThemeLabCore", "CKernels"]),
        stage("ThemeLabCorpus", ["ThemeLabCore"]),
        stage("ThemeLabPairs", ["ThemeLabCore", "COpenBLAS", "CKernels"]),
        stage("ThemeLabMeasures", ["ThemeLabPairs"]),
        stage("ThemeLabMethods", ["ThemeLabMeasures"]),
        stage("ThemeLabStudy", ["ThemeLabMethods", "ThemeLabCorpus", "ThemeLabEncoder", "CKernels"]),
        stage("ThemeLabReport", ["ThemeLabStudy"]),
        stage("ThemeLabRun", ["ThemeLabReport"]),
        // The parser and every command, callable in process (the tests) as well as by the executable.
        // The commands are glue (parsing, help, calls into the stages): unoptimised, their release build takes 7 s, not 20.
        .target(
            name: "ThemeLabCLI", dependencies: ["ThemeLabRun"],
            swiftSettings: [.unsafeFlags(["-Onone"], .when(configuration: .release))]
        ),
        stage("ThemeLabFuzz", ["ThemeLabReport"]),
        .executableTarget(name: "themelab", dependencies: ["ThemeLabCLI"]),
        .executableTarget(name: "themelab-fuzz", dependencies: ["ThemeLabFuzz"]),
        // The tests, in two tiers whose folders mirror the stages. The unit tier (`make check`) sees only the stages up
        // to Methods, so it cannot run a command, an experiment, a reproduction or the cluster; the whole suite
        // (`make test`) adds everything above. Both share the helpers and the fixtures (Tests/ThemeLabTests/Fixtures).
        .target(name: "ThemeLabTestSupport", dependencies: ["ThemeLabCore"], path: "Tests/ThemeLabTestSupport"),
        .testTarget(
            name: "ThemeLabUnitTests",
            dependencies: ["ThemeLabMethods", "ThemeLabCorpus", "ThemeLabEncoder", "ThemeLabTestSupport"]
        ),
        .testTarget(
            name: "ThemeLabTests",
            dependencies: ["ThemeLabCLI", "ThemeLabFuzz", "ThemeLabTestSupport"],
            resources: [.copy("Fixtures")]
        ),
    ]
)
