import Foundation
import ThemeLabCore

/// Pooled vectors already computed, keyed by (encoder identity, layer, text), so re-running an
/// experiment does not re-embed. The identity covers the weights, every file that shapes a vector
/// (config, vocabulary, tokenizer and pooling settings), the BLAS kernel and the encoder's arithmetic
/// (`SentenceEncoder.cacheIdentity`), so a changed folder, kernel or forward pass never gets old vectors
/// back. One file per identity and layer under the cache folder: "TLEC3\n", the identity (64 hex bytes),
/// the dimension as UInt32, then records of SHA-256(text) (32 bytes) + d Float32s + a 64-bit check of both
/// (`recordCheck`): a record whose bytes changed on disk is dropped with a warning and its text embedded again.
///
/// Two processes may share a folder: a save takes the file's lock (`FILE.lock`, `flock`), merges what the
/// other wrote meanwhile, and replaces the file atomically, so readers see the old or the new file whole.
package struct EmbeddingCache {
    package let file: String
    package let identity: String
    package let dimensions: Int
    package private(set) var vectors: [Data: [Float]] = [:]
    private var dirty = false
    /// Records of the file that failed their check and were dropped (`warning`).
    package private(set) var dropped = 0
    package static let magic = Data("TLEC3\n".utf8)

    /// Refuses, before any text is embedded, a cache folder that cannot be written (the work would be lost at the end).
    package init(folder: String = ProcessEnvironment.cacheFolder, encoder: SentenceEncoder, layer: Int) throws {
        identity = encoder.cacheIdentity
        dimensions = encoder.dimensions
        file = Self.file(folder: folder, encoder: encoder, layer: layer)
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        guard let probe = try? AtomicFile.makeTemporaryFolder(in: folder, prefix: ".probe-") else {
            throw ThemeLabError.input(
                "\(folder): the embedding cache cannot be written there (\(String(cString: strerror(errno)))); set THEMELAB_CACHE "
                    + "to a writable folder, or pass --no-cache")
        }
        rmdir(probe)
        vectors = try stored()
    }

    /// The file holding the vectors of `encoder`'s `layer` in `folder`.
    package static func file(folder: String, encoder: SentenceEncoder, layer: Int) -> String {
        "\(folder)/\(encoder.cacheIdentity.prefix(16))-layer\(layer).tlec3"
    }

    /// What to tell the user when records were dropped (nil when none were).
    package var warning: String? {
        dropped == 0 ? nil : "warning: \(file): \(dropped) cached vector(s) failed their check and were dropped; embedding them again"
    }

    /// A record's 64-bit check: its bytes (key and vector) as little-endian 64-bit words w, the last padded with zeros,
    /// folded in by h ← (h ⊕ w) · p with p odd (FNV-1a's offset and prime, by word). Each step is a bijection of w for a
    /// given h and of h for a given w, so a record with any one word changed — any single flipped bit — fails it.
    package static func recordCheck(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        var offset = 0
        while offset < bytes.count {
            var w: UInt64 = 0
            withUnsafeMutableBytes(of: &w) {
                $0.copyMemory(from: UnsafeRawBufferPointer(rebasing: bytes[offset..<Swift.min(bytes.count, offset + 8)]))
            }
            h = (h ^ UInt64(littleEndian: w)) &* 0x0000_0100_0000_01B3
            offset += 8
        }
        return h
    }

    /// The records of the cache file (none if there is no file yet); a record that fails its check is dropped.
    private mutating func stored() throws -> [Data: [Float]] {
        guard let data = FileManager.default.contents(atPath: file) else { return [:] }
        let record = 32 + 4 * dimensions + 8
        let header = Self.magic.count + 64 + 4
        let storedIdentity = data.count >= header ? String(decoding: data[Self.magic.count..<(Self.magic.count + 64)], as: UTF8.self) : ""
        let storedDimensions =
            data.count >= header
            ? data.subdata(in: (header - 4)..<header).withUnsafeBytes { Int(UInt32(littleEndian: $0.loadUnaligned(as: UInt32.self))) } : -1
        guard data.prefix(Self.magic.count) == Self.magic, storedIdentity == identity, storedDimensions == dimensions,
            (data.count - header) % record == 0
        else {
            throw ThemeLabError.input(
                "\(file): not an embedding cache of this encoder (\(identity.prefix(16)), \(dimensions)-dim); delete it to rebuild")
        }
        var records: [Data: [Float]] = [:]
        var dropped = 0
        data.withUnsafeBytes { raw in
            for offset in stride(from: header, to: data.count, by: record) {
                let body = UnsafeRawBufferPointer(rebasing: raw[offset..<(offset + record - 8)])
                let check = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: offset + record - 8, as: UInt64.self))
                let values = (0..<dimensions).map { body.loadUnaligned(fromByteOffset: 32 + 4 * $0, as: Float.self) }
                guard check == Self.recordCheck(body), values.allSatisfy(\.isFinite) else {
                    dropped += 1
                    continue
                }
                records[Data(body[0..<32])] = values
            }
        }
        self.dropped = Swift.max(self.dropped, dropped)
        return records
    }

    package static func key(_ text: String) -> Data {
        let hex = SHA256.hex(Data(text.utf8))
        var bytes = Data(capacity: 32)
        var i = hex.startIndex
        while i < hex.endIndex {
            let j = hex.index(i, offsetBy: 2)
            bytes.append(UInt8(hex[i..<j], radix: 16)!)
            i = j
        }
        return bytes
    }

    package func vector(for text: String) -> [Float]? { vectors[Self.key(text)] }

    package mutating func store(_ vector: [Float], for text: String) {
        precondition(vector.count == dimensions)
        vectors[Self.key(text)] = vector
        dirty = true
    }

    package var count: Int { vectors.count }

    /// Writes the cache if anything was added: under the file's lock, merged with what another process saved
    /// meanwhile, replaced atomically. Records are sorted by key, so the file's bytes depend only on its contents.
    package mutating func save() throws {
        guard dirty else { return }
        let lock = try FileLock(path: file + ".lock", wait: true)
        defer { withExtendedLifetime(lock) {} }
        let saved = try stored()
        vectors.merge(saved) { current, _ in current }
        var data = Self.magic + Data(identity.utf8)
        withUnsafeBytes(of: UInt32(dimensions).littleEndian) { data.append(contentsOf: $0) }
        for key in vectors.keys.sorted(by: { $0.lexicographicallyPrecedes($1) }) {
            var body = key
            vectors[key]!.withUnsafeBytes { body.append(contentsOf: $0) }
            let check = body.withUnsafeBytes(Self.recordCheck)
            data.append(body)
            withUnsafeBytes(of: check.littleEndian) { data.append(contentsOf: $0) }
        }
        try AtomicFile.write(data, to: file)
        dirty = false
    }
}

