import Foundation
import Testing
import ThemeLabCore

/// `plot` writes through the same door as every other output (checked against its input, staged, renamed into place),
/// and `--pdf`'s rsvg-convert gets no path, is stopped after its time bound or with the run, and fails in one line
/// naming the program and the plot, leaving the previous set of plots as it was.
@Suite struct PlotOutputTests {
    /// A folder holding a small results file, r/e/e.json (eight plots, c-embeddings-x-npy-{raw,centred}-*.svg).
    static func results() throws -> String {
        let folder = try OutputOwnershipTests.smallExperiment()
        let r = try CLI.launch(["ablate", "e.json", "--out", "r"], workingDirectory: folder)
        try #require(r.status == 0, "\(r.stderr)")
        return folder
    }

    static let histogram = "c-embeddings-x-npy-raw-histogram"

    /// A stub rsvg-convert running `script` (sh) in FOLDER/bin; returns a PATH that finds it first.
    static func converter(_ script: String, in folder: String, mode: Int = 0o755) throws -> String {
        try AtomicFile.write("#!/bin/sh\n" + script + "\n", to: folder + "/bin/rsvg-convert")
        chmod(folder + "/bin/rsvg-convert", mode_t(mode))
        return folder + "/bin:/usr/bin:/bin"
    }

    static func launch(_ args: [String], path: String, in folder: String) throws -> CLI.Result {
        try CLI.launch(
            executable: CLI.binary, args, environment: ProcessInfo.processInfo.environment.merging(["PATH": path]) { $1 },
            workingDirectory: folder)
    }

