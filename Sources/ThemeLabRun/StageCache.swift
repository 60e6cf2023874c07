import Foundation
import ThemeLabCore

/// `reproduce`'s stage results kept between runs, in CACHE/stages/: a stage whose key is the same as when a run stored
/// it is copied from that run, not computed again. The key is the SHA-256 of all a stage's bytes depend on: the code
/// (`CodeIdentity`: the executable and its libraries), the run's provenance less time and command (version, BLAS
/// kernel and threads, CPU and its features), every THEMELAB_, OPENBLAS_, OMP_ and GOTO_ variable, the data folder, the
/// replicate count, and the SHA-256 of every file the stage reads. The copied files are the storing run's, its createdAt
/// and command line included. An entry lists its files' hashes, checked on each read; one that does not match is
/// removed and the stage computed. One entry is kept per stage name.
package struct StageCache {
    private let folder: String
    private let cacheFolder: String
    private let base: [String]

    /// Nil where the code's identity is unknown (no /proc/self/maps, a binary replaced since it started): every stage is
    /// computed then.
    package init?(cacheFolder: String, dataDirectory: String?, replicates: Int?) {
        guard let code = CodeIdentity.hex(cacheFolder: cacheFolder),
            let provenance = try? JSONOutput.encode(
                Provenance.current(command: [], inputs: [:], createdAt: Date(timeIntervalSince1970: 0)))
        else { return nil }
        let variables = ProcessInfo.processInfo.environment.filter { name, _ in
            name != "THEMELAB_CACHE" && ["THEMELAB_", "OPENBLAS_", "OMP_", "GOTO_"].contains { name.hasPrefix($0) }
        }
        self.folder = "\(cacheFolder)/stages"
        self.cacheFolder = cacheFolder
        self.base =
            ["themelab stage cache 1", "code \(code)", "provenance \(String(decoding: provenance, as: UTF8.self))"]
            + variables.sorted { $0.key < $1.key }.map { "variable \($0.key)=\($0.value)" }
            + ["data-dir \(dataDirectory ?? "-")", "replicates \(replicates.map(String.init) ?? "-")"]
    }

    /// The key of stage `name` reading `files`, and of the stages whose keys are `after` (fragility re-runs them).
    package func key(_ name: String, reading files: [String], after earlier: [String] = []) throws -> String {
        let hashes = try files.map { "file \(try FileHashCache.hex(file: $0, cacheFolder: cacheFolder)) \($0)" }
        return SHA256.hex(Data((base + ["stage \(name)"] + hashes + earlier.map { "after \($0)" }).joined(separator: "\n").utf8))
    }

    /// The files stored for `name` under `key` (path within the stage → bytes); nil when there is no such entry or it
    /// does not match its list of hashes, holds a file the list leaves out or lists a path outside the stage's folder
    /// (it is removed then).
    package func restore(_ name: String, key: String) -> [String: Data]? {
        let entry = entryPath(name, key)
        guard let list = try? String(contentsOfFile: "\(entry)/\(Self.listName)", encoding: .utf8) else { return nil }
        let lines = list.split(separator: "\n").map { $0.split(separator: " ", maxSplits: 1) }
        var files: [String: Data] = [:]
        // The list names each file under files/ once, byte for byte (so nothing outside it, nothing left out of a cut
        // list); then each file's hash.
        guard lines.allSatisfy({ $0.count == 2 }), let stored = try? Self.paths(in: "\(entry)/files"), stored.count == lines.count,
            Set(stored.map { Array($0.utf8) }) == Set(lines.map { Array($0[1].utf8) })
        else { return remove(entry) }
        for fields in lines {
            guard let data = FileManager.default.contents(atPath: "\(entry)/files/\(fields[1])"), SHA256.hex(data) == fields[0] else {
                return remove(entry)
            }
            files[String(fields[1])] = data
        }
        return files
    }

    /// Whether an entry for `name` under `key` is stored (whether it checks is known only when it is read).
    package func has(_ name: String, key: String) -> Bool {
        FileManager.default.fileExists(atPath: "\(entryPath(name, key))/\(Self.listName)")
    }

    private func remove(_ entry: String) -> [String: Data]? {
        try? FileManager.default.removeItem(atPath: entry)
        return nil
    }

    /// Stores `files` for `name` under `key`, with the `seconds` computing them took (written whole, then renamed into
    /// place: a killed run leaves no entry), and removes the stage's other entries. A cache that cannot be written only
    /// costs the next run the stage's time.
    package func store(_ name: String, key: String, files: [String: Data], seconds: Double) {
        guard (try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)) != nil,
            let staging = try? AtomicFile.makeTemporaryFolder(in: folder, prefix: ".new-")
        else { return }
        do {
            try Self.write(files, into: "\(staging)/files")
            let list = files.keys.sorted().map { "\(SHA256.hex(files[$0]!)) \($0)" }.joined(separator: "\n") + "\n"
            try AtomicFile.write(list, to: "\(staging)/\(Self.listName)")
            try AtomicFile.write("\(seconds)\n", to: "\(staging)/\(Self.secondsName)")
            try? FileManager.default.removeItem(atPath: entryPath(name, key))
            guard rename(staging, entryPath(name, key)) == 0 else { throw ThemeLabError.input("rename") }
        } catch {
            try? FileManager.default.removeItem(atPath: staging)
            return
        }
        removeOtherEntries(of: name, keeping: key)
    }

    /// The seconds the stored run of stage `name` took to compute it (whatever its key: the basis of a run's estimate
    /// of the time left, where kept stages take none); nil when none is stored.
    package func seconds(of name: String) -> Double? {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        guard let entry = entries.first(where: { isEntry($0, of: name) }),
            let text = try? String(contentsOfFile: "\(folder)/\(entry)/\(Self.secondsName)", encoding: .utf8),
            let seconds = Double(text.trimmingCharacters(in: .whitespacesAndNewlines)), seconds.isFinite, seconds >= 0
        else { return nil }
        return seconds
    }

    /// The files under `folder`, by path within it.
    package static func files(in folder: String) throws -> [String: Data] {
        try Dictionary(uniqueKeysWithValues: paths(in: folder).map { ($0, try Data(contentsOf: URL(fileURLWithPath: "\(folder)/\($0)"))) })
    }

    /// What is under `folder` but folders (files, links, pipes), by path within it; nothing is read.
    private static func paths(in folder: String) throws -> [String] {
        try FileManager.default.subpathsOfDirectory(atPath: folder).filter { path in
            var isFolder: ObjCBool = false
            return !(FileManager.default.fileExists(atPath: "\(folder)/\(path)", isDirectory: &isFolder) && isFolder.boolValue)
        }
    }

    /// Writes `files` (`files(in:)`) into `folder`.
    package static func write(_ files: [String: Data], into folder: String) throws {
        for (path, data) in files {
            let target = URL(fileURLWithPath: "\(folder)/\(path)")
            try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
            try data.write(to: target)
        }
    }

    private static let listName = "files.sha256"
    private static let secondsName = "seconds.txt"

    private func entryPath(_ name: String, _ key: String) -> String { "\(folder)/\(name)-\(key.prefix(32))" }

    /// Whether `entry` (a name in the stages folder) is an entry of stage `name`: NAME-, then 32 hexadecimal digits.
    private func isEntry(_ entry: String, of name: String) -> Bool {
        let suffix = entry.dropFirst(name.count + 1)
        return entry.hasPrefix(name + "-") && suffix.count == 32 && suffix.allSatisfy(\.isHexDigit)
    }

    /// Removes the entries of stage `name` other than `key`'s, and staging folders a killed run left a day or more ago.
    private func removeOtherEntries(of name: String, keeping key: String) {
        let keep = URL(fileURLWithPath: entryPath(name, key)).lastPathComponent
        for entry in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [] where entry != keep {
            let path = "\(folder)/\(entry)"
            let isThisStages = isEntry(entry, of: name)
            let age = (try? FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as? Date).map { -$0.timeIntervalSinceNow }
            if isThisStages || (entry.hasPrefix(".new-") && (age ?? 0) > 86_400) { try? FileManager.default.removeItem(atPath: path) }
        }
    }
}
