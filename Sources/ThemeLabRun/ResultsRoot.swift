import Foundation
import ThemeLabCore
import ThemeLabCorpus
import ThemeLabEncoder
import ThemeLabMeasures
import ThemeLabMethods
import ThemeLabPairs
import ThemeLabReport
import ThemeLabStudy

/// A results root (`results/`) that one writer at a time may change, and whose experiment folders
/// are replaced whole: a killed or concurrent run never leaves a folder mixing two runs' files,
/// and files the code no longer writes do not linger.
package final class ResultsRoot {
    package let path: String
    private let lock: FileLock
    /// Whether this run made the folder: a run that wrote nothing into it takes it away again (`deinit`).
    private let made: Bool
    /// The clean-up an interruption runs while this root is held (`Interruption`).
    private let interruption: Int

    /// Takes the root's lock (`PATH/.lock`, `flock`), or refuses at once if another process holds it.
    package init(path: String) throws {
        self.path = path
        let made = !FileManager.default.fileExists(atPath: path)
        self.made = made
        do { try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true) } catch {
            throw ThemeLabError.input("\(path): cannot create the results folder (\(error.localizedDescription))")
        }
        guard let lock = try FileLock(path: "\(path)/.lock", wait: false) else {
            throw ThemeLabError.input(
                "\(path): another themelab is writing these results (it holds \(path)/.lock); wait for it or use --out")
        }
        self.lock = lock
        interruption = Interruption.register { Self.removeIfEmpty(path, made: made) }
    }

    deinit {
        Interruption.remove(interruption)
        Self.removeIfEmpty(path, made: made)
    }

    /// A folder this run made and left holding only its lock (the run failed or was interrupted before writing) is
    /// removed, lock and all.
    private static func removeIfEmpty(_ path: String, made: Bool) {
        guard made, (try? FileManager.default.contentsOfDirectory(atPath: path)) == [".lock"] else { return }
        unlink("\(path)/.lock")
        rmdir(path)
    }

    /// An experiment's results as `PATH/NAME/`: NAME.json, .csv, .md, plots/ and, when the experiment asks,
    /// assignments/CORPUS-SOURCE.{jsonl,csv}, replacing the old folder whole.
    package func write(_ results: AnalysisResults, as name: String) throws {
        let files = files(of: name, settings: results.settings)
        for a in results.analyses {
            for path in files(a.corpus.name, a.source, a.spaces.map(\.space.description)) {
                guard let problem = CommandPaths.lengthProblem(path) else { continue }
                throw ThemeLabError.input(
                    "corpus '\(a.corpus.name)' would write \(path), which \(problem): give the corpus a shorter \"as\" name")
            }
        }
        try replaceFolder(name) { folder in
            try results.write(folder: folder, stem: name)
            _ = try SVGPlot.writeAll(results, folder: "\(folder)/plots")
            if results.settings.assignments == true { try AssignmentsReport.writeAll(results, folder: "\(folder)/assignments") }
            if results.settings.html == true {
                try AtomicFile.write(Data(try ExplorerPage.html(results).utf8), to: ExplorerPage.file(folder: folder, stem: name))
            }
        }
    }

    /// Every file `write(_:as:)` may name after one analysis (corpus name, vector source, spaces) in `PATH/name/`: its
    /// plots and, when `settings` ask for them, its assignment files (the results files take the experiment's name, which
    /// is bounded as it is read). For the length check before any work (`RunEnvironment.outputFiles`).
    package func files(of name: String, settings: AnalysisSettings) -> (String, String, [String]) -> [String] {
        let folder = "\(path)/\(name)"
        return { corpus, source, spaces in
            let assignments = AssignmentsReport.stem(folder: "\(folder)/assignments", corpus: corpus, source: source)
            return spaces.flatMap { SVGPlot.files(folder: "\(folder)/plots", corpus: corpus, source: source, space: $0) }
                + (settings.assignments == true ? [assignments + ".jsonl", assignments + ".csv"] : [])
        }
    }

    /// Before any work, that `PATH/name` may be replaced: it holds none of `inputs` (`CommandPaths`) and is a results
    /// folder or nothing (`refuseForeign`).
    package func prepare(_ name: String, reading inputs: [String]) throws {
        try CommandPaths(reads: inputs, writes: [("\(path)/\(name)", .replacedFolder)]).check()
        try refuseForeign(name)
    }

    /// Refuses, before any work, a `PATH/name` that exists and is not a results folder (a file, or a folder holding
    /// files but no `name.json`): replacing it would delete what the harness did not write.
    package func refuseForeign(_ name: String) throws { try Self.refuseForeign("\(path)/\(name)") }

    package static func refuseForeign(_ final: String) throws {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: final, isDirectory: &isFolder) else { return }
        guard isFolder.boolValue else {
            throw ThemeLabError.input("\(final) is a file, not a results folder: move it away or choose another --out")
        }
        let name = URL(fileURLWithPath: final).lastPathComponent
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: final)) ?? []
        guard entries.isEmpty || entries.contains("\(name).json") else {
            throw ThemeLabError.input(
                "\(final) holds files themelab did not write (no \(name).json): move them away or choose another --out")
        }
    }

    /// Writes `PATH/name/` as a whole: `fill` writes into a fresh hidden sibling folder (`StagingFolder`), which then
    /// replaces the old folder. Until the swap the old folder stays as it was; a failure leaves it so. Only then, after
    /// the checks and the work, are the marked leftovers of killed runs cleared from the root.
    package func replaceFolder(_ name: String, fill: (String) throws -> Void) throws {
        try refuseForeign(name)
        let path = self.path
        let staging = try StagingFolder.make(in: path, for: name)
        let interrupted = Interruption.register { StagingFolder.removeLeftovers(in: path, named: name) }
        defer { Interruption.remove(interrupted) }
        try Self.finish(staging, as: "\(path)/\(name)") {
            try fill(staging)
            StagingFolder.removeLeftovers(in: path, keeping: staging)
            try Self.swap(staging, into: "\(path)/\(name)", retiringIn: path)
        }
    }

    /// `reproduce`: the whole root replaced at once. `fill` writes into a staging root, a hidden sibling that starts
    /// as a copy of this one (so experiments not re-run and bench/ stay), which then takes this root's place in one
    /// exchange. A root that is a link is followed: the folder it names is replaced, the link stays. A killed run
    /// leaves this root exactly as it was, and a sibling that the next run removes. A root that someone else changed
    /// during the run (a note edited, a file added) is left as it is, and the new one kept beside it (`keep`).
    package func replaceWhole(_ fill: (ResultsRoot) throws -> Void) throws {
        let final = CommandPaths.canonical(path)
        let (parent, name) = ((final as NSString).deletingLastPathComponent, (final as NSString).lastPathComponent)
        let staging = try StagingFolder.make(in: parent, for: name)
        let interrupted = Interruption.register { StagingFolder.removeLeftovers(in: parent, named: name) }
        defer { Interruption.remove(interrupted) }
        let before = TreeState(final)
        try Self.finish(staging, as: final) {
            for entry in try FileManager.default.contentsOfDirectory(atPath: final) where ![".lock", StagingFolder.marker].contains(entry) {
                try FileManager.default.copyItem(atPath: "\(final)/\(entry)", toPath: "\(staging)/\(entry)")
            }
            StagingFolder.removeLeftovers(in: staging)
            try fill(try ResultsRoot(path: staging))
            StagingFolder.removeLeftovers(in: parent, named: name, keeping: staging)
            if let change = before.firstChange(TreeState(final)) { try Self.keep(staging, beside: final, changed: change) }
            try Self.swap(staging, into: final, retiringIn: parent)
        }
    }

    /// `body`, after which `staging` is gone: swapped into `final`'s place, or removed when `body` fails, whose error
    /// then names the path in `final` that failed (the staging folder is gone).
    private static func finish(_ staging: String, as final: String, _ body: () throws -> Void) throws {
        do { try body() } catch {
            var info = stat()
            if StagingFolder.isMarked(staging) || lstat(staging, &info) != 0 || (info.st_mode & S_IFMT) != S_IFDIR {
                try? FileManager.default.removeItem(atPath: staging)
            }
            guard case .input(let message) = error as? ThemeLabError else { throw error }
            throw ThemeLabError.input(message.replacingOccurrences(of: staging + "/", with: final + "/"))
        }
    }

    /// Refuses to replace `final`, which someone changed during the run (`change`, a path below it): the new root is
    /// moved to a visible sibling, FINAL-new-XXXXXX, unmarked so that no run removes it, and the error names both.
    private static func keep(_ staging: String, beside final: String, changed change: String) throws -> Never {
        unlink("\(staging)/.lock")
        StagingFolder.unmark(staging)
        let parent = (final as NSString).deletingLastPathComponent
        var kept = staging
        if let visible = try? AtomicFile.makeTemporaryFolder(in: parent, prefix: "\((final as NSString).lastPathComponent)-new-") {
            if rename(staging, visible) == 0 { kept = visible } else { rmdir(visible) }
        }
        throw ThemeLabError.input(
            "\(final) changed during the run (\(change.isEmpty ? final : "\(final)/\(change)")), so it was left as it is; "
                + "the new results are in \(kept)")
    }

    /// Puts the filled folder `staging` in the place of `final`. One atomic swap where the kernel offers it (renameat2
    /// RENAME_EXCHANGE, Linux ≥ 3.15); else the old folder is retired and the new one renamed in, which
    /// `StagingFolder.removeLeftovers` can undo. The old folder is marked first, so that wherever a kill leaves it, it is
    /// a marked leftover. The new folder gets the mode a folder made by the user gets (0777 less the umask).
    private static func swap(_ staging: String, into final: String, retiringIn parent: String) throws {
        let mask = umask(0o022)
        umask(mask)
        chmod(staging, 0o777 & ~mask)
        var info = stat()
        let exists = lstat(final, &info) == 0
        if exists { try StagingFolder.mark(final) }
        // Old or new, whichever is in place at the end holds no marker.
        defer { StagingFolder.unmark(final) }
        let exchanged = try Interruption.committing(final) {
            exists && StagingFolder.renameAt2.map { $0(AT_FDCWD, staging, AT_FDCWD, final, Self.renameExchangeFlag) == 0 } == true
        }
        if exchanged {
            try? FileManager.default.removeItem(atPath: staging)
        } else {
            try retire(final, exists: exists, for: staging, in: parent)
        }
    }

    /// Without an exchange: `final` (when it `exists`) renamed to a retired folder, `staging` renamed in, the retired
    /// folder removed. A failed second rename puts the old folder back.
    private static func retire(_ final: String, exists: Bool, for staging: String, in parent: String) throws {
        let name = (final as NSString).lastPathComponent
        let retired =
            exists ? try AtomicFile.makeTemporaryFolder(in: parent, prefix: ".\(name)\(StagingFolder.Kind.retired.rawValue)") : nil
        try Interruption.committing(final) {
            func failure() -> ThemeLabError { .input("\(final): cannot replace (\(String(cString: strerror(errno))))") }
            if let retired, rename(final, retired) != 0 {
                rmdir(retired)
                throw failure()
            }
            guard rename(staging, final) == 0 else {
                let error = failure()
                if let retired { rename(retired, final) }
                throw error
            }
        }
        if let retired { try? FileManager.default.removeItem(atPath: retired) }
    }

    private static let renameExchangeFlag: UInt32 = 2  // RENAME_EXCHANGE in <linux/fs.h>
}

