import Foundation

/// SHA-256 of large files (the model weights: 91 MB, ≈ 0.4 s to hash) remembered across runs, keyed by the file's
/// absolute path and what identifies its bytes on disk: device, inode, size, modification time and change time (ns).
/// Any write to the file moves its change time, which no user call can set back, so a changed file is hashed again,
/// never trusted. `verify` hashes anyway and says whether the remembered value was right (`themelab env --verify`).
/// The records live in `FOLDER/hashes/` (the embedding cache's folder); a folder that cannot be written only costs
/// the hash each run.
package enum FileHashCache {
    /// The SHA-256 of `path`, from the record when the file is unchanged since it was written.
    package static func hex(file path: String, cacheFolder: String = ProcessEnvironment.cacheFolder) throws -> String {
        let key = try identity(path)
        return try remembered(path, key: key, cacheFolder: cacheFolder) ?? hashAndRemember(path, key: key, cacheFolder: cacheFolder)
    }

    /// Hashes `path` and replaces its record; returns the remembered value (nil when there was none for this very
    /// file state) and the hash.
    package static func verify(
        file path: String, cacheFolder: String = ProcessEnvironment.cacheFolder
    ) throws -> (remembered: String?, actual: String) {
        let key = try identity(path)
        return (remembered(path, key: key, cacheFolder: cacheFolder), try hashAndRemember(path, key: key, cacheFolder: cacheFolder))
    }

    /// The hash recorded for the file in state `key`, if any.
    private static func remembered(_ path: String, key: String, cacheFolder: String) -> String? {
        guard let text = try? String(contentsOfFile: record(path, cacheFolder), encoding: .utf8) else { return nil }
        let fields = text.split(separator: "\n")
        guard fields.count == 2, fields[0] == key, fields[1].count == 64, fields[1].allSatisfy(\.isHexDigit) else { return nil }
        return String(fields[1])
    }

    private static func hashAndRemember(_ path: String, key: String, cacheFolder: String) throws -> String {
        let hash = try SHA256.hex(file: path)
        // Only when the file did not change while it was read.
        if (try? identity(path)) == key { try? AtomicFile.write(Data("\(key)\n\(hash)\n".utf8), to: record(path, cacheFolder)) }
        return hash
    }

    package static func record(_ path: String, _ cacheFolder: String) -> String {
        "\(cacheFolder)/hashes/\(SHA256.hex(Data(absolute(path).utf8)).prefix(32)).txt"
    }

    package static func absolute(_ path: String) -> String { URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath().path }

    /// One line naming the file's state: path, device, inode, size, mtime and ctime in ns.
    package static func identity(_ path: String) throws -> String {
        var s = stat()
        guard stat(path, &s) == 0 else { throw ThemeLabError.input("\(path): cannot read (\(String(cString: strerror(errno))))") }
        return [
            absolute(path), "\(s.st_dev)", "\(s.st_ino)", "\(s.st_size)", "\(s.st_mtim.tv_sec).\(s.st_mtim.tv_nsec)",
            "\(s.st_ctim.tv_sec).\(s.st_ctim.tv_nsec)",
        ].joined(separator: " ")
    }
}
