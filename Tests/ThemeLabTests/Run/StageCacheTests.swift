import Foundation
import Testing
import ThemeLabCore
import ThemeLabEncoder
import ThemeLabReport
import ThemeLabRun
import ThemeLabStudy

/// `reproduce`'s stage cache: a stage is kept under a key of its code, settings and inputs' bytes; an entry whose files
/// do not match their hashes is never used; one entry is kept per stage name.
struct StageCacheTests {
    static func cache(_ folder: String, replicates: Int? = nil) throws -> StageCache {
        try #require(StageCache(cacheFolder: folder + "/cache", dataDirectory: nil, replicates: replicates))
    }

    static func write(_ text: String, _ path: String) throws { try Data(text.utf8).write(to: URL(fileURLWithPath: path)) }

    /// The code is the process's executable and the libraries the loader mapped: the test runner and OpenBLAS, the same
    /// list and hash on every call.
    @Test func codeIdentityNamesTheExecutableAndItsLibraries() throws {
        let files = try #require(CodeIdentity.files())
        let executable = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        #expect(files.contains(executable))
        #expect(files.contains { $0.contains("libopenblas") }, "\(files)")
        #expect(files.contains { URL(fileURLWithPath: $0).lastPathComponent.hasPrefix("libc.so") }, "\(files)")
        let folder = temporaryFolder()
        let hex = try #require(CodeIdentity.hex(cacheFolder: folder))
        #expect(hex.count == 64 && CodeIdentity.files() == files && CodeIdentity.hex(cacheFolder: folder) == hex)
    }

