import Foundation
import Testing
import ThemeLabCore

@testable import ThemeLabEncoder

/// The embedding cache: a damaged record is dropped and embedded again, and the cache a process keeps follows its file.
@Suite struct EmbeddingCacheTests {
    /// One flipped bit in a cached record drops that record with a warning; its text is embedded again.
    @Test func aFlippedBitInTheCacheIsDroppedAndRecomputed() throws {
        let encoder = try SentenceEncoder(folder: ModelFolder(path: fixture("encoders/bert-wordpiece-mean")))
        let layer = encoder.configuration.layers
        let folder = temporaryFolder()
        let texts = ["the first entry", "the second entry"]
        var cache = try EmbeddingCache(folder: folder, encoder: encoder, layer: layer)
        let fresh = try encoder.embed(texts, layer: layer, cache: &cache)
        #expect(cache.warning == nil)
        var bytes = try Data(contentsOf: URL(fileURLWithPath: cache.file))
        bytes[bytes.count - 20] ^= 0x40  // a bit of the last record's vector
        try bytes.write(to: URL(fileURLWithPath: cache.file))
        var reopened = try EmbeddingCache(folder: folder, encoder: encoder, layer: layer)
        #expect(reopened.count == 1 && reopened.dropped == 1)
        #expect(reopened.warning?.hasSuffix("1 cached vector(s) failed their check and were dropped; embedding them again") == true)
        #expect(try encoder.embed(texts, layer: layer, cache: &reopened).storage == fresh.storage)
        #expect(try EmbeddingCache(folder: folder, encoder: encoder, layer: layer).count == 2)
    }

    /// The cache a process keeps (`EmbeddingCache.shared`): handed out again while its file is unchanged, read again when
    /// another process saved or the file was deleted; a cache whose dropped records were rewritten warns no more.
    @Test func theKeptCacheFollowsItsFile() throws {
        let encoder = try SentenceEncoder(folder: ModelFolder(path: fixture("encoders/bert-wordpiece-mean")))
        let layer = encoder.configuration.layers
        let folder = temporaryFolder()
        var cache = try EmbeddingCache.shared(folder: folder, encoder: encoder, layer: layer)
        _ = try encoder.embed(["the first entry", "the second entry"], layer: layer, cache: &cache)
        EmbeddingCache.keep(cache)
        #expect(try EmbeddingCache.shared(folder: folder, encoder: encoder, layer: layer).count == 2)
        var bytes = try Data(contentsOf: URL(fileURLWithPath: cache.file))
        bytes[bytes.count - 20] ^= 0x40
        try bytes.write(to: URL(fileURLWithPath: cache.file))
        var damaged = try EmbeddingCache.shared(folder: folder, encoder: encoder, layer: layer)
        #expect(damaged.count == 1 && damaged.warning != nil, "a changed file is read again")
        _ = try encoder.embed(["the first entry", "the second entry"], layer: layer, cache: &damaged)
        EmbeddingCache.keep(damaged)
        let kept = try EmbeddingCache.shared(folder: folder, encoder: encoder, layer: layer)
        #expect(kept.count == 2 && kept.warning == nil)
        var other = try EmbeddingCache(folder: folder, encoder: encoder, layer: layer)  // another process's save
        _ = try encoder.embed(["a third entry"], layer: layer, cache: &other)
        #expect(try EmbeddingCache.shared(folder: folder, encoder: encoder, layer: layer).count == 3)
        try FileManager.default.removeItem(atPath: cache.file)
        #expect(try EmbeddingCache.shared(folder: folder, encoder: encoder, layer: layer).count == 0)
    }
}
