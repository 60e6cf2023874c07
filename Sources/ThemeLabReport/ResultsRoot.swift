import Foundation
import ThemeLabCore
import ThemeLabCorpus
import ThemeLabEncoder
import ThemeLabMeasures
import ThemeLabMethods
import ThemeLabPairs
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
        interruption = Interruption.register {
            Self.removeLeftovers(in: path)
            Self.removeIfEmpty(path, made: made)
        }
        removeLeftovers()
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

    /// Writes `PATH/name/` as a whole: `fill` writes into a fresh hidden sibling folder, which then
    /// replaces the old folder. Until the swap the old folder stays as it was; a failure leaves it so.
    package func replaceFolder(_ name: String, fill: (String) throws -> Void) throws {
        try refuseForeign(name)
        let staging = try AtomicFile.makeTemporaryFolder(in: path, prefix: ".\(name).new-")
        do { try fill(staging) } catch {
            try? FileManager.default.removeItem(atPath: staging)
            throw error
        }
        try Self.swap(staging, into: "\(path)/\(name)", retiringIn: path)
    }

    /// `reproduce`: the whole root replaced at once. `fill` writes into a staging root, a hidden sibling that starts
    /// as a copy of this one (so experiments not re-run and bench/ stay), which then takes this root's place in one
    /// exchange. A killed run leaves this root exactly as it was, and a sibling that the next run removes.
    package func replaceWhole(_ fill: (ResultsRoot) throws -> Void) throws {
        let url = URL(fileURLWithPath: path).standardizedFileURL
        let (parent, name) = (url.deletingLastPathComponent().path, url.lastPathComponent)
        Self.removeLeftovers(in: parent, named: name)
        let interrupted = Interruption.register { Self.removeLeftovers(in: parent, named: name) }
        defer { Interruption.remove(interrupted) }
        let staging = try AtomicFile.makeTemporaryFolder(in: parent, prefix: ".\(name).new-")
        do {
            for entry in try FileManager.default.contentsOfDirectory(atPath: path) where entry != ".lock" {
                try FileManager.default.copyItem(atPath: "\(path)/\(entry)", toPath: "\(staging)/\(entry)")
            }
            try fill(try ResultsRoot(path: staging))
        } catch {
            try? FileManager.default.removeItem(atPath: staging)
            throw error
        }
        try Self.swap(staging, into: path, retiringIn: parent)
    }

    /// Puts the filled folder `staging` in the place of `final`. One atomic swap where the kernel offers it (renameat2
    /// RENAME_EXCHANGE, Linux ≥ 3.15); else the old folder is retired and the new one renamed in, which
    /// `removeLeftovers` can undo. The new folder gets the mode a folder made by the user gets (0777 less the umask).
    package static func swap(_ staging: String, into final: String, retiringIn parent: String) throws {
        let mask = umask(0o022)
        umask(mask)
        chmod(staging, 0o777 & ~mask)
        let exists = FileManager.default.fileExists(atPath: final)
        let exchanged = try Interruption.committing(final) {
            exists && Self.renameExchange.map { $0(AT_FDCWD, staging, AT_FDCWD, final, Self.renameExchangeFlag) == 0 } == true
        }
        if exchanged {
            try? FileManager.default.removeItem(atPath: staging)
            return
        }
        let name = URL(fileURLWithPath: final).lastPathComponent
        let retired = exists ? try AtomicFile.makeTemporaryFolder(in: parent, prefix: ".\(name).old-") : nil
        try Interruption.committing(final) {
            func failure() -> ThemeLabError { .input("\(final): cannot replace (\(String(cString: strerror(errno))))") }
            if let retired, rename(final, retired) != 0 { throw failure() }
            guard rename(staging, final) == 0 else { throw failure() }
        }
        if let retired { try? FileManager.default.removeItem(atPath: retired) }
    }

    private static let renameExchangeFlag: UInt32 = 2  // RENAME_EXCHANGE in <linux/fs.h>
    private typealias RenameAt2 = @convention(c) (Int32, UnsafePointer<CChar>, Int32, UnsafePointer<CChar>, UInt32) -> Int32
    /// glibc's renameat2, which Swift's Glibc module does not declare.
    private static let renameExchange: RenameAt2? = dlsym(nil, "renameat2").map { unsafeBitCast($0, to: RenameAt2.self) }

    /// Staging and retired folders a killed run left behind (only ever touched under the lock). A
    /// retired folder whose experiment folder is missing (killed between the two renames) is put back.
    private func removeLeftovers() { Self.removeLeftovers(in: path) }

    /// In `path`, the staging and retired folders of a killed run (of the entry `named`, or of every entry).
    package static func removeLeftovers(in path: String, named: String? = nil) {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
        func leftover(_ n: String) -> Bool {
            named.map { n.hasPrefix(".\($0).new-") || n.hasPrefix(".\($0).old-") }
                ?? (n.hasPrefix(".") && (n.contains(".new-") || n.contains(".old-")))
        }
        for n in names where leftover(n) {
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