/// What a folder holds, as `lstat` sees each entry below it (type and mode, inode, size, modification and change
/// times; a folder's own times left out, as any entry moves them), but the root's lock and marker: to tell whether
/// anyone changed it while a run worked on a copy.
private struct TreeState {
    private var entries: [String: String] = [:]

    init(_ root: String) {
        var info = stat()
        if lstat(root, &info) == 0 { entries[""] = "\(info.st_dev) \(info.st_ino)" }
        walk(root, prefix: "")
    }

    private mutating func walk(_ folder: String, prefix: String) {
        for name in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        where !prefix.isEmpty || ![".lock", StagingFolder.marker].contains(name) {
            var s = stat()
            guard lstat("\(folder)/\(name)", &s) == 0 else { continue }
            let isFolder = (s.st_mode & S_IFMT) == S_IFDIR
            entries[prefix + name] =
                isFolder
                ? "folder \(s.st_ino)"
                : "\(s.st_mode) \(s.st_ino) \(s.st_size) \(s.st_mtim.tv_sec).\(s.st_mtim.tv_nsec) \(s.st_ctim.tv_sec).\(s.st_ctim.tv_nsec)"
            if isFolder { walk("\(folder)/\(name)", prefix: prefix + name + "/") }
        }
    }

    /// The first path (in sorted order; "" for the root itself) whose state differs in `other`, or nil.
    func firstChange(_ other: TreeState) -> String? {
        Set(entries.keys).union(other.entries.keys).sorted().first { entries[$0] != other.entries[$0] }
    }
}
