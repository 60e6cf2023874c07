import Foundation
import Testing

/// Debian's chromium, headless, as the explorer page's tests drive it: `--dump-dom` of a page with the view in its
/// address (the page writes its numbers into hidden elements), or a screenshot. Each run has a private profile folder
/// and is ended with its whole process group after `seconds` (`timeout`), so a test never hangs. Without chromium the
/// tests are skipped with the reason, except under CI, where they must run (scripts/bootstrap installs it).
enum HeadlessChromium {
    static let path = ["/usr/bin/chromium", "/usr/bin/chromium-browser"].first { FileManager.default.isExecutableFile(atPath: $0) }
    static let mustRun = ProcessInfo.processInfo.environment["CI"] == "true"
    static let skipReason: Comment = "chromium is not installed: scripts/bootstrap installs it (apt-get install chromium)"

    /// The page at `file` opened at `#fragment`, as its DOM stands once its script ran.
    static func dumpDOM(_ file: String, fragment: String, seconds: Int = 90) throws -> String {
        try run(["--dump-dom", url(file, fragment)], seconds: seconds).stdout
    }

    /// A `width`×`height` PNG of the page at `file` opened at `#fragment`, written to `png`.
    static func screenshot(_ file: String, fragment: String, to png: String, width: Int = 1400, height: Int = 1300) throws {
        try run(["--screenshot=\(png)", "--window-size=\(width),\(height)", "--hide-scrollbars", url(file, fragment)], seconds: 90)
        guard FileManager.default.fileExists(atPath: png) else { throw Failure("chromium wrote no screenshot of \(file)") }
    }

    /// The text of the element `<TAG id="ID" …>…</TAG>` in a dumped DOM, its character references undone.
    static func text(of id: String, tag: String = "pre", in dom: String) -> String? {
        guard let start = dom.range(of: "<\(tag) id=\"\(id)\""), let open = dom[start.upperBound...].range(of: ">"),
            let close = dom[open.upperBound...].range(of: "</\(tag)>")
        else { return nil }
        var text = String(dom[open.upperBound..<close.lowerBound])
        for (reference, character) in [
            ("&lt;", "<"), ("&gt;", ">"), ("&quot;", "\""), ("&#39;", "'"), ("&nbsp;", "\u{A0}"), ("&amp;", "&"),
        ] {
            text = text.replacingOccurrences(of: reference, with: character)
        }
        return text
    }

    /// The JSON the page wrote into `<pre id="ID">`, decoded.
    static func json<T: Decodable>(_ type: T.Type, of id: String, in dom: String) throws -> T {
        guard let text = text(of: id, in: dom), !text.isEmpty else { throw Failure("the page wrote nothing into #\(id)") }
        return try JSONDecoder().decode(type, from: Data(text.utf8))
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }

    private static func url(_ file: String, _ fragment: String) -> String {
        URL(fileURLWithPath: file).absoluteString + "#" + fragment
    }

    /// Chromium with `arguments`, headless, offline (every host name fails to resolve), in a fresh profile.
    @discardableResult
    private static func run(_ arguments: [String], seconds: Int) throws -> CLI.Result {
        guard let path else { throw Failure("chromium is not installed") }
        let profile = temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: profile) }
        let flags = [
            "--headless", "--no-sandbox", "--disable-gpu", "--user-data-dir=\(profile)", "--no-first-run", "--disable-extensions",
            "--disable-background-networking", "--disable-component-update", "--host-resolver-rules=MAP * ~NOTFOUND",
        ]
        let result = try CLI.launch(
            executable: "/usr/bin/timeout", ["-k", "5", String(seconds), path] + flags + arguments,
            environment: ProcessInfo.processInfo.environment)
        guard result.status == 0 else {
            throw Failure("chromium exited with \(result.status) (124: past \(seconds) s): \(result.stderr.suffix(600))")
        }
        return result
    }
}
