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
        .executableTarget(name: "themelab", dependencies: ["ThemeLab"]),
        .executableTarget(name: "themelab-fuzz", dependencies: ["ThemeLab"]),
        .testTarget(
            name: "ThemeLabTests",
            dependencies: ["ThemeLab"],
            resources: [.copy("Fixtures")]
        ),
    ]
)
