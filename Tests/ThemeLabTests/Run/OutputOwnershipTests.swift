import Foundation
import Testing
import ThemeLabCore
import ThemeLabReport
import ThemeLabRun

/// An output owns only what it made: clean-up touches what the harness marked as its own, a results root that someone
/// changed meanwhile is not overwritten, a set of files replaces the previous set whole, and what cannot be written
/// fails in one line leaving the previous files as they were.
@Suite struct OutputOwnershipTests {
    /// A 6-item labelled corpus with its vectors and an experiment reading them (`embeddings`: its vectors file, relative
    /// to the folder); returns the folder.
    static func smallExperiment(embeddings: String = "x.npy", items: String = "3,3") throws -> String {
        let folder = temporaryFolder()
        let synth = CLI.run([
            "synth", "--out-corpus", folder + "/c.jsonl", "--out-embeddings", folder + "/x.npy", "--dims", "8", "--topics", items,
        ])
        try #require(synth.status == 0, "\(synth.stderr)")
        let experiment =
            "{\"name\":\"e\",\"corpora\":[{\"name\":\"file\",\"path\":\"c.jsonl\"}],\"encoders\":[{\"embeddings\":\"\(embeddings)\"}]}"
        try AtomicFile.write(experiment, to: folder + "/e.json")
        return folder
    }

    /// Every file below `folder` (hidden ones too) with its bytes.
    static func files(_ folder: String) throws -> [String: Data] {
        var out: [String: Data] = [:]
        for path in FileManager.default.subpaths(atPath: folder) ?? [] {
            var isFolder: ObjCBool = false
            if FileManager.default.fileExists(atPath: "\(folder)/\(path)", isDirectory: &isFolder), !isFolder.boolValue {
                out[path] = try Data(contentsOf: URL(fileURLWithPath: "\(folder)/\(path)"))
            }
        }
        return out
    }

    /// A user's hidden entries shaped like the harness's staging and retired folders (two with `mkdtemp`'s exact suffix)
    /// survive `ablate --out .`, a failed run first of all (the clean-up used to run before any check); marked leftovers of
    /// a killed run are removed, and a retired folder put back, once a run writes.
    @Test func cleanUpTouchesOnlyWhatTheHarnessMarkedAndOnlyOnceARunWrites() throws {
        let folder = try Self.smallExperiment()
        for (path, text) in [
            (".draft.new-2024/chapter1.txt", "chapter"), (".env.old-1/x", "secret"), (".e.new-Ab12Cd/notes.txt", "mine"),
            (".e.old-Zz99Yy/notes.txt", "mine too"),
        ] { try AtomicFile.write(text, to: "\(folder)/\(path)") }
        let before = try Self.files(folder)
        try AtomicFile.write(
            try String(contentsOfFile: folder + "/e.json", encoding: .utf8).replacingOccurrences(
                of: "x.npy", with: "missing.npy"), to: folder + "/bad.json")
        let failed = try CLI.launch(["ablate", "bad.json", "--out", "."], workingDirectory: folder)
        #expect(failed.status == 1 && failed.stderr.contains("missing.npy"), "\(failed.stderr)")
        #expect(try Self.files(folder).filter { $0.key != ".lock" && $0.key != "bad.json" } == before)
        for leftover in [".k.new-Q1w2E3", ".r.old-Xy12Ab"] {
            try AtomicFile.write("kept", to: "\(folder)/\(leftover)/r.json")
            #expect(FileManager.default.createFile(atPath: "\(folder)/\(leftover)/.themelab-staging", contents: nil))
        }
        let ran = try CLI.launch(["ablate", "e.json", "--out", "."], workingDirectory: folder)
        #expect(ran.status == 0, "\(ran.stderr)")
        let after = try Self.files(folder)
        for (path, bytes) in before { #expect(after[path] == bytes, "\(path)") }
        #expect(after["r/r.json"] == Data("kept".utf8) && after["e/e.json"] != nil, "\(after.keys.sorted())")
        #expect(!after.keys.contains { $0.hasPrefix(".k.") || $0.hasPrefix(".r.") || $0.hasPrefix("env") || $0.contains(".themelab-") })
    }

    /// `reproduce --out X` (the whole root replaced) leaves the user's `.X.new-2024/` and `.X.old-1/` beside X alone,
    /// whether the run fails or succeeds.
    @Test func replacingTheWholeRootTouchesNoSiblingItDidNotMake() throws {
        let folder = temporaryFolder()
        try AtomicFile.write("chapter", to: folder + "/.out.new-2024/chapter1.txt")
        try AtomicFile.write("secret", to: folder + "/.out.old-1/x")
        try AtomicFile.write("old", to: folder + "/out/e/e.json")
        struct Boom: Error {}
        #expect(throws: Boom.self) { try ResultsRoot(path: folder + "/out").replaceWhole { _ in throw Boom() } }
        try ResultsRoot(path: folder + "/out").replaceWhole { root in
            try root.replaceFolder("e") { try AtomicFile.write("new", to: $0 + "/e.json") }
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).sorted() == [".out.new-2024", ".out.old-1", "out"])
        #expect(try String(contentsOfFile: folder + "/.out.new-2024/chapter1.txt", encoding: .utf8) == "chapter")
        #expect(try String(contentsOfFile: folder + "/.out.old-1/x", encoding: .utf8) == "secret")
        #expect(try String(contentsOfFile: folder + "/out/e/e.json", encoding: .utf8) == "new")
    }

