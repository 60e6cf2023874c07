import Foundation
import Testing

/// A newcomer's first run: the README's first example in a fresh clone, and the `./themelab` launcher it goes through.
@Suite struct FirstRunTests {
    static let root = DocExample.root

    /// `scripts/fresh-clone` clones this checkout's committed HEAD into a temporary folder and runs the README's first
    /// `sh test` block there with bash, as written, in this process's environment (no PATH of the test's), then compares
    /// what it prints with the README's output block. The release build is the one slow step a user has, and the suite
    /// has its own binary already, so the clone gets that binary (fresh, so the launcher builds nothing) and the
    /// bootstrap's weights (linked, so nothing is downloaded); `.ci/run` runs the same script with the build and the
    /// bootstrap, once.
    @Test func theReadmesFirstExampleRunsAsWrittenInAFreshClone() throws {
        let arguments = ["--binary", CLI.binary, "--models", Self.root + "/.themelab/models"]
        let r = try CLI.launch(
            executable: Self.root + "/scripts/fresh-clone", arguments, environment: ProcessInfo.processInfo.environment)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains("fresh-clone: first example"), "\(r.stderr)")
    }

    /// A folder laid out as a checkout, holding a copy of the launcher, a `Package.swift` and one source file, and a
    /// `swift` stand-in on PATH that logs its arguments and "builds" a release binary printing its own arguments.
    struct Checkout {
        let folder = temporaryFolder()
        var launcher: String { folder + "/checkout/themelab" }
        var log: String { folder + "/swift.log" }

        init() throws {
            let manager = FileManager.default
            try manager.createDirectory(atPath: folder + "/checkout/Sources", withIntermediateDirectories: true)
            try manager.createDirectory(atPath: folder + "/bin", withIntermediateDirectories: true)
            try manager.copyItem(atPath: FirstRunTests.root + "/themelab", toPath: launcher)
            try "// package\n".write(toFile: folder + "/checkout/Package.swift", atomically: true, encoding: .utf8)
            try "// source\n".write(toFile: folder + "/checkout/Sources/main.swift", atomically: true, encoding: .utf8)
            let swift = """
                #!/bin/sh
                echo "$@" >> '\(log)'
                mkdir -p '\(folder)/checkout/.build/release'
                printf '#!/bin/sh\\necho ran "$@"\\n' > '\(folder)/checkout/.build/release/themelab'
                chmod +x '\(folder)/checkout/.build/release/themelab'
                """
            try swift.write(toFile: folder + "/bin/swift", atomically: true, encoding: .utf8)
            try manager.setAttributes([.posixPermissions: 0o755], ofItemAtPath: folder + "/bin/swift")
        }

        /// The launcher (or `path`) with `arguments`, the stand-in `swift` first on PATH.
        func run(_ arguments: [String], path: String? = nil, searchPath: String? = nil) throws -> CLI.Result {
            var environment = ProcessInfo.processInfo.environment
            environment["PATH"] = searchPath ?? folder + "/bin:" + (environment["PATH"] ?? "/usr/bin:/bin")
            return try CLI.launch(executable: path ?? launcher, arguments, environment: environment)
        }

        /// The `swift` calls so far, one line each.
        var builds: [String] { ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init) }

        /// Marks `file` (relative to the checkout) as changed after the binary was built.
        func touch(_ file: String) throws {
            try FileManager.default.setAttributes(
                [.modificationDate: Date().addingTimeInterval(60)], ofItemAtPath: folder + "/checkout/" + file)
        }
    }

    @Test func theLauncherBuildsWhenTheBinaryIsMissingOrOlderThanASourceAndIsQuietOtherwise() throws {
        let checkout = try Checkout()
        defer { try? FileManager.default.removeItem(atPath: checkout.folder) }
        let first = try checkout.run(["analyze", "--corpus", "a b.jsonl"])
        #expect(first.status == 0 && first.stdout == "ran analyze --corpus a b.jsonl\n", "\(first.stdout)\(first.stderr)")
        #expect(first.stderr.hasPrefix("themelab: building "), "\(first.stderr)")
        #expect(checkout.builds == ["build -c release --product themelab --package-path \(checkout.folder)/checkout"])

        let second = try checkout.run(["--version"])
        #expect(second.status == 0 && second.stdout == "ran --version\n" && second.stderr.isEmpty, "\(second.stderr)")
        #expect(checkout.builds.count == 1)

        try checkout.touch("Sources/main.swift")
        _ = try checkout.run(["--version"])
        try checkout.touch("Package.swift")
        _ = try checkout.run(["--version"])
        #expect(checkout.builds.count == 3)
    }

    /// `make install` links the launcher into a folder on PATH: through the link it still finds its checkout.
    @Test func theLauncherFindsItsCheckoutThroughALink() throws {
        let checkout = try Checkout()
        defer { try? FileManager.default.removeItem(atPath: checkout.folder) }
        let link = checkout.folder + "/bin/themelab"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: checkout.launcher)
        let r = try checkout.run(["env"], path: link)
        #expect(r.status == 0 && r.stdout == "ran env\n", "\(r.stderr)")
        #expect(FileManager.default.fileExists(atPath: checkout.folder + "/checkout/.build/release/themelab"))
    }

    /// Without Swift on PATH the launcher says so in one line and exits 1 (it does not try to run a missing binary).
    @Test func theLauncherWithoutSwiftSaysWhatIsMissing() throws {
        let checkout = try Checkout()
        defer { try? FileManager.default.removeItem(atPath: checkout.folder) }
        let tools = checkout.folder + "/tools"
        try FileManager.default.createDirectory(atPath: tools, withIntermediateDirectories: true)
        for tool in ["bash", "dirname", "readlink", "find"] {
            let found = try #require(
                ["/usr/bin/", "/bin/"].map { $0 + tool }.first { FileManager.default.isExecutableFile(atPath: $0) })
            try FileManager.default.createSymbolicLink(atPath: tools + "/" + tool, withDestinationPath: found)
        }
        let r = try checkout.run(["--version"], searchPath: tools)
        #expect(r.status == 1 && r.stdout.isEmpty, "\(r.stdout)")
        #expect(r.stderr == "themelab: swift is not on PATH; install Swift 6.3 (README.md, 'The two commands')\n")
    }
}
