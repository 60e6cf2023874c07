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
        var staged: [(temporary: String, path: String, interruption: Int)] = []
        var renamed = false
        defer {
            for s in staged {
                Interruption.remove(s.interruption)
                if !renamed { unlink(s.temporary) }
            }
        }
        for (data, path) in files {
            let (temporary, key) = try stage(data, for: path)
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

    /// The bytes in a new synced temporary file beside `path`, which an interruption removes until the key is removed.
    private static func stage(_ data: Data, for path: String) throws -> (temporary: String, interruption: Int) {
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
        var written = 0
        let ok = data.withUnsafeBytes { bytes -> Bool in
            while written < bytes.count {
                let n = Foundation.write(fd, bytes.baseAddress! + written, bytes.count - written)
                if n <= 0 { return false }
                written += n
            }
            return fsync(fd) == 0
        }
        let reason = String(cString: strerror(errno))
        close(fd)
        guard ok, chmod(temporary, 0o644) == 0 else {
            let why = ok ? String(cString: strerror(errno)) : reason
            unlink(temporary)
            Interruption.remove(key)
            throw failure(why)
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

/// The files one run writes: each at most once, checked (two inputs that would give one file name are an error, never an
/// overwrite).
package struct OutputFiles {
    package private(set) var written: [String] = []
    private var seen: Set<String> = []

    package init() {}

    /// Writes `text` to `path` atomically, unless this run has written `path` already.
    package mutating func write(_ text: String, to path: String) throws {
        guard seen.insert(path).inserted else {
            throw ThemeLabError.input("\(path) would be written twice in one run: two inputs share its name (give one an 'as' name)")
        }
        try AtomicFile.write(text, to: path)
        written.append(path)
    }
}
