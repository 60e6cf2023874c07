import Foundation

/// The on-disk states (`FileHashCache.identity`: inode, size, times) of the files an operation reads, taken before it
/// reads them. `verify`, called once it has read and hashed them, refuses a file that changed meanwhile, naming it, so a
/// recorded checksum always names the bytes that were read (ctime moves on any write, even one restored afterwards).
package struct FileSnapshot: Sendable {
    package let states: [(path: String, state: String)]

    /// A missing file's state is "absent" (it must stay absent).
    package init(_ paths: [String]) throws {
        states = try paths.map { ($0, try Self.state($0)) }
    }

    package static func state(_ path: String) throws -> String {
        FileManager.default.fileExists(atPath: path) ? try FileHashCache.identity(path) : "absent"
    }

    package func verify() throws {
        for (path, state) in states where (try? Self.state(path)) != state {
            throw ThemeLabError.input("\(path): changed while being read; run again when nothing writes it")
        }
    }
}
