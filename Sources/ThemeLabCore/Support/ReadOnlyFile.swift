import Foundation

/// A file opened for reading by position (`pread`), shared by threads. Reading instead of mapping means a file that
/// shrinks while it is read is a short read — an error naming the file — where a mapped page past the new end would
/// kill the process with SIGBUS.
package final class ReadOnlyFile: Sendable {
    package let path: String
    /// The size when opened.
    package let size: Int
    package let descriptor: Int32

    /// Refuses at once, naming `path`, what is not a regular file: a FIFO (opened without waiting for a writer), a device
    /// such as /dev/zero, a folder.
    package init(path: String) throws {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { throw ThemeLabError.input("\(path): cannot read file (\(String(cString: strerror(errno))))") }
        var s = stat()
        guard fstat(fd, &s) == 0, (s.st_mode & S_IFMT) == S_IFREG else {
            close(fd)
            throw ThemeLabError.input("\(path): not a regular file")
        }
        (self.path, size, descriptor) = (path, Int(s.st_size), fd)
    }

    deinit { close(descriptor) }

    /// The whole regular file at `path`, refused (naming it) past `limit` bytes; `what` says what the file is.
    package static func contents(of path: String, limit: Int, what: String) throws -> Data {
        let file = try ReadOnlyFile(path: path)
        guard file.size <= limit else { throw ThemeLabError.input("\(path): \(file.size) bytes, more than \(what) may hold (\(limit))") }
        return Data(try file.bytes(at: 0, count: file.size))
    }

    /// Exactly `buffer.count` bytes from `offset`; a file that ends sooner is refused naming it.
    package func read(into buffer: UnsafeMutableRawBufferPointer, at offset: Int) throws {
        var done = 0
        while done < buffer.count {
            let n = pread(descriptor, buffer.baseAddress! + done, buffer.count - done, off_t(offset + done))
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else {
                let why = n < 0 ? String(cString: strerror(errno)) : "it ends at byte \(offset + done)"
                throw ThemeLabError.input(
                    "\(path): cannot read bytes \(offset)..<\(offset + buffer.count) (\(why)); was it changed while being read?")
            }
            done += n
        }
    }

    /// `count` bytes from `offset`.
    package func bytes(at offset: Int, count: Int) throws -> [UInt8] {
        var out = [UInt8](repeating: 0, count: count)
        try out.withUnsafeMutableBytes { try read(into: $0, at: offset) }
        return out
    }
}
