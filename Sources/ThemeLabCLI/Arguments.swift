import ThemeLabCore
import ThemeLabCorpus
import ThemeLabEncoder
import ThemeLabMeasures
import ThemeLabMethods
import ThemeLabPairs
import ThemeLabReport
import ThemeLabStudy

/// A parsed command line: `--name value` or `--name=value` options, `--flag` switches and the
/// positional words a command takes. Unknown options, a missing value, an option given twice and a
/// positional word the command does not take are usage errors. An old spelling of an option (`renamed`,
/// old name → option) counts as the option and is kept in `oldSpellings` for the caller's note.
struct Arguments {
    var positional: [String] = []
    private(set) var values: [String: String] = [:]
    private(set) var flags: Set<String> = []
    var oldSpellings: [String] = []
    /// Every option and switch the command declares: a lookup of another name is a defect, caught in debug builds.
    private let declared: Set<String>

    /// The value of option `name`, if given.
    subscript(_ name: String) -> String? {
        assert(declared.contains(name), "--\(name) is read but not declared")
        return values[name]
    }

    /// Whether switch `name` was given.
    func flag(_ name: String) -> Bool {
        assert(declared.contains(name), "--\(name) is read but not declared")
        return flags.contains(name)
    }

    init(
        _ words: [String], options: Set<String>, switches: Set<String>, positionals: ClosedRange<Int> = 0...0,
        renamed: [String: String] = [:]
    ) throws {
        declared = options.union(switches)
        var i = 0
        while i < words.count {
            let w = words[i]
            i += 1
            guard w.hasPrefix("--") else {
                positional.append(w)
                continue
            }
            let body = w.dropFirst(2)
            let name = String(body.prefix { $0 != "=" })
            let inline = body.contains("=") ? String(body.drop { $0 != "=" }.dropFirst()) : nil
            let key = renamed[name] ?? name
            if key != name { oldSpellings.append(name) }
            if switches.contains(key) {
                guard inline == nil else { throw ThemeLabError.usage("--\(name) is a switch and takes no value") }
                guard flags.insert(key).inserted else { throw ThemeLabError.usage("--\(name) given twice") }
            } else if options.contains(key) {
                guard values[key] == nil else {
                    throw ThemeLabError.usage("--\(key) given twice" + (key == name ? "" : " (--\(name) is its old spelling)"))
                }
                if let inline {
                    values[key] = inline
                } else {
                    guard i < words.count else { throw ThemeLabError.usage("option --\(name) needs a value") }
                    values[key] = words[i]
                    i += 1
                }
            } else {
                throw ThemeLabError.usage("unknown option --\(name)")
            }
        }
        guard positionals.contains(positional.count) else {
            if positional.count > positionals.upperBound {
                throw ThemeLabError.usage("unexpected argument '\(positional[positionals.upperBound])'")
            }
            throw ThemeLabError.usage(
                "expected \(positionals.lowerBound == positionals.upperBound ? "" : "at least ")"
                    + "\(positionals.lowerBound) argument\(positionals.lowerBound == 1 ? "" : "s")")
        }
    }

    func required(_ name: String) throws -> String {
        guard let v = self[name] else { throw ThemeLabError.usage("missing --\(name)") }
        return v
    }

    /// A whole-number option within `range` (the bounds experiment files are held to, where both set it).
    func int(_ name: String, default fallback: Int, range: ClosedRange<Int>) throws -> Int {
        guard let text = self[name] else { return fallback }
        guard let v = Int(text), range.contains(v) else {
            throw ThemeLabError.usage("--\(name) must be a whole number from \(range.lowerBound) to \(range.upperBound), got \(text)")
        }
        return v
    }

    /// A whole-number option whose bounds the validator of what it sets checks (nil when not given).
    func wholeNumber(_ name: String) throws -> Int? {
        try self[name].map { text in
            guard let v = Int(text) else { throw ThemeLabError.usage("--\(name) must be a whole number, got \(text)") }
            return v
        }
    }
}

extension Arguments {
    /// A list option of names split at commas outside parentheses: `hdbscan(8,4),leiden(10)` is two.
    func names(_ name: String) -> [String]? { values[name].map(Constraint.splitNames) }

    /// Option `name` read and checked under the constraint the experiment-file field `key` declares; nil when not given.
    func value(_ name: String, checkedBy key: some SchemaKey) throws -> Any? {
        guard let text = self[name], let constraint = key.setting?.constraint else { return nil }
        let value = constraint.commandLineValue(text)
        if let (_, why) = constraint.problem(value, at: "") { throw ThemeLabError.usage("--\(name) \(why)") }
        return value
    }
}
