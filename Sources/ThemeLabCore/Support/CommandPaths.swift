import Foundation

/// Everything one command reads and writes, checked together before any work: the one check that no command writes
/// over what it reads. Refused, naming both paths: an output that is an input (the same path after resolving links, or
/// the same file) or would be inside one (`--out` naming the corpus file) or inside any other file, an input inside a
/// folder the command writes into or replaces, a folder replaced whole that holds another output (gather replacing
/// results/NAME would delete a work folder inside it), and one path given as two outputs.
package struct CommandPaths {
    package enum Role: Sendable {
        /// A file written (atomically).
        case file
        /// A folder files are written into.
        case folder
        /// A folder replaced whole: everything in it before is gone after.
        case replacedFolder
    }

    package let inputs: [String]
    package let outputs: [(path: String, role: Role)]

    package init(reads inputs: [String], writes outputs: [(String, Role)]) {
        self.inputs = inputs
        self.outputs = outputs.map { (path: $0.0, role: $0.1) }
    }

    package func check() throws {
        let ins = inputs.map(Self.canonical)
        let outs = outputs.map { Self.canonical($0.path) }
        for (k, o) in outputs.enumerated() {
            let out = outs[k]
            if let problem = Self.lengthProblem(o.path) { throw ThemeLabError.invalid("output \(o.path) \(problem)") }
            var isFolder: ObjCBool = false
            if o.role == .file, FileManager.default.fileExists(atPath: o.path, isDirectory: &isFolder), isFolder.boolValue {
                throw ThemeLabError.invalid("output \(o.path) is a folder; name a file to write")
            }
            if let twice = outs[..<k].firstIndex(of: out) {
                throw ThemeLabError.invalid("\(o.path) and \(outputs[twice].path) are one output; choose two paths")
            }
            for (input, inp) in zip(inputs, ins) {
                if out == inp || Self.sameFile(o.path, input) {
                    throw ThemeLabError.invalid("output \(o.path) is the input \(input); choose another output path")
                }
                if Self.isInside(out, inp) {
                    throw ThemeLabError.invalid("output \(o.path) would be inside the input \(input), a file; choose another output path")
                }
                if o.role != .file && Self.isInside(inp, out) {
                    throw ThemeLabError.invalid("the input \(input) is inside the output folder \(o.path); keep inputs outside it")
                }
            }
            if let file = Self.fileAbove(out) {
                throw ThemeLabError.invalid("output \(o.path) would be inside \(file), a file; choose another output path")
            }
            // The same path twice is caught above when the later of the two comes round.
            if o.role == .replacedFolder, let inside = outs.indices.first(where: { Self.isInside(outs[$0], out) }) {
                throw ThemeLabError.invalid("\(o.path) is replaced whole, and \(outputs[inside].path) is inside it; choose folders apart")
            }
        }
    }

    /// Why `path` cannot be written, when a name in it is longer than NAME_MAX bytes or the whole longer than PATH_MAX − 1
    /// (the kernel's limits, which fail a write with "File name too long"); nil when it can.
    package static func lengthProblem(_ path: String) -> String? {
        if let name = path.split(separator: "/").first(where: { $0.utf8.count > Int(NAME_MAX) }) {
            return "has a name of \(name.utf8.count) bytes; a file name holds at most \(NAME_MAX) (NAME_MAX)"
        }
        guard path.utf8.count < Int(PATH_MAX) else {
            return "is a path of \(path.utf8.count) bytes; a path holds at most \(Int(PATH_MAX) - 1) (PATH_MAX)"
        }
        return nil
    }

    /// The nearest existing ancestor of `path` (canonical) when it is not a folder: nothing can be written below it.
    package static func fileAbove(_ path: String) -> String? {
        let (ancestor, _) = nearestExisting(URL(fileURLWithPath: path).deletingLastPathComponent())
        var isFolder: ObjCBool = false
        return FileManager.default.fileExists(atPath: ancestor.path, isDirectory: &isFolder) && !isFolder.boolValue ? ancestor.path : nil
    }

    /// `url` or its nearest ancestor that exists (at worst "/"), and the path components below it, in order.
    private static func nearestExisting(_ url: URL) -> (existing: URL, rest: [String]) {
        var existing = url
        var rest: [String] = []
        while !FileManager.default.fileExists(atPath: existing.path) && existing.path != "/" {
            rest.insert(existing.lastPathComponent, at: 0)
            existing.deleteLastPathComponent()
        }
        return (existing, rest)
    }

    package static func isInside(_ path: String, _ folder: String) -> Bool { path.hasPrefix(folder == "/" ? "/" : folder + "/") }

    package static func sameFile(_ a: String, _ b: String) -> Bool {
        var x = stat()
        var y = stat()
        return stat(a, &x) == 0 && stat(b, &y) == 0 && x.st_dev == y.st_dev && x.st_ino == y.st_ino
    }

    /// `path` absolute, without `.`/`..`, and with the links of its longest existing ancestor resolved (an output
    /// need not exist yet).
    package static func canonical(_ path: String) -> String {
        let (existing, rest) = nearestExisting(URL(fileURLWithPath: path).standardizedFileURL)
        let resolved =
            realpath(existing.path, nil).map { p in
                defer { free(p) }
                return String(cString: p)
            } ?? existing.path
        return rest.reduce(URL(fileURLWithPath: resolved)) { $0.appendingPathComponent($1) }.path
    }
}
