// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "ThemeLab",
    products: [
        .library(name: "ThemeLab", targets: ["ThemeLab"]),
        .executable(name: "themelab", targets: ["themelab"]),
        .executable(name: "themelab-fuzz", targets: ["themelab-fuzz"]),
    ],
    targets: [
        .systemLibrary(
            name: "COpenBLAS",
            path: "Sources/COpenBLAS",
            providers: [.apt(["libopenblas-dev", "liblapacke-dev"])]
        ),
        .target(
            name: "ThemeLab",
            dependencies: ["COpenBLAS"],
            // The numeric code is optimised in debug builds too: the test suite runs real passes and replays.
            swiftSettings: [.unsafeFlags(["-O"], .when(configuration: .debug))]
        ),
        // The parser and every command, callable in process (the tests) as well as by the executable.
        .target(name: "ThemeLabCLI", dependencies: ["ThemeLab"]),
        .executableTarget(name: "themelab", dependencies: ["ThemeLabCLI"]),
        .executableTarget(name: "themelab-fuzz", dependencies: ["ThemeLab"]),
        .testTarget(
            name: "ThemeLabTests",
            dependencies: ["ThemeLab", "ThemeLabCLI"],
            resources: [.copy("Fixtures")]
        ),
    ]
)
