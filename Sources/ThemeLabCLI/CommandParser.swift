import Foundation
import ThemeLabCore

/// A command line read against a command's declared arguments: `--name value` or `--name=value` options, `--flag`
/// switches and positional words. An unknown option, a missing value, an option given twice, a value outside its
/// constraint, a missing required option and a positional word too many or too few are usage errors; an old spelling
/// (`OldSpelling`) counts as its option and gives a note.
struct CommandParser<C: ParsableCommand> {
    private(set) var command = C()
    /// Notes for old spellings given, said once the line is read.
    private(set) var notes: [String] = []
    private var given: Set<String> = []
    private var positional: [String] = []

    /// Reads `words` (those after the command's name).
    init(_ words: [String]) throws {
        var i = 0
        while i < words.count {
            let word = words[i]
            i += 1
            guard word.hasPrefix("--") else {
                positional.append(word)
                continue
            }
            let body = word.dropFirst(2)
            let name = "--" + body.prefix { $0 != "=" }
            let inline = body.contains("=") ? String(body.drop { $0 != "=" }.dropFirst()) : nil
            guard let argument = C.arguments.first(where: { $0.names.contains(name) }) else {
                throw ThemeLabError.usage("unknown option \(quotedName(name))")
            }
            try mark(argument, as: name)
            if argument.kind == .flag {
                guard inline == nil else { throw ThemeLabError.usage("\(name) is a switch and takes no value") }
                try argument.set(&command, "")
            } else if let value = inline {
                try argument.set(&command, value)
            } else {
                guard i < words.count else { throw ThemeLabError.usage("option \(name) needs a value") }
                try argument.set(&command, words[i])
                i += 1
            }
        }
        try assignPositional()
        for argument in C.arguments where argument.required && !given.contains(argument.name) {
            throw ThemeLabError.usage("missing \(argument.name)")
        }
    }

    /// Records that `argument` was given as `name`, refusing it given twice.
    private mutating func mark(_ argument: Argument<C>, as name: String) throws {
        guard given.insert(argument.name).inserted else {
            throw ThemeLabError.usage("\(argument.name) given twice" + (name == argument.name ? "" : " (\(name) is its old spelling)"))
        }
        if let old = argument.oldSpelling, old.name == name {
            notes.append("\(old.name) \(old.meaning) is deprecated; use \(argument.name)")
        }
    }

    /// Deals the positional words out to the positional arguments in order, each taking as many as it may while the
    /// ones after it still get their least.
    private mutating func assignPositional() throws {
        let slots = C.arguments.compactMap { a -> (Argument<C>, ClosedRange<Int>)? in
            if case .positional(let count) = a.kind { return (a, count) }
            return nil
        }
        let most = slots.reduce(0) { $0 > Int.max - $1.1.upperBound ? Int.max : $0 + $1.1.upperBound }
        if positional.count > most { throw ThemeLabError.usage("unexpected argument \(quotedWord(positional[most]))") }
        var next = 0
        for (k, (argument, count)) in slots.enumerated() {
            let later = slots[(k + 1)...].reduce(0) { $0 + $1.1.lowerBound }
            let take = min(count.upperBound, max(0, positional.count - next - later))
            guard take >= count.lowerBound else { throw ThemeLabError.usage("missing \(argument.name)") }
            for word in positional[next..<(next + take)] { try argument.set(&command, word) }
            next += take
        }
    }
}

/// An option's name from the command line as a message quotes it: on one line, cut to 60 characters.
private func quotedName(_ name: String) -> String {
    let quoted = quotedWord(name)
    return quoted.hasPrefix("'") && quoted.hasSuffix("'") ? String(quoted.dropFirst().dropLast()) : quoted
}
