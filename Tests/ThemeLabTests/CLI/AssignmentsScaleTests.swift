import Foundation
import Testing
import ThemeLabCore
import ThemeLabStudy

/// Assignments at scale: refused from the grid's shape before any work past their bound, streamed into their file row by
/// row, and an analysis keeps which entries form each group only when it lists or writes them.
@Suite struct AssignmentsScaleTests {
    /// A generator corpus of `topics` topics of `size` items, each with a short text.
    static func corpus(topics: Int, size: Int, dimensions: Int) throws -> String {
        let folder = temporaryFolder()
        let sizes = Array(repeating: String(size), count: topics).joined(separator: ",")
        let r = CLI.run([
            "synth", "--out-corpus", folder + "/g.jsonl", "--out-embeddings", folder + "/x.npy", "--topics", sizes,
            "--dims", String(dimensions), "--seed", "1",
        ])
        try #require(r.status == 0, "\(r.stderr)")
        let lines = try String(contentsOfFile: folder + "/g.jsonl", encoding: .utf8).split(separator: "\n").enumerated().map { k, line in
            line.dropLast() + #", "text": "entry \#(k)"}"#
        }
        try AtomicFile.write(lines.joined(separator: "\n") + "\n", to: folder + "/c.jsonl")
        return folder
    }

    @Test func assignmentsPastTheirBoundAreRefusedBeforeAnyWork() throws {
        let folder = try Self.corpus(topics: 4, size: 500, dimensions: 8)
        // 2 000 items × 2 spaces × 5 001 rules × components = 20 004 000 rows.
        let rules = (1...5001).map { "fixed(\(Double($0) / 10_000))" }.joined(separator: ",")
        let r = CLI.run([
            "analyze", "--corpus", folder + "/c.jsonl", "--embeddings", folder + "/x.npy", "--thresholds", rules, "--groupings",
            "components",
            "--json", "--assignments", folder + "/a.csv",
        ])
        #expect(r.status == 2)
        #expect(
            r.stderr.contains(
                "--assignments of 'c' would hold 2000 items × 2 spaces × 5001 cells a space (each rule × grouping) = 20004000 rows, "
                    + "more than 20000000"), "\(r.stderr)")
        #expect(!r.stderr.contains(" space\n"), "the analysis ran before the refusal: \(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder + "/a.csv"))
    }

    /// Peak resident memory of `themelab ARGUMENTS` in a process of its own, in MiB (Python's `resource` reads it).
    static func peakMiB(_ arguments: [String]) throws -> Double {
        let script = """
            import resource, subprocess, sys
            subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
            print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
            """
        let r = try CLI.launch(
            executable: "/usr/bin/env", ["python3", "-c", script, CLI.binary] + arguments, environment: ProcessInfo.processInfo.environment)
        try #require(r.status == 0, "\(r.stderr)")
        return try #require(Double(r.stdout.trimmingCharacters(in: .whitespacesAndNewlines))) / 1024
    }

    /// 4 000 items × 600 cells cut near 1, where most groups are single items: members kept without need took 150 MiB,
    /// and a 180 MB assignments file built in memory six times its size.
    @Test func analyzeStreamsAssignmentsAndKeepsOnlyTheMembersItUses() throws {
        let folder = try Self.corpus(topics: 8, size: 500, dimensions: 64)
        let rules = (0..<300).map { "fixed(\(0.97 + Double($0) / 10_000))" }.joined(separator: ",")
        let analyze = [
            "analyze", "--corpus", folder + "/c.jsonl", "--embeddings", folder + "/x.npy", "--groupings", "components", "--json",
        ]
        let one = try Self.peakMiB(analyze + ["--thresholds", "fixed(0.97)"])
        let all = try Self.peakMiB(analyze + ["--thresholds", rules])
        let written = try Self.peakMiB(analyze + ["--thresholds", rules, "--assignments", folder + "/a.csv"])
        let bytes = try #require(try FileManager.default.attributesOfItem(atPath: folder + "/a.csv")[.size] as? Int)
        #expect(bytes > 150_000_000)
        #expect(all - one < 40, "600 cells, no listing, no file: \(one) MiB → \(all) MiB")
        #expect(written - all < 40, "a \(bytes / 1_000_000) MB file: \(all) MiB → \(written) MiB")
    }
}