    /// A note edited and a file added in X while `reproduce --out X` runs: X is left as the user made it, the new results
    /// are kept beside it, and the error says where.
    @Test func aRootChangedDuringTheRunIsNotOverwritten() throws {
        let folder = temporaryFolder()
        try AtomicFile.write("mine", to: folder + "/out/notes.txt")
        try AtomicFile.write("old", to: folder + "/out/e/e.json")
        let root = try ResultsRoot(path: folder + "/out")
        let message = errorMessage {
            try root.replaceWhole { staging in
                try staging.replaceFolder("e") { try AtomicFile.write("new", to: $0 + "/e.json") }
                let notes = try #require(FileHandle(forWritingAtPath: folder + "/out/notes.txt"))
                try notes.seekToEnd()
                try notes.write(contentsOf: Data(", edited".utf8))
                try notes.close()
                try AtomicFile.write("added", to: folder + "/out/later.txt")
            }
        }
        let out = CommandPaths.canonical(folder + "/out")
        let prefix = "\(out) changed during the run (\(out)/later.txt), so it was left as it is; the new results are in \(out)-new-"
        #expect(message?.hasPrefix(prefix) == true, "\(message ?? "replaced")")
        #expect(try String(contentsOfFile: folder + "/out/notes.txt", encoding: .utf8) == "mine, edited")
        #expect(try String(contentsOfFile: folder + "/out/later.txt", encoding: .utf8) == "added")
        #expect(try String(contentsOfFile: folder + "/out/e/e.json", encoding: .utf8) == "old")
        let kept = String((message ?? "").dropFirst(prefix.count - "\(out)-new-".count))
        #expect(try String(contentsOfFile: kept + "/e/e.json", encoding: .utf8) == "new")
        #expect(try String(contentsOfFile: kept + "/notes.txt", encoding: .utf8) == "mine")
        #expect(try FileManager.default.contentsOfDirectory(atPath: kept).sorted() == ["e", "notes.txt"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).sorted() == ["out", (kept as NSString).lastPathComponent])
    }