extension EmbeddingCache {
    /// The distinct texts of `texts` not cached, in byte order: what an `embed` through the cache runs through the model.
    package func uncached(_ texts: [String]) -> [String] {
        // Distinct by bytes: Swift's String equality would merge canonically equivalent texts.
        var seen = Set<Data>()
        return texts.filter { vector(for: $0) == nil && seen.insert(Data($0.utf8)).inserted }
            .sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    }
}

extension SentenceEncoder {
    /// `embed` through the cache: only texts not cached are run through the model.
    package func embed(_ texts: [String], layer: Int, cache: inout EmbeddingCache, progress: ((Int, Int) -> Void)? = nil) throws -> Matrix {
        let missing = cache.uncached(texts)
        if !missing.isEmpty {
            let fresh = try embed(missing, layer: layer, progress: progress)
            for (r, text) in missing.enumerated() { cache.store(Array(fresh.row(r)), for: text) }
            try cache.save()
        }
        var out = Matrix(rows: texts.count, cols: dimensions)
        for (i, text) in texts.enumerated() {
            let v = cache.vector(for: text)!
            for k in 0..<dimensions { out[i, k] = v[k] }
        }
        return out
    }
}

/// The last cache read, kept for the process: an experiment's replicates each ask for their texts, one after another,
/// and a file holds tens of thousands of records. It is handed out again only while its file is in the state it was kept
/// in (`FileSnapshot.state`: inode, size, times); a file another process saved since, or one deleted, is read again. One
/// file at most is held, so memory stays that of one cache.
extension EmbeddingCache {
    nonisolated(unsafe) private static var kept: (state: String, cache: EmbeddingCache)?
    private static let keptLock = NSLock()

    /// The cache of `encoder`'s `layer` in `folder`: the one kept if it is this file's and the file is unchanged, else read.
    package static func shared(folder: String, encoder: SentenceEncoder, layer: Int) throws -> EmbeddingCache {
        let file = file(folder: folder, encoder: encoder, layer: layer)
        if let state = try? FileSnapshot.state(file), let k = keptLock.withLock({ kept }), k.cache.file == file, k.state == state {
            return k.cache
        }
        keptLock.withLock { kept = nil }
        return try EmbeddingCache(folder: folder, encoder: encoder, layer: layer)
    }

    /// Keeps `cache` (saved, or with nothing to save) for the next `shared` of its file, as the file stands now; the
    /// records it dropped are gone from the file by then, so it warns no more.
    package static func keep(_ cache: EmbeddingCache) {
        guard !cache.dirty, let state = try? FileSnapshot.state(cache.file) else { return }
        var clean = cache
        clean.dropped = 0
        keptLock.withLock { kept = (state, clean) }
    }
}
