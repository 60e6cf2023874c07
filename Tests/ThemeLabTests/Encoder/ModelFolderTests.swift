import Foundation
import Testing
import ThemeLabCore

@testable import ThemeLabEncoder

/// A model folder's modules are inputs wherever modules.json puts them.
@Suite struct ModelFolderTests {
    /// A copy of encoder fixture `name` whose module folders are renamed (`moves`: old → new path, modules.json too).
    static func movedModules(_ name: String, _ moves: [String: String]) throws -> String {
        let folder = temporaryFolder() + "/\(name)"
        try FileManager.default.copyItem(atPath: fixture("encoders/\(name)"), toPath: folder)
        var modules = try String(contentsOfFile: folder + "/modules.json", encoding: .utf8)
        for (old, new) in moves {
            try FileManager.default.createDirectory(
                atPath: folder + "/" + (new as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try FileManager.default.moveItem(atPath: "\(folder)/\(old)", toPath: "\(folder)/\(new)")
            modules = modules.replacingOccurrences(of: "\"path\": \"\(old)\"", with: "\"path\": \"\(new)\"")
        }
        try AtomicFile.write(modules, to: folder + "/modules.json")
        return folder
    }

    /// A Pooling or Dense module at a legal unusual path is an input like any other: it is in the files,
    /// the cache identity moves with its config (so the cache serves new vectors), and `embed --out` onto it is refused.
    @Test func modulesAtUnusualPathsAreInputs() throws {
        let folder = try Self.movedModules("bert-wordpiece-cls-mean-dense-normalize", ["1_Pooling": "mypool", "2_Dense": "layers/dense"])
        let model = try ModelFolder(path: folder)
        let files = try model.files()
        for name in ["mypool/config.json", "layers/dense/config.json", "layers/dense/model.safetensors"] {
            #expect(files.contains("\(folder)/\(name)"), "\(name) in \(files)")
        }
        let cache = temporaryFolder()
        let text = ["a pooled sentence about the sea"]
        let before = try SentenceEncoder(folder: model)
        var first = try EmbeddingCache(folder: cache, encoder: before, layer: before.configuration.layers)
        let old = try before.embed(text, layer: before.configuration.layers, cache: &first)
        let pooling = folder + "/mypool/config.json"
        let config = try String(contentsOfFile: pooling, encoding: .utf8)
        try AtomicFile.write(config.replacingOccurrences(of: "\"cls\"", with: "\"max\""), to: pooling)
        let after = try SentenceEncoder(folder: model)
        #expect(after.cacheIdentity != before.cacheIdentity)
        var second = try EmbeddingCache(folder: cache, encoder: after, layer: after.configuration.layers)
        let new = try after.embed(text, layer: after.configuration.layers, cache: &second)
        #expect(new.storage == (try after.embed(text, layer: after.configuration.layers)).storage && new.storage != old.storage)
        try AtomicFile.write("{\"id\":\"a\",\"text\":\"hello\"}\n", to: cache + "/c.jsonl")
        for target in [pooling, folder + "/layers/dense/model.safetensors"] {
            let run = CLI.run(["embed", "--corpus", cache + "/c.jsonl", "--model", folder, "--out", target])
            #expect(run.status == 2 && run.stderr.contains("output \(target) is the input"), "\(run.stderr)")
        }
        #expect(try String(contentsOfFile: pooling, encoding: .utf8).hasPrefix("{"))
    }
}