    /// `reproduce --out LINK`: the folder the link names is replaced, and the link stays a link.
    @Test func aRootGivenThroughALinkIsReplacedWhereItPoints() throws {
        let folder = temporaryFolder()
        try AtomicFile.write("old", to: folder + "/real/e/e.json")
        try FileManager.default.createSymbolicLink(atPath: folder + "/link", withDestinationPath: folder + "/real")
        try ResultsRoot(path: folder + "/link").replaceWhole { root in
            try root.replaceFolder("e") { try AtomicFile.write("new", to: $0 + "/e.json") }
        }
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: folder + "/link") == folder + "/real")
        #expect(try String(contentsOfFile: folder + "/real/e/e.json", encoding: .utf8) == "new")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).sorted() == ["link", "real"])
    }

    /// `analyze --out DIR` twice: the second run's set replaces the first's whole (its regret table and recommendation,
    /// which an unlabelled corpus does not give, are gone), and a file of the user's in DIR stays.
    @Test func analyzeTwiceLeavesOnlyTheSecondRunsFiles() throws {
        let folder = try Self.smallExperiment()
        let labelled = try String(contentsOfFile: folder + "/c.jsonl", encoding: .utf8)
        let unlabelled = labelled.replacingOccurrences(of: #","label":"[^"]*""#, with: "", options: .regularExpression)
        try AtomicFile.write(unlabelled, to: folder + "/u.jsonl")
        try AtomicFile.write("mine", to: folder + "/d/notes.txt")
        let first = CLI.run(["analyze", "--corpus", folder + "/c.jsonl", "--embeddings", folder + "/x.npy", "--out", folder + "/d"])
        try #require(first.status == 0 && FileManager.default.fileExists(atPath: folder + "/d/analysis-regret.md"), "\(first.stderr)")
        let second = CLI.run(["analyze", "--corpus", folder + "/u.jsonl", "--embeddings", folder + "/x.npy", "--out", folder + "/d"])
        #expect(second.status == 0, "\(second.stderr)")
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: folder + "/d").sorted()
                == ["analysis.csv", "analysis.json", "analysis.md", "notes.txt"])
    }

    /// A writer killed while staging leaves `.NAME.themelab-XXXXXX`; the next write into the folder removes it, and only
    /// such a file whose writer is gone (another writer's, still locked, stays; so does every other name).
    @Test func aKilledWritersTemporaryIsRemovedByTheNextWrite() throws {
        let folder = temporaryFolder()
        try Data(count: 4096).write(to: URL(fileURLWithPath: folder + "/.groups.csv.themelab-Ab12Cd"))
        let live = open(folder + "/.other.csv.themelab-Zz99Yy", O_RDWR | O_CREAT, 0o600)
        try #require(live >= 0 && flock(live, LOCK_EX) == 0)
        defer { close(live) }
        for name in [".groups.csv.Ab12Cd", ".notes.themelab-abc", ".notes.themelab-Ab12Cd7"] {
            try AtomicFile.write("mine", to: "\(folder)/\(name)")
        }
        try FileManager.default.createDirectory(atPath: folder + "/.d.themelab-Qq11Ww", withIntermediateDirectories: true)
        try AtomicFile.write("a,b\n", to: folder + "/groups.csv")
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: folder).sorted() == [
                ".d.themelab-Qq11Ww", ".groups.csv.Ab12Cd", ".notes.themelab-Ab12Cd7", ".notes.themelab-abc", ".other.csv.themelab-Zz99Yy",
                "groups.csv",
            ])
    }

    /// A full disk (here a file-size limit, which needs no root) while writing: one line naming the file that could not be
    /// written (never a staging folder's), nothing half-written, the previous files as they were.
    @Test func aFullDiskFailsInOneLineAndKeepsThePreviousFiles() throws {
        let folder = try Self.smallExperiment(items: "20,20,20")
        for args in [["ablate", "e.json", "--out", "r"], ["analyze", "--corpus", "c.jsonl", "--embeddings", "x.npy", "--out", "a"]] {
            let first = try CLI.launch(args, workingDirectory: folder)
            try #require(first.status == 0, "\(first.stderr)")
        }
        let plot = try CLI.launch(["plot", "--results", "r/e/e.json", "--out", "p"], workingDirectory: folder)
        try #require(plot.status == 0, "\(plot.stderr)")
        let before = try Self.files(folder)
        for (args, file) in [
            (["ablate", "e.json", "--out", "r"], "r/e/e.json"),
            (["analyze", "--corpus", "c.jsonl", "--embeddings", "x.npy", "--out", "a"], "a/analysis.json"),
            (["plot", "--results", "r/e/e.json", "--out", "p", "--pdf"], "p/c-embeddings-x-npy-raw-histogram.svg"),
        ] {
            // SIGXFSZ ignored, so a write past the limit fails with EFBIG as one past a full disk's end fails with ENOSPC.
            let limited = ["-c", "trap '' XFSZ; ulimit -f 8; exec \"$@\"", "sh", CLI.binary] + args
            let r = try CLI.launch(
                executable: "/bin/sh", limited, environment: ProcessInfo.processInfo.environment, workingDirectory: folder)
            let errors = r.stderr.split(separator: "\n").filter { $0.hasPrefix("themelab: ") }
            #expect(r.status == 1 && errors == ["themelab: \(file): cannot write (File too large)"], "\(args[0]): \(r.stderr)")
            #expect(try Self.files(folder).filter { $0.key != "r/.lock" } == before.filter { $0.key != "r/.lock" }, "\(args[0])")
        }
    }

    /// An experiment file, or a file it names, that is a FIFO or a device is refused at once in one line (a FIFO's open
    /// used to wait for a writer forever).
    @Test func inputsThatAreNotRegularFilesAreRefusedAtOnce() throws {
        let folder = try Self.smallExperiment(embeddings: "fifo.npy")
        try #require(mkfifo(folder + "/fifo.npy", 0o600) == 0 && mkfifo(folder + "/fifo.json", 0o600) == 0)
        for (input, named) in [
            (folder + "/fifo.json", folder + "/fifo.json"), ("/dev/zero", "/dev/zero"), (folder + "/e.json", folder + "/fifo.npy"),
        ] {
            let r = try CLI.launch(
                executable: "/usr/bin/timeout", ["-s", "KILL", "60", CLI.binary, "ablate", input, "--out", folder + "/r"],
                environment: ProcessInfo.processInfo.environment)
            #expect(r.status == 1 && r.stderr == "themelab: \(named): not a regular file\n", "\(input): \(r.status) \(r.stderr)")
        }
    }
}
