import ThemeLab

/// A parsed command line: `--name value` options, `--flag` switches and positional words.
/// Unknown options and missing values are usage errors.
struct Arguments {
    var positional: [String] = []
    var values: [String: String] = [:]
    var flags: Set<String> = []

    init(_ words: [String], options: Set<String>, switches: Set<String>) throws {
        var i = 0
        while i < words.count {
            let w = words[i]
            if w.hasPrefix("--") {
                let name = String(w.dropFirst(2))
                if switches.contains(name) {
                    flags.insert(name)
                } else if options.contains(name) {
                    guard i + 1 < words.count else { throw ThemeLabError.usage("option \(w) needs a value") }
                    values[name] = words[i + 1]
                    i += 1
                } else {
                    throw ThemeLabError.usage("unknown option \(w)")
                }
            } else {
                positional.append(w)
            }
            i += 1
        }
    }

    func required(_ name: String) throws -> String {
        guard let v = values[name] else { throw ThemeLabError.usage("missing --\(name)") }
        return v
    }

    /// A whole-number option within `range` (the bounds experiment files are held to, where both set it).
    func int(_ name: String, default fallback: Int, range: ClosedRange<Int>) throws -> Int {
        guard let text = values[name] else { return fallback }
        guard let v = Int(text), range.contains(v) else {
            throw ThemeLabError.usage("--\(name) must be a whole number from \(range.lowerBound) to \(range.upperBound), got \(text)")
        }
        return v
    }
}
