import Foundation

/// Writes files so a reader never sees half of one: the bytes go to a temporary file in the
/// same folder, which is then renamed over the destination. The temporary file is created by
/// `mkstemp` (exclusively, with an unpredictable name, never through a planted link), and the
/// rename replaces a link at the destination instead of writing through it. A temporary is named
/// `.NAME.themelab-XXXXXX` and locked (`flock`) by its writer until renamed; one whose writer was
/// killed (unlocked) is removed by the next write into its folder.
package enum AtomicFile {
    /// What a temporary's name holds between `.NAME` and `mkstemp`'s six letters or digits.
    package static let temporaryInfix = ".themelab-"

    package static func write(_ data: Data, to path: String) throws {
        try write([(data, path)])
    }

    /// Several files that belong together (a corpus and its vectors, vectors and their record): every
    /// one is written and synced before the first is renamed into place, so a failure or a kill
    /// while writing leaves none of them, and the renames follow one another within microseconds.
    /// `stale`: the files of the set that this run does not write, removed in the same step, so the
    /// set replaces the previous run's set whole.
    package static func write(_ files: [(data: Data, path: String)], removing stale: [String] = []) throws {
        try write(files.map { (FileContents.bytes($0.data), $0.path) }, removing: stale)
    }

    /// `write(_:removing:)` for contents that may be streamed into their staged file, or written into its descriptor by
    /// another program, so that nothing opens a destination by name.
    package static func write(_ files: [(contents: FileContents, path: String)], removing stale: [String] = []) throws {
        var staged: [Staged] = []
        var renamed = false
        defer { for s in staged { s.release(renamed: renamed) } }
        for path in files.map(\.path) {
            try Interruption.committing(path) {
                do {
                    try FileManager.default.createDirectory(
                        at: URL(fileURLWithPath: path).deletingLastPathComponent(), withIntermediateDirectories: true)
                } catch {
                    throw ThemeLabError.input("\(path): cannot write (cannot create its folder: \(error.localizedDescription))")
                }
            }
        }
        // Under the folders' locks: a temporary is never seen unlocked by `removeAbandonedTemporaries` while its writer lives.
        try withFolderLocks(files.map(\.path)) { folders in
            for folder in folders { removeAbandonedTemporaries(in: folder) }
            for file in files { staged.append(try Staged(for: file.path)) }
        }
        for (s, file) in zip(staged, files) { try s.fill(with: file.contents) }
        // Another set written into these folders at the same time waits for these renames: a folder never mixes two sets.
        try withFolderLocks(files.map(\.path) + stale) { _ in
            try Interruption.committing(files.first?.path ?? "") {
                for (k, s) in staged.enumerated() where rename(s.temporary, s.path) != 0 {
                    throw ThemeLabError.input(
                        "\(s.path): cannot write (\(String(cString: strerror(errno))))"
                            + (k > 0 ? "; \(staged[..<k].map(\.path).joined(separator: ", ")) already replaced" : ""))
                }
                renamed = true
                for path in stale where !files.contains(where: { $0.path == path }) && unlink(path) != 0 && errno != ENOENT {
                    throw ThemeLabError.input(
                        "\(path): cannot remove the previous run's file (\(String(cString: strerror(errno)))); the new files are in place")
                }
            }
        }
    }

    /// `bytes` written whole to `fd`; a failure names `path`.
    package static func writeAll(_ bytes: UnsafeRawBufferPointer, to fd: Int32, path: String) throws {
        var written = 0
        while written < bytes.count {
            let n = Foundation.write(fd, bytes.baseAddress! + written, bytes.count - written)
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { throw ThemeLabError.input("\(path): cannot write (\(String(cString: strerror(errno))))") }
            written += n
        }
    }

    /// `data` written whole to `fd`; a failure names `path`.
    package static func writeAll(_ data: Data, to fd: Int32, path: String) throws {
        try data.withUnsafeBytes { try writeAll($0, to: fd, path: path) }
    }

    /// `body` with exclusive `flock`s on the folders that hold `paths` (on the folders themselves: no lock file is made),
    /// one per folder however it is named, taken in the order of (device, inode) so that two writers never wait on each
    /// other. Best effort: a folder that cannot be opened or locked (a file system without `flock`) goes unlocked.
    private static func withFolderLocks<T>(_ paths: [String], _ body: ([String]) throws -> T) throws -> T {
        var folders: [(id: [UInt64], fd: Int32, path: String)] = []
        for path in Set(paths.map { URL(fileURLWithPath: $0).deletingLastPathComponent().path }) {
            let fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
            var info = stat()
            guard fd >= 0 else { continue }
            guard fstat(fd, &info) == 0 else {
                close(fd)
                continue
            }
            let id = [UInt64(info.st_dev), UInt64(info.st_ino)]
            if folders.contains(where: { $0.id == id }) { close(fd) } else { folders.append((id, fd, path)) }
        }
        let ordered = folders.sorted { $0.id.lexicographicallyPrecedes($1.id) }
        for folder in ordered { flock(folder.fd, LOCK_EX) }
        defer { for folder in ordered { close(folder.fd) } }
        return try body(ordered.map(\.path))
    }

    /// Removes from `folder` the temporaries of writers that are gone (killed while staging): files named as this type
    /// names them whose lock no process holds. Called under the folder's lock, which a writer holds from creating its
    /// temporary until it has locked it.
    private static func removeAbandonedTemporaries(in folder: String) {
        for name in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        where name.hasPrefix(".") && templateStem(name, infix: temporaryInfix) != nil {
            let fd = open("\(folder)/\(name)", O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
            guard fd >= 0 else { continue }
            var info = stat()
            if fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, flock(fd, LOCK_EX | LOCK_NB) == 0 { unlink("\(folder)/\(name)") }
            close(fd)
        }
    }

    /// What `name` holds before `infix` + six ASCII letters or digits at its end (the part `mkstemp`/`mkdtemp` fill in),
    /// or nil when it does not end so: the shape of the names this module's temporaries and staging folders get.
    package static func templateStem(_ name: String, infix: String) -> Substring? {
        let suffix = name.utf8.suffix(6)
        guard suffix.count == 6, suffix.allSatisfy({ (48...57).contains($0) || (65...90).contains($0) || (97...122).contains($0) })
        else { return nil }
        let rest = name.dropLast(6)
        guard rest.hasSuffix(infix), rest.count > infix.count else { return nil }
        return rest.dropLast(infix.count)
    }

    /// A new temporary beside `path`, open and locked, which an interruption removes until it is released.
    private struct Staged {
        let path: String
        let temporary: String
        let fd: Int32
        let interruption: Int

        init(for path: String) throws {
            let url = URL(fileURLWithPath: path)
            var fd: Int32 = -1
            let temporary = try Interruption.committing(path) {
                fromTemplate(url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent)\(temporaryInfix)").path) {
                    fd = mkstemp($0)
                    return fd >= 0
                }
            }
            guard let temporary else { throw ThemeLabError.input("\(path): cannot write (\(String(cString: strerror(errno))))") }
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            flock(fd, LOCK_EX)
            (self.path, self.temporary, self.fd) = (path, temporary, fd)
            interruption = Interruption.register { unlink(temporary) }
        }

        /// The contents written, synced, readable by all.
        func fill(with contents: FileContents) throws {
            switch contents {
            case .bytes(let data): try AtomicFile.writeAll(data, to: fd, path: path)
            case .stream(let produce):
                let stream = FileStream(fd: fd, path: path)
                try produce(stream)
                try stream.flush()
            case .descriptor(let write): try write(fd)
            }
            guard fsync(fd) == 0, fchmod(fd, 0o644) == 0 else {
                throw ThemeLabError.input("\(path): cannot write (\(String(cString: strerror(errno))))")
            }
        }

        /// Unlocked and closed; removed unless it was renamed into place.
        func release(renamed: Bool) {
            Interruption.remove(interruption)
            if !renamed { unlink(temporary) }
            close(fd)
        }
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

/// What a staged file holds: bytes already made, text written into the staged file piece by piece (`stream`), so a
/// file of gigabytes (an assignments file) is never whole in memory, or what another writer puts into its descriptor.
package enum FileContents {
    case bytes(Data)
    case stream((FileStream) throws -> Void)
    /// Bytes another writer puts straight into the staged file's descriptor (a program's output).
    case descriptor((Int32) throws -> Void)
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

    package func write(_ text: String) throws { try write(bytes: text.utf8) }

    package func write(bytes: some Sequence<UInt8>) throws {
        buffer.append(contentsOf: bytes)
        if buffer.count >= Self.capacity { try flush() }
    }

    /// Writes what the buffer holds.
    func flush() throws {
        try buffer.withUnsafeBytes { try AtomicFile.writeAll($0, to: fd, path: path) }
        buffer.removeAll(keepingCapacity: true)
    }
}

/// The files one run writes: each at most once, checked (two inputs that would give one file name are an error, never an
/// overwrite).
package struct OutputFiles {
    package private(set) var written: [String] = []
    /// The files `add` holds, to write as one set (`AtomicFile.write(held)`).
    package private(set) var held: [(data: Data, path: String)] = []
    private var seen: Set<String> = []

    package init() {}

    /// Writes `text` to `path` atomically, unless this run has written `path` already.
    package mutating func write(_ text: String, to path: String) throws {
        try write(.bytes(Data(text.utf8)), to: path)
    }

    /// Writes `contents` to `path` atomically, unless this run has written `path` already.
    package mutating func write(_ contents: FileContents, to path: String) throws {
        try claim(path)
        try AtomicFile.write([(contents, path)])
        written.append(path)
    }

    /// Holds `text` for `path`, unless this run holds or has written `path` already.
    package mutating func add(_ text: String, to path: String) throws {
        try claim(path)
        held.append((Data(text.utf8), path))
    }

    private mutating func claim(_ path: String) throws {
        guard seen.insert(path).inserted else {
            throw ThemeLabError.input("\(path) would be written twice in one run: two inputs share its name (give one an 'as' name)")
        }
    }
}
