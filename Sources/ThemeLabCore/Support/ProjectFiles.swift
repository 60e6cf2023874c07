import Foundation

/// Files that ship with the project (Datasets/, the bootstrap model), found by walking up from
/// the working directory and from the executable, so commands work from any folder of a checkout.
package enum ProjectFiles {
    package static func locate(_ relativePath: String) -> String? {
        let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
        for start in [URL(fileURLWithPath: FileManager.default.currentDirectoryPath), executable] {
            var folder = start.standardizedFileURL
            while true {
                let candidate = folder.appendingPathComponent(relativePath).path
                if FileManager.default.fileExists(atPath: candidate) { return candidate }
                let parent = folder.deletingLastPathComponent()
                if parent.path == folder.path { break }
                folder = parent
            }
        }
        return nil
    }

    /// `path` relative to the checkout that holds `Package.swift` when it lies inside it, else as given: results
    /// name their inputs the same way wherever the repository is cloned.
    package static func display(_ path: String) -> String {
        let absolute = URL(fileURLWithPath: path).standardizedFileURL.path
        guard let package = locate("Package.swift") else { return path }
        let root = URL(fileURLWithPath: package).deletingLastPathComponent().standardizedFileURL.path + "/"
        return absolute.hasPrefix(root) ? String(absolute.dropFirst(root.count)) : path
    }
}
