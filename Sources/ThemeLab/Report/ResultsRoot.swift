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
            throw ThemeLabError.input(
                "\(path): another themelab is writing these results (it holds \(path)/.lock); wait for it or use --results")
        }
        lockDescriptor = fd
        removeLeftovers()
    }

    deinit { close(lockDescriptor) }

    /// An experiment's results as `PATH/NAME/`: NAME.json, .csv, .md and plots/, replacing the old folder whole.
    public func write(_ results: AnalysisResults, as name: String) throws {
        try replaceFolder(name) { folder in
            try results.write(folder: folder, stem: name)
            _ = try SVGPlot.writeAll(results, folder: "\(folder)/plots")
        }
    }

    /// Writes `PATH/name/` as a whole: `fill` writes into a fresh hidden sibling folder, which then
    /// replaces the old folder. Until the swap the old folder stays as it was; a failure leaves it so.
    public func replaceFolder(_ name: String, fill: (String) throws -> Void) throws {
        let staging = try AtomicFile.makeTemporaryFolder(in: path, prefix: ".\(name).new-")
        do { try fill(staging) } catch {
            try? FileManager.default.removeItem(atPath: staging)
            throw error
        }
        let final = "\(path)/\(name)"
        // One atomic swap where the kernel offers it (renameat2 RENAME_EXCHANGE, Linux ≥ 3.15);
        // else retire the old folder and rename the new one in, which `removeLeftovers` can undo.
        if FileManager.default.fileExists(atPath: final), let exchange = Self.renameExchange,
            exchange(AT_FDCWD, staging, AT_FDCWD, final, Self.renameExchangeFlag) == 0
        {
            try? FileManager.default.removeItem(atPath: staging)
            return
        }
        var old: String?
        if FileManager.default.fileExists(atPath: final) {
            let retired = try AtomicFile.makeTemporaryFolder(in: path, prefix: ".\(name).old-")
            guard rename(final, retired) == 0 else {
                throw ThemeLabError.input("\(final): cannot replace (\(String(cString: strerror(errno))))")
            }
            old = retired
        }
        guard rename(staging, final) == 0 else {
            throw ThemeLabError.input("\(final): cannot replace (\(String(cString: strerror(errno))))")
        }
        if let old { try? FileManager.default.removeItem(atPath: old) }
    }

    private static let renameExchangeFlag: UInt32 = 2  // RENAME_EXCHANGE in <linux/fs.h>
    private typealias RenameAt2 = @convention(c) (Int32, UnsafePointer<CChar>, Int32, UnsafePointer<CChar>, UInt32) -> Int32
    /// glibc's renameat2, which Swift's Glibc module does not declare.
    private static let renameExchange: RenameAt2? = dlsym(nil, "renameat2").map { unsafeBitCast($0, to: RenameAt2.self) }

    /// Staging and retired folders a killed run left behind (only ever touched under the lock). A
    /// retired folder whose experiment folder is missing (killed between the two renames) is put back.
    private func removeLeftovers() {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
        for n in names where n.hasPrefix(".") && (n.contains(".new-") || n.contains(".old-")) {
            if let r = n.range(of: ".old-"),
                !FileManager.default.fileExists(atPath: "\(path)/\(n[n.index(after: n.startIndex)..<r.lowerBound])")
            {
                _ = rename("\(path)/\(n)", "\(path)/\(n[n.index(after: n.startIndex)..<r.lowerBound])")
                continue
            }
            try? FileManager.default.removeItem(atPath: "\(path)/\(n)")
        }
    }
}
