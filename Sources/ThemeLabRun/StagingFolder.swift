import Foundation
import ThemeLabCore

/// The hidden folders a results root builds in and sets aside: `.NAME.new-XXXXXX` (staging) and `.NAME.old-XXXXXX`
/// (retired), `mkdtemp`'s six letters or digits at the end, each holding the marker file. Only a real folder with both
/// is ever removed or put back, so a user's `.draft.new-2024/` or `.env.old-1/` is never touched.
enum StagingFolder {
    /// An empty file: creating it needs no data block, so it can be made on a full disk.
    static let marker = ".themelab-staging"

    enum Kind: String, CaseIterable {
        case staging = ".new-"
        case retired = ".old-"
    }

    /// A new marked staging folder for `name` in `parent`.
    static func make(in parent: String, for name: String) throws -> String {
        let staging = try AtomicFile.makeTemporaryFolder(in: parent, prefix: ".\(name)\(Kind.staging.rawValue)")
        do { try mark(staging) } catch {
            rmdir(staging)
            throw error
        }
        return staging
    }

    /// Puts the marker in `folder` (a real folder, never one reached through a link), keeping one already there.
    static func mark(_ folder: String) throws {
        var info = stat()
        guard lstat(folder, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR else { return }
        let fd = open("\(folder)/\(marker)", O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
        guard fd >= 0 else {
            if errno == EEXIST { return }
            throw ThemeLabError.input("\(folder): cannot write (\(String(cString: strerror(errno))))")
        }
        close(fd)
    }

    /// Takes the marker out of `folder`, when it is this module's.
    static func unmark(_ folder: String) {
        if isMarked(folder) { unlink("\(folder)/\(marker)") }
    }

    /// Whether `path` is a real folder (not a link) holding the marker, an empty regular file.
    static func isMarked(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR && lstat("\(path)/\(marker)", &info) == 0
            && (info.st_mode & S_IFMT) == S_IFREG && info.st_size == 0
    }

    /// The name a staging or retired folder stands for, and which it is; nil for any other name.
    static func parse(_ entry: String) -> (name: String, kind: Kind)? {
        guard entry.hasPrefix(".") else { return nil }
        for kind in Kind.allCases {
            if let stem = AtomicFile.templateStem(String(entry.dropFirst()), infix: kind.rawValue) { return (String(stem), kind) }
        }
        return nil
    }

    /// In `parent`, the marked staging and retired folders of runs that were killed (of the entry `named`, or of every
    /// entry), but `keeping`: a retired folder whose entry is missing (killed between the two renames of a swap) is
    /// put back under the name it came from, never over anything; the others are removed. Run under the root's lock.
    static func removeLeftovers(in parent: String, named: String? = nil, keeping: String? = nil) {
        for entry in (try? FileManager.default.contentsOfDirectory(atPath: parent)) ?? [] {
            let path = "\(parent)/\(entry)"
            guard let (name, kind) = parse(entry), named == nil || name == named, path != keeping, isMarked(path) else { continue }
            if kind == .retired, renameNoReplace(path, "\(parent)/\(name)") {
                unmark("\(parent)/\(name)")
                continue
            }
            try? FileManager.default.removeItem(atPath: path)
        }
        if let named { unmark("\(parent)/\(named)") }
    }

    /// `rename(from, to)` unless `to` exists (`renameat2` with RENAME_NOREPLACE where the kernel has it).
    private static func renameNoReplace(_ from: String, _ to: String) -> Bool {
        if let renameAt2, renameAt2(AT_FDCWD, from, AT_FDCWD, to, 1) == 0 { return true }
        guard renameAt2 == nil || errno == EINVAL || errno == ENOSYS else { return false }
        var info = stat()
        return lstat(to, &info) != 0 && rename(from, to) == 0
    }

    typealias RenameAt2 = @convention(c) (Int32, UnsafePointer<CChar>, Int32, UnsafePointer<CChar>, UInt32) -> Int32
    /// glibc's renameat2, which Swift's Glibc module does not declare.
    static let renameAt2: RenameAt2? = dlsym(nil, "renameat2").map { unsafeBitCast($0, to: RenameAt2.self) }
}
