import CKernels
import Foundation

/// The code a process runs, as one SHA-256: of the executable and every shared library the loader has loaded (Swift's
/// runtime, Foundation, OpenBLAS, LAPACKE, glibc's libm: each can move the last bits of a result), listed by
/// `tl_loaded_objects` (glibc's `dl_iterate_phdr`). A rebuilt binary or an upgraded library gives another identity.
/// Each file's hash comes through `FileHashCache`, so an unchanged file is not read again.
package enum CodeIdentity {
    /// The executable and the loaded libraries, sorted; nil when the executable was replaced on disk since it started
    /// (its bytes are no longer the code that runs).
    package static func files() -> [String]? {
        guard let executable = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"),
            !executable.hasSuffix(" (deleted)")
        else { return nil }
        var names: [String] = []
        withUnsafeMutablePointer(to: &names) { list in
            tl_loaded_objects({ path, list in list?.assumingMemoryBound(to: [String].self).pointee.append(String(cString: path!)) }, list)
        }
        let libraries = names.map { URL(fileURLWithPath: $0).resolvingSymlinksInPath().path }
        return Array(Set([executable] + libraries)).sorted()
    }

    /// The SHA-256 of the list of `files()` with each one's SHA-256; nil where `files()` is nil or a file cannot be read.
    package static func hex(cacheFolder: String) -> String? {
        guard let files = files() else { return nil }
        var lines: [String] = []
        for file in files {
            guard let hash = try? FileHashCache.hex(file: file, cacheFolder: cacheFolder) else { return nil }
            lines.append("\(hash) \(file)")
        }
        return SHA256.hex(Data(lines.joined(separator: "\n").utf8))
    }
}
