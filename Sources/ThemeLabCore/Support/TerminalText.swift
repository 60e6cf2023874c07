/// `text` with each control character (Unicode category Cc: the C0 controls, DEL and the C1 controls, so ESC, BEL and a
/// line break among them) written as its Swift escape (`\u{1B}`, `\u{07}`, `\n`): text from the input can neither drive
/// a terminal (colours, cursor, title, bell) nor split a line. Error messages and the groups listing use it on one
/// line; a page of Markdown keeps its line feeds (`keepingLineFeeds`).
package func escapingControlCharacters(_ text: String, keepingLineFeeds: Bool = false) -> String {
    var out = ""
    out.unicodeScalars.reserveCapacity(text.unicodeScalars.count)
    for scalar in text.unicodeScalars {
        if scalar.properties.generalCategory == .control && !(keepingLineFeeds && scalar == "\n") {
            out += scalar.escaped(asASCII: false)
        } else {
            out.unicodeScalars.append(scalar)
        }
    }
    return out
}