    /// The key moves with an input's bytes, a stage it comes after, the replicate count and the stage's name, and with
    /// nothing else between two calls.
    @Test func theKeyMovesWithTheInputsAndSettings() throws {
        let folder = temporaryFolder()
        let input = folder + "/plan.json"
        try Self.write("{\"a\": 1}", input)
        let loaded = CodeIdentity.files()
        let cache = try Self.cache(folder)
        let key = try cache.key("seeds", reading: [input])
        #expect(try cache.key("seeds", reading: [input]) == key)
        // Another test of this process may load a library meanwhile (new code, rightly a new key): compared when none did.
        let fresh = try Self.cache(folder).key("seeds", reading: [input])
        if CodeIdentity.files() == loaded { #expect(fresh == key) }
        #expect(try cache.key("rules", reading: [input]) != key)
        #expect(try cache.key("seeds", reading: [input], after: ["rules 0123"]) != key)
        #expect(try Self.cache(folder, replicates: 3).key("seeds", reading: [input]) != key)
        try Self.write("{\"a\": 2}", input)
        #expect(try cache.key("seeds", reading: [input]) != key)
        #expect(throws: ThemeLabError.self) { try cache.key("seeds", reading: [folder + "/missing.json"]) }
    }

    /// What is stored comes back byte for byte, subfolders included; a file changed in the cache, a list naming a path
    /// outside the entry, a file twice or not every file makes the entry unused and removed.
    @Test func aTamperedEntryIsNeverUsed() throws {
        let folder = temporaryFolder()
        let cache = try Self.cache(folder)
        let files = ["seeds.json": Data("{}\n".utf8), "plots/a b.svg": Data("<svg/>".utf8)]
        cache.store("seeds", key: String(repeating: "ab", count: 32), files: files, seconds: 1)
        #expect(cache.restore("seeds", key: String(repeating: "ab", count: 32)) == files)
        #expect(cache.restore("seeds", key: String(repeating: "cd", count: 32)) == nil)
        let entry = folder + "/cache/stages/seeds-" + String(repeating: "ab", count: 16)
        try Self.write("{\"planted\": 1}\n", entry + "/files/seeds.json")
        #expect(cache.restore("seeds", key: String(repeating: "ab", count: 32)) == nil)
        #expect(!FileManager.default.fileExists(atPath: entry), "a tampered entry was left in the cache")
        // A list naming a file outside the stage's folder, its hash right: never read, never written.
        try Self.write("secret", folder + "/outside.txt")
        // "/" then a combining mark is one Character to Swift, two parts to the kernel.
        for path in ["../../../../outside.txt", "/etc/hostname", "plots//a.svg", "./seeds.json", "../\u{301}x"] {
            cache.store("seeds", key: String(repeating: "ab", count: 32), files: ["seeds.json": Data("{}\n".utf8)], seconds: 1)
            try Self.write("secret", entry + "/\u{301}x")
            try Self.write("\(SHA256.hex(Data("secret".utf8))) \(path)\n", entry + "/files.sha256")
            #expect(cache.restore("seeds", key: String(repeating: "ab", count: 32)) == nil, "\(path)")
        }
        // A list cut short (a stored file left out), or one naming a file twice: not used.
        for cut in [{ (lines: [String]) in Array(lines.dropLast()) }, { lines in lines + [lines[0]] }] {
            cache.store("seeds", key: String(repeating: "ab", count: 32), files: files, seconds: 1)
            let lines = try String(contentsOfFile: entry + "/files.sha256", encoding: .utf8).split(separator: "\n").map(String.init)
            try Self.write(cut(lines).joined(separator: "\n") + "\n", entry + "/files.sha256")
            #expect(cache.restore("seeds", key: String(repeating: "ab", count: 32)) == nil)
        }
    }

    /// Storing a stage removes that stage's older entry and leaves every other stage's, "rules-tuning" beside "rules";
    /// each entry says how long its stage took to compute.
    @Test func oneEntryIsKeptPerStage() throws {
        let folder = temporaryFolder()
        let cache = try Self.cache(folder)
        let (old, new, other) = (String(repeating: "1", count: 64), String(repeating: "2", count: 64), String(repeating: "3", count: 64))
        cache.store("rules", key: old, files: ["rules.json": Data("1".utf8)], seconds: 118.6)
        cache.store("rules-tuning", key: other, files: ["rules-tuning.json": Data("3".utf8)], seconds: 30.5)
        #expect(cache.seconds(of: "rules") == 118.6 && cache.seconds(of: "rules-tuning") == 30.5 && cache.seconds(of: "seeds") == nil)
        cache.store("rules", key: new, files: ["rules.json": Data("2".utf8)], seconds: 2.5)
        #expect(!cache.has("rules", key: old) && cache.has("rules", key: new) && cache.has("rules-tuning", key: other))
        #expect(cache.restore("rules", key: old) == nil)
        #expect(cache.restore("rules", key: new) == ["rules.json": Data("2".utf8)])
        #expect(cache.restore("rules-tuning", key: other) == ["rules-tuning.json": Data("3".utf8)])
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder + "/cache/stages").count == 2)
        #expect(cache.seconds(of: "rules") == 2.5, "the estimate's basis is the stored run's time")
    }

    /// `--recompute` stores every stage it runs; `--cold` (keeping nothing) stores none, its private cache being deleted
    /// at the end: entries written there would be work thrown away.
    @Test func aColdRunStoresNoStage() throws {
        let folder = temporaryFolder()
        let experiments = try #require(ProjectFiles.locate("Experiments"))
        for (keeping, stores) in [(Reproduction.Keeping.nothing, false), (.recompute, true)] {
            let cache = folder + "/cache-\(stores)"
            _ = try Reproduction.run(
                experiments: experiments, only: ["synthetic"], root: try ResultsRoot(path: folder + "/out-\(stores)"),
                environment: RunEnvironment(cacheFolder: cache), keeping: keeping)
            let entries = (try? FileManager.default.contentsOfDirectory(atPath: cache + "/stages")) ?? []
            #expect(entries.contains { $0.hasPrefix("experiment-synthetic-") } == stores, "\(keeping): \(entries)")
        }
    }

    /// The replay embeds its text journals with the default model: its files are among what the replay reads, so a
    /// changed model runs the replay again rather than keeping it.
    @Test func theReplayReadsTheDefaultModel() throws {
        let root = ReproducibilityTests.root
        let plan = try ReplayPlan.read(path: root + "/Experiments/replay.json")
        let files = try plan.inputFiles(dataDirectory: nil)
        let model = try ModelFolder.locate(explicit: nil).files()
        #expect(model.contains { $0.hasSuffix("model.safetensors") } && model.allSatisfy(files.contains), "\(files)")
    }
}