    /// Whether process `pid` still runs (a zombie does not).
    static func isRunning(_ pid: Int32) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8), let close = stat.lastIndex(of: ")")
        else { return false }
        return !stat[close...].hasPrefix(") Z")
    }

    /// The real rsvg-convert (scripts/bootstrap installs librsvg2-bin): a link committed where a PDF goes is replaced, not
    /// written through; an output folder named `-dash` is no option to the converter; a results file named like a plot
    /// is refused as the input it is; a plots/ folder that is a link is refused unless named with --out.
    @Test func plotWritesThroughNoLinkAndOverNoInput() throws {
        try #require(FileManager.default.isExecutableFile(atPath: "/usr/bin/rsvg-convert"), "run scripts/bootstrap (librsvg2-bin)")
        let folder = try Self.results()
        try AtomicFile.write("victim", to: folder + "/victim.txt")
        try FileManager.default.createDirectory(atPath: folder + "/r/e/plots", withIntermediateDirectories: true)
        let pdf = "\(folder)/r/e/plots/\(Self.histogram).pdf"
        try FileManager.default.createSymbolicLink(atPath: pdf, withDestinationPath: folder + "/victim.txt")
        let linked = CLI.run(["plot", "--results", folder + "/r/e/e.json", "--pdf"])
        #expect(linked.status == 0, "\(linked.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: folder + "/victim.txt")) == Data("victim".utf8))
        #expect(try FileManager.default.attributesOfItem(atPath: pdf)[.type] as? FileAttributeType == .typeRegular)
        #expect(try Data(contentsOf: URL(fileURLWithPath: pdf)).prefix(5) == Data("%PDF-".utf8))
        let dash = try Self.launch(["plot", "--results", "r/e/e.json", "--out", "-dash", "--pdf"], path: "/usr/bin:/bin", in: folder)
        #expect(dash.status == 0, "\(dash.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: "\(folder)/-dash/\(Self.histogram).pdf")).prefix(5) == Data("%PDF-".utf8))
        let named = "\(folder)/-dash/\(Self.histogram).svg"
        try FileManager.default.copyItem(atPath: folder + "/r/e/e.json", toPath: folder + "/e.json.svg")
        try FileManager.default.removeItem(atPath: named)
        try FileManager.default.moveItem(atPath: folder + "/e.json.svg", toPath: named)
        let input = CLI.run(["plot", "--results", named, "--out", folder + "/-dash"])
        #expect(input.status == 2 && input.stderr.contains("output \(named) is the input"), "\(input.stderr)")
        #expect(try String(contentsOfFile: named, encoding: .utf8).hasPrefix("{"))
        try FileManager.default.removeItem(atPath: folder + "/r/e/plots")
        try FileManager.default.createSymbolicLink(atPath: folder + "/r/e/plots", withDestinationPath: folder + "/-dash")
        let link = CLI.run(["plot", "--results", folder + "/r/e/e.json"])
        #expect(link.status == 1 && link.stderr == "themelab: \(folder)/r/e/plots is a link: give --out to write the plots through it\n")
    }

    /// `--png WIDTH`: the real rsvg-convert makes a PNG of that width beside every SVG (its IHDR says so), a width out of
    /// range is refused before any work, and a later run without --png removes the PNGs it would leave stale.
    @Test func pngRastersAreMadeAtTheWidthAsked() throws {
        try #require(FileManager.default.isExecutableFile(atPath: "/usr/bin/rsvg-convert"), "run scripts/bootstrap (librsvg2-bin)")
        let folder = try Self.results()
        let r = CLI.run(["plot", "--results", folder + "/r/e/e.json", "--out", folder + "/p", "--png", "640"])
        #expect(r.status == 0 && r.stderr.contains("each with a PNG"), "\(r.stderr)")
        let pngs = try FileManager.default.contentsOfDirectory(atPath: folder + "/p").filter { $0.hasSuffix(".png") }
        #expect(pngs.count == 8)
        for png in pngs {
            let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: "\(folder)/p/\(png)")))
            #expect(bytes.prefix(8) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A], "\(png)")
            #expect(bytes[16..<20].reduce(0) { $0 << 8 | Int($1) } == 640, "\(png)")
        }
        let small = CLI.run(["plot", "--results", folder + "/r/e/e.json", "--out", folder + "/p", "--png", "50"])
        #expect(small.status == 2 && small.stderr.contains("--png"), "\(small.stderr)")
        #expect(CLI.run(["plot", "--results", folder + "/r/e/e.json", "--out", folder + "/p"]).status == 0)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder + "/p").allSatisfy { $0.hasSuffix(".svg") })
    }

    /// A converter that hangs (stopped after --pdf-seconds), fails, writes no PDF, cannot be run or is not executable: one
    /// line naming the program and the plot, and the previous run's SVGs and PDFs exactly as they were.
    @Test func aConverterThatHangsOrFailsLeavesThePreviousPlots() throws {
        let folder = try Self.results()
        let good = try Self.converter("cat >/dev/null; printf '%%PDF-1.4 old\\n'", in: folder)
        let first = try Self.launch(["plot", "--results", "r/e/e.json", "--out", "p", "--pdf"], path: good, in: folder)
        try #require(first.status == 0, "\(first.stderr)")
        for svg in try FileManager.default.contentsOfDirectory(atPath: folder + "/p") where svg.hasSuffix(".svg") {
            try AtomicFile.write("<svg>an earlier version's plot</svg>", to: "\(folder)/p/\(svg)")
        }
        let before = try OutputOwnershipTests.files(folder + "/p")
        let program = "\(folder)/bin/rsvg-convert"
        let said = "themelab: p/\(Self.histogram).svg: \(program) could not make its PDF"
        for (script, options, expected) in [
            ("exec /bin/sleep 30", ["--pdf-seconds", "1"], "still running after 1 s, stopped; --pdf-seconds sets the bound"),
            ("echo 'no such option' >&2; exit 3", [], "exit status 3: no such option"), ("exit 0", [], "its output is not a PDF"),
        ] {
            let path = try Self.converter(script, in: folder)
            let r = try Self.launch(["plot", "--results", "r/e/e.json", "--out", "p", "--pdf"] + options, path: path, in: folder)
            #expect(r.status == 1 && r.stderr == "\(said) (\(expected))\n", "\(script): \(r.stderr)")
            #expect(try OutputOwnershipTests.files(folder + "/p") == before, "\(script)")
        }
        try AtomicFile.write("not a program", to: program)
        chmod(program, 0o755)
        let broken = try Self.launch(["plot", "--results", "r/e/e.json", "--out", "p", "--pdf"], path: good, in: folder)
        #expect(broken.status == 1 && broken.stderr == "\(said) (cannot run it: Exec format error)\n", "\(broken.stderr)")
        chmod(program, 0o644)
        let plain = try Self.launch(["plot", "--results", "r/e/e.json", "--out", "p", "--pdf"], path: folder + "/bin", in: folder)
        #expect(plain.status == 2 && plain.stderr.hasPrefix("themelab: plot: --pdf: \(program) is not executable"), "\(plain.stderr)")
        #expect(try OutputOwnershipTests.files(folder + "/p") == before)
        let svgs = CLI.run(["plot", "--results", folder + "/r/e/e.json", "--out", folder + "/p"])
        #expect(svgs.status == 0, "\(svgs.stderr)")
        let after = try OutputOwnershipTests.files(folder + "/p")
        #expect(after.count == 8 && after.allSatisfy { $0.key.hasSuffix(".svg") && $0.value != before[$0.key] }, "\(after.keys.sorted())")
    }

    /// SIGTERM to themelab stops the converter too; after SIGKILL, the staged temporaries it left are removed by the next
    /// run into the folder.
    @Test func theConverterEndsWithTheRun() throws {
        let folder = try Self.results()
        let path = try Self.converter("echo $$ > '\(folder)/pid'; exec /bin/sleep 600", in: folder)
        for signal in [SIGTERM, SIGKILL] {
            unlink(folder + "/pid")
            let themelab = try LaunchTests.spawnAsAShellDoes([
                "/usr/bin/env", "PATH=\(path)", CLI.binary, "plot", "--results", folder + "/r/e/e.json", "--out", folder + "/p", "--pdf",
            ])
            var pid: Int32?
            _ = LaunchTests.waitUntil {
                pid = (try? String(contentsOfFile: folder + "/pid", encoding: .utf8)).flatMap {
                    Int32($0.trimmingCharacters(in: .newlines))
                }
                return pid != nil
            }
            let converter = try #require(pid, "the converter did not start")
            let status = LaunchTests.signal(themelab, signal)
            #expect(status & 0x7f == signal, "ended by signal \(status & 0x7f), else exit status \(status >> 8)")
            if signal == SIGTERM {
                for _ in 0..<200 where Self.isRunning(converter) { usleep(50_000) }
                #expect(!Self.isRunning(converter), "the converter outlived SIGTERM by 10 s")
                #expect(try FileManager.default.contentsOfDirectory(atPath: folder + "/p").isEmpty)
            } else {
                #expect(try FileManager.default.contentsOfDirectory(atPath: folder + "/p").contains { $0.contains(".themelab-") })
            }
            kill(converter, SIGKILL)
            _ = LaunchTests.waitUntil { !Self.isRunning(converter) }
        }
        let r = try Self.launch(["plot", "--results", "r/e/e.json", "--out", "p"], path: "/usr/bin:/bin", in: folder)
        #expect(r.status == 0, "\(r.stderr)")
        let left = try FileManager.default.contentsOfDirectory(atPath: folder + "/p")
        #expect(left.count == 8 && left.allSatisfy { $0.hasSuffix(".svg") && !$0.hasPrefix(".") }, "\(left.sorted())")
    }
}
