import Foundation

/// A results root (`results/`) that one writer at a time may change, and whose experiment folders
/// are replaced whole: a killed or concurrent run never leaves a folder mixing two runs' files,
/// and files the code no longer writes do not linger.
public final class ResultsRoot {
    public let path: String
    private let lockDescriptor: Int32

    /// Takes the root's lock (`PATH/.lock`, `flock`), or refuses at once if another process holds it.
    public init(path: String) throws {
        self.path = path
        do { try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true) } catch {
            throw ThemeLabError.input("\(path): cannot create the results folder (\(error.localizedDescription))")
        }
        let fd = open("\(path)/.lock", O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o644)
        guard fd >= 0 else { throw ThemeLabError.input("\(path)/.lock: cannot open (\(String(cString: strerror(errno))))") }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
            close(fd)
            throw ThemeLabError.input("\(path): another themelab is writing these results (it holds \(path)/.lock); wait for it or use --results")
        }
        lockDescriptor = fd
        removeLeftovers()
    }

    deinit { close(lockDescriptor) }

    /// Writes `PATH/name/` as a whole: `fill` writes into a fresh hidden sibling folder, which then
    /// replaces the old folder. Until the swap the old folder stays as it was; a failure leaves it so.
    public func replaceFolder(_ name: String, fill: (String) throws -> Void) throws {
        let staging = try AtomicFile.makeTemporaryFolder(in: path, prefix: ".\(name).new-")
        do { try fill(staging) } catch {
            try? FileManager.default.removeItem(atPath: staging)
            throw error
        }
        let final = "\(path)/\(name)"
        var old: String?
        if FileManager.default.fileExists(atPath: final) {
            let retired = try AtomicFile.makeTemporaryFolder(in: path, prefix: ".\(name).old-")
            guard rename(final, retired) == 0 else { throw ThemeLabError.input("\(final): cannot replace (\(String(cString: strerror(errno))))") }
            old = retired
        }
        guard rename(staging, final) == 0 else { throw ThemeLabError.input("\(final): cannot replace (\(String(cString: strerror(errno))))") }
        if let old { try? FileManager.default.removeItem(atPath: old) }
    }

    /// Staging and retired folders a killed run left behind (only ever removed under the lock).
    private func removeLeftovers() {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
        for n in names where n.hasPrefix(".") && (n.contains(".new-") || n.contains(".old-")) {
            try? FileManager.default.removeItem(atPath: "\(path)/\(n)")
        }
    }
}
