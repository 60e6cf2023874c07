import Foundation

/// Pooled vectors already computed, keyed by (encoder identity, layer, text), so re-running an
/// experiment does not re-embed. The identity covers the weights, every file that shapes a vector
/// (config, vocabulary, tokenizer and pooling settings), the BLAS kernel and the encoder's arithmetic
/// (`SentenceEncoder.cacheIdentity`), so a changed folder, kernel or forward pass never gets old vectors
/// back. One file per identity and layer under the cache folder: "TLEC2\n", the identity (64 hex bytes),
/// the dimension as UInt32, then records of SHA-256(text) (32 bytes) + d Float32s.
///
/// Two processes may share a folder: a save takes the file's lock (`FILE.lock`, `flock`), merges what the
/// other wrote meanwhile, and replaces the file atomically, so readers see the old or the new file whole.
public struct EmbeddingCache {
    public let file: String
    let identity: String
    public let dimensions: Int
    private(set) var vectors: [Data: [Float]] = [:]
    private var dirty = false
    static let magic = Data("TLEC2\n".utf8)

    /// `$THEMELAB_CACHE`, else `.themelab/cache` in the working directory.
    public static var defaultFolder: String {
        ProcessInfo.processInfo.environment["THEMELAB_CACHE"] ?? ".themelab/cache"
    }

    /// Refuses, before any text is embedded, a cache folder that cannot be written (the work would be lost at the end).
    public init(folder: String = EmbeddingCache.defaultFolder, encoder: SentenceEncoder, layer: Int) throws {
        identity = encoder.cacheIdentity
        dimensions = encoder.dimensions
        file = "\(folder)/\(identity.prefix(16))-layer\(layer).bin"
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        guard let probe = try? AtomicFile.makeTemporaryFolder(in: folder, prefix: ".probe-") else {
            throw ThemeLabError.input(
                "\(folder): the embedding cache cannot be written there (\(String(cString: strerror(errno)))); set THEMELAB_CACHE "
                    + "to a writable folder, or pass --no-cache")
        }
        rmdir(probe)
        vectors = try stored()
    }

    /// The records of the cache file (none if there is no file yet).
    private func stored() throws -> [Data: [Float]] {
        guard let data = FileManager.default.contents(atPath: file) else { return [:] }
        let record = 32 + 4 * dimensions
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
        var offset = header
        while offset < data.count {
            let key = data.subdata(in: offset..<(offset + 32))
            let values = data.subdata(in: (offset + 32)..<(offset + record)).withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
            guard values.allSatisfy(\.isFinite) else {
                throw ThemeLabError.input("\(file): a non-finite cached vector; delete it to rebuild")
            }
            records[key] = values
            offset += record
        }
        return records
    }

    static func key(_ text: String) -> Data {
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

    public func vector(for text: String) -> [Float]? { vectors[Self.key(text)] }

    mutating func store(_ vector: [Float], for text: String) {
        precondition(vector.count == dimensions)
        vectors[Self.key(text)] = vector
        dirty = true
    }

    public var count: Int { vectors.count }

    /// Writes the cache if anything was added: under the file's lock, merged with what another process saved
    /// meanwhile, replaced atomically. Records are sorted by key, so the file's bytes depend only on its contents.
    public mutating func save() throws {
        guard dirty else { return }
        let lock = try FileLock(path: file + ".lock", wait: true)
        defer { withExtendedLifetime(lock) {} }
        vectors.merge(try stored()) { mine, _ in mine }
        var data = Self.magic + Data(identity.utf8)
        withUnsafeBytes(of: UInt32(dimensions).littleEndian) { data.append(contentsOf: $0) }
        for key in vectors.keys.sorted(by: { $0.lexicographicallyPrecedes($1) }) {
            data.append(key)
            vectors[key]!.withUnsafeBytes { data.append(contentsOf: $0) }
        }
        try AtomicFile.write(data, to: file)
        dirty = false
    }
}

extension SentenceEncoder {
    /// `embed` through the cache: only texts not cached are run through the model.
    public func embed(_ texts: [String], layer: Int, cache: inout EmbeddingCache, progress: ((Int, Int) -> Void)? = nil) throws -> Matrix {
        // Distinct by bytes: Swift's String equality would merge canonically equivalent texts.
        var seen = Set<Data>()
        let missing = texts.filter { cache.vector(for: $0) == nil && seen.insert(Data($0.utf8)).inserted }
            .sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
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
