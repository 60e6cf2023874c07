import Foundation

/// Writes files so a reader never sees half of one: the bytes go to a temporary file in the
/// same folder, which is then renamed over the destination. The temporary file is created by
/// `mkstemp` (exclusively, with an unpredictable name, never through a planted link), and the
/// rename replaces a link at the destination instead of writing through it.
package enum AtomicFile {
    package static func write(_ data: Data, to path: String) throws {
        try write([(data, path)])
    }

    /// Several files that belong together (a corpus and its vectors, vectors and their record): every
    /// one is written and synced before the first is renamed into place, so a failure or a kill
    /// while writing leaves none of them, and the renames follow one another within microseconds.
    package static func write(_ files: [(data: Data, path: String)]) throws {
        try write(files.map { (FileContents.bytes($0.data), $0.path) })
    }

    /// `write(_:)` for contents that may be streamed into their staged file.
    package static func write(_ files: [(contents: FileContents, path: String)]) throws {
        var staged: [(temporary: String, path: String, interruption: Int)] = []
        var renamed = false
        defer {
            for s in staged {
                Interruption.remove(s.interruption)
                if !renamed { unlink(s.temporary) }
            }
        }
        for (contents, path) in files {
            let (temporary, key) = try stage(contents, for: path)
            staged.append((temporary, path, key))
        }
        // Another set written into these folders at the same time waits for these renames: a folder never mixes two sets.
        let locks = lockFolders(of: files.map(\.path))
        defer { for fd in locks { close(fd) } }
        try Interruption.committing(files.first?.path ?? "") {
            for (k, s) in staged.enumerated() where rename(s.temporary, s.path) != 0 {
                throw ThemeLabError.input(
                    "\(s.path): cannot write (\(String(cString: strerror(errno))))"
                        + (k > 0 ? "; \(staged[..<k].map(\.path).joined(separator: ", ")) already replaced" : ""))
            }
        }
        renamed = true
    }

    /// Exclusive `flock`s on the folders that hold `paths` (on the folders themselves: no lock file is made), one per folder
    /// however it is named, taken in the order of (device, inode) so that two writers never wait on each other. Best
    /// effort: a folder that cannot be opened or locked (a file system without `flock`) is written unlocked.
    private static func lockFolders(of paths: [String]) -> [Int32] {
        var folders: [(id: [UInt64], fd: Int32)] = []
        for path in Set(paths.map { URL(fileURLWithPath: $0).deletingLastPathComponent().path }) {
            let fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
            var info = stat()
            guard fd >= 0 else { continue }
            guard fstat(fd, &info) == 0 else {
                close(fd)
                continue
            }
            let id = [UInt64(info.st_dev), UInt64(info.st_ino)]
            if folders.contains(where: { $0.id == id }) { close(fd) } else { folders.append((id, fd)) }
        }
        let ordered = folders.sorted { $0.id.lexicographicallyPrecedes($1.id) }.map(\.fd)
        for fd in ordered { flock(fd, LOCK_EX) }
        return ordered
    }

    /// The contents in a new synced temporary file beside `path`, which an interruption removes until the key is removed.
    private static func stage(_ contents: FileContents, for path: String) throws -> (temporary: String, interruption: Int) {
        let url = URL(fileURLWithPath: path)
        let folder = url.deletingLastPathComponent()
        func failure(_ reason: String) -> ThemeLabError { .input("\(path): cannot write (\(reason))") }
        var fd: Int32 = -1
        let temporary = try Interruption.committing(path) {
            do { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) } catch {
                throw failure("cannot create its folder: \(error.localizedDescription)")
            }
            return fromTemplate(folder.appendingPathComponent(".\(url.lastPathComponent).").path) {
                fd = mkstemp($0)
                return fd >= 0
            }
        }
        guard let temporary else { throw failure(String(cString: strerror(errno))) }
        let key = Interruption.register { unlink(temporary) }
        do {
            defer { close(fd) }
            let stream = FileStream(fd: fd, path: path)
            switch contents {
            case .bytes(let data): try stream.write(data)
            case .stream(let produce): try produce(stream)
            }
            try stream.flush()
            guard fsync(fd) == 0, fchmod(fd, 0o644) == 0 else { throw failure(String(cString: strerror(errno))) }
        } catch {
            unlink(temporary)
            Interruption.remove(key)
            throw error
        }
        return (temporary, key)
    }

    /// `mkdtemp`: a new folder with an unpredictable name, never one that already existed.
    package static func makeTemporaryFolder(in folder: String, prefix: String) throws -> String {
        guard let made = fromTemplate("\(folder)/\(prefix)", { mkdtemp($0) != nil }) else {
            throw ThemeLabError.input("\(folder): cannot create a temporary folder (\(String(cString: strerror(errno))))")
        }
        return made
    }

    /// `prefix` + "XXXXXX" handed to `mkstemp`/`mkdtemp`, which fill in the name; nil when `create` fails.
    private static func fromTemplate(_ prefix: String, _ create: (UnsafeMutablePointer<CChar>) -> Bool) -> String? {
        var template = Array((prefix + "XXXXXX").utf8CString)
        return template.withUnsafeMutableBufferPointer { create($0.baseAddress!) ? String(cString: $0.baseAddress!) : nil }
    }

    package static func write(_ text: String, to path: String) throws {
        try write(Data(text.utf8), to: path)
    }
}

/// What a staged file holds: bytes already made, or text written into the staged file piece by piece (`stream`), so a
/// file of gigabytes (an assignments file) is never whole in memory.
package enum FileContents {
    case bytes(Data)
    case stream((FileStream) throws -> Void)
}

/// Text written into an open file through a buffer of a mebibyte; a failed write throws naming the file.
package final class FileStream {
    private let fd: Int32
    private let path: String
    private var buffer: [UInt8] = []
    private static let capacity = 1 << 20

    init(fd: Int32, path: String) {
        (self.fd, self.path) = (fd, path)
        buffer.reserveCapacity(Self.capacity)
    }

    package func write(_ text: String) throws {
        buffer.append(contentsOf: text.utf8)
        if buffer.count >= Self.capacity { try flush() }
    }

    func write(_ data: Data) throws {
        try flush()
        try data.withUnsafeBytes { try writeAll($0) }
    }

    /// Writes what the buffer holds.
    func flush() throws {
        try buffer.withUnsafeBytes { try writeAll($0) }
        buffer.removeAll(keepingCapacity: true)
    }

    private func writeAll(_ bytes: UnsafeRawBufferPointer) throws {
        var written = 0
        while written < bytes.count {
            let n = Foundation.write(fd, bytes.baseAddress! + written, bytes.count - written)
            guard n > 0 else { throw ThemeLabError.input("\(path): cannot write (\(String(cString: strerror(errno))))") }
            written += n
        }
    }
}

/// The files one run writes: each at most once, checked (two inputs that would give one file name are an error, never an
/// overwrite).
package struct OutputFiles {
    package private(set) var written: [String] = []
    private var seen: Set<String> = []

    package init() {}

    /// Writes `text` to `path` atomically, unless this run has written `path` already.
    package mutating func write(_ text: String, to path: String) throws {
        try write(.bytes(Data(text.utf8)), to: path)
    }

    /// Writes `contents` to `path` atomically, unless this run has written `path` already.
    package mutating func write(_ contents: FileContents, to path: String) throws {
        guard seen.insert(path).inserted else {
            throw ThemeLabError.input("\(path) would be written twice in one run: two inputs share its name (give one an 'as' name)")
        }
        try AtomicFile.write([(contents, path)])
        written.append(path)
    }
}
