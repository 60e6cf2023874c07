import Foundation
import ThemeLabCore
import ThemeLabCorpus
import ThemeLabMethods
import ThemeLabPairs
import ThemeLabStudy

/// The threshold explorer: one self-contained HTML file per run (`analyze --html`, `ablate --html`, an experiment's
/// `"html": true`). Its data (`ExplorerData`) is embedded as JSON, its script and style inline, and a
/// Content-Security-Policy allows nothing but those two blocks (by hash): the page makes no request. docs/explorer.md
/// says what each panel shows.
package enum ExplorerPage {
    /// The page of `results`: the same bytes for the same results.
    package static func html(_ results: AnalysisResults) throws -> String {
        let data = try ExplorerData(results)
        let title = "ThemeLab explorer: \(results.name)"
        let (script, style) = (ExplorerScript.source, ExplorerStyle.source)
        let policy =
            "default-src 'none'; script-src '\(sha256Source(script))'; style-src '\(sha256Source(style))'; img-src 'none'; "
            + "base-uri 'none'; form-action 'none'"
        return """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta http-equiv="Content-Security-Policy" content="\(policy)">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>\(escapingHTML(title))</title>
            <style>\(style)</style>
            </head>
            <body>
            \(ExplorerStyle.skeleton)
            <script type="application/json" id="data">\(try scriptSafeJSON(data))</script>
            <script>\(script)</script>
            </body>
            </html>

            """
    }

    /// The file name `ablate` gives the page in an experiment's folder.
    package static func file(folder: String, stem: String) -> String { "\(folder)/\(stem).html" }

    /// 'sha256-…' of `text`'s UTF-8 bytes: a CSP source that allows exactly that inline block.
    static func sha256Source(_ text: String) -> String {
        var hash = SHA256()
        hash.update(Data(text.utf8))
        let hex = Array(hash.finalize().utf8)
        func nibble(_ c: UInt8) -> UInt8 { c <= UInt8(ascii: "9") ? c - UInt8(ascii: "0") : c - UInt8(ascii: "a") + 10 }
        let bytes = stride(from: 0, to: hex.count, by: 2).map { nibble(hex[$0]) << 4 | nibble(hex[$0 + 1]) }
        return "sha256-" + Data(bytes).base64EncodedString()
    }

    /// JSON that cannot end its script element or open markup: <, >, & and the two JavaScript line separators as
    /// \u escapes (they occur only inside strings).
    static func scriptSafeJSON<T: Encodable>(_ value: T) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        var out = ""
        for scalar in String(decoding: try encoder.encode(value), as: UTF8.self).unicodeScalars {
            switch scalar {
            case "<", ">", "&", "\u{2028}", "\u{2029}": out += String(format: "\\u%04x", scalar.value)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// Text for an HTML element or attribute.
    static func escapingHTML(_ text: String) -> String {
        var out = ""
        for c in text.unicodeScalars {
            switch c {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.unicodeScalars.append(c)
            }
        }
        return out
    }
}
