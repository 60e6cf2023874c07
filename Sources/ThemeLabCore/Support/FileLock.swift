import Foundation

/// An exclusive `flock` on a lock file (created if missing, never opened through a symbolic link), held until this
/// value is released; a killed process releases it with its descriptor.
package final class FileLock {
    private let descriptor: Int32

    /// Takes the lock on `path`: waiting for another holder when `wait`, else nil at once while another process holds it.
    package init?(path: String, wait: Bool) throws {
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o644)
        guard fd >= 0 else { throw ThemeLabError.input("\(path): cannot open (\(String(cString: strerror(errno))))") }
        guard flock(fd, wait ? LOCK_EX : LOCK_EX | LOCK_NB) == 0 else {
            let reason = String(cString: strerror(errno))
            close(fd)
            if !wait { return nil }
            throw ThemeLabError.input("\(path): cannot lock (\(reason))")
        }
        descriptor = fd
    }

    deinit { close(descriptor) }
}
