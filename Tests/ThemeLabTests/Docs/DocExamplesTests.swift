import Foundation
import Testing
import ThemeLabCLI

/// Examples that cannot rot: every shell block of `README.md` and `docs/*.md` is marked, and the marked ones run.
///
/// - A block fenced as `sh test` holds `themelab` (or `./themelab`, the launcher) commands (a trailing `\` continues a
///   line, `#` starts a comment, single and double quotes group words as in sh); `! themelab …` must exit 1, as a
///   failed check does (sh's `!`). Each runs in this process through
///   `ThemeLabCLI.main`, in order, and must exit 0. Relative paths resolve as in the checkout when they name a file
///   there (inputs: committed data), else inside a fresh temporary folder (outputs, and inputs an earlier command of the
///   block wrote there).
/// - A `text output` block right after it is what the block prints: every line of it that is not a timing must appear
///   in the output (stdout and stderr; the checkout's and the temporary folder's paths written relative), ignoring
///   spaces at either end. A line of `…` alone stands for lines left out.
/// - A block fenced as `sh no-run` is shown, not run (too long, such as `make reproduce`, or needs a cluster).
///   Any other `sh`/`bash`/`console`/`shell` block fails the test, so a new example cannot go unmarked.
struct DocExample: CustomTestStringConvertible, Sendable {
    var file: String
    var line: Int
    var commands: [[String]]
    var output: [String]?
    var testDescription: String { "\(file):\(line)" }

    static let root = projectRoot

    /// README.md and every docs/*.md, relative to the checkout.
    static var pages: [String] {
        let docs = (try? FileManager.default.contentsOfDirectory(atPath: root + "/docs")) ?? []
        return ["README.md"] + docs.filter { $0.hasSuffix(".md") }.sorted().map { "docs/" + $0 }
    }

    /// Fenced blocks of a page: (line of the opening fence, info string, body lines).
    static func blocks(of page: String) -> [(line: Int, info: String, body: [String])] {
        guard let text = try? String(contentsOfFile: root + "/" + page, encoding: .utf8) else { return [] }
        let lines = text.components(separatedBy: "\n")
        var found: [(Int, String, [String])] = []
        var i = 0
        while i < lines.count {
            let trimmed = lines[i].trimmingCharacters(in: .whitespaces)
            guard trimmed.hasPrefix("```") else {
                i += 1
                continue
            }
            let info = String(trimmed.dropFirst(3)).trimmingCharacters(in: .whitespaces)
            var body: [String] = []
            var j = i + 1
            while j < lines.count, !lines[j].trimmingCharacters(in: .whitespaces).hasPrefix("```") {
                body.append(lines[j])
                j += 1
            }
            found.append((i + 1, info, body))
            i = j + 1
        }
        return found
    }

    /// The `sh test` blocks of every page, each with the `text output` block that follows it, if any.
    static var all: [DocExample] {
        pages.flatMap { page -> [DocExample] in
            let blocks = blocks(of: page)
            return blocks.indices.compactMap { k in
                guard blocks[k].info == "sh test" else { return nil }
                let next = k + 1 < blocks.count && blocks[k + 1].info == "text output" ? blocks[k + 1].body : nil
                return DocExample(file: page, line: blocks[k].line, commands: commands(in: blocks[k].body), output: next)
            }
        }
    }

    /// Shell blocks that are neither `sh test` nor `sh no-run`, as `page:line`.
    static var unmarked: [String] {
        pages.flatMap { page in
            blocks(of: page).filter { block in
                let kind = block.info.split(separator: " ").first.map(String.init) ?? ""
                return ["sh", "bash", "console", "shell", "zsh"].contains(kind) && !["sh test", "sh no-run"].contains(block.info)
            }.map { "\(page):\($0.line) (\($0.info))" }
        }
    }

    /// The commands of a block: continuation lines joined, comments dropped, words split as sh splits them.
    static func commands(in body: [String]) -> [[String]] {
        var joined: [String] = []
        var pending = ""
        for raw in body {
            var line = raw
            let continues = line.hasSuffix("\\")
            if continues { line.removeLast() }
            pending += line + " "
            if !continues {
                joined.append(pending)
                pending = ""
            }
        }
        if !pending.isEmpty { joined.append(pending) }
        return joined.map(words).filter { !$0.isEmpty }
    }

    /// sh's word splitting for what the docs use: blanks, single and double quotes, and `#` comments.
    static func words(_ line: String) -> [String] {
        var words: [String] = []
        var word = ""
        var inWord = false
        var quote: Character? = nil
        for c in line {
            if let q = quote {
                if c == q { quote = nil } else { word.append(c) }
            } else if c == "'" || c == "\"" {
                quote = c
                inWord = true
            } else if c == " " || c == "\t" {
                if inWord { words.append(word) }
                word = ""
                inWord = false
            } else if c == "#" && !inWord {
                break
            } else {
                word.append(c)
                inWord = true
            }
        }
        if inWord { words.append(word) }
        return words
    }

    /// A word with its relative path resolved: in `folder` when a file is there, else in the checkout when one is
    /// there, else in `folder` when it looks like a path or follows an output option; other words are left alone.
    static func resolve(_ word: String, after previous: String?, in folder: String) -> String {
        if word.hasPrefix("--"), let eq = word.firstIndex(of: "=") {
            let option = String(word[..<eq])
            return option + "=" + resolve(String(word[word.index(after: eq)...]), after: option, in: folder)
        }
        if word.hasPrefix("-") || word.hasPrefix("/") || word.isEmpty { return word }
        let manager = FileManager.default
        if manager.fileExists(atPath: folder + "/" + word) { return folder + "/" + word }
        if manager.fileExists(atPath: root + "/" + word) { return root + "/" + word }
        let outputs: Set = ["--out", "--out-corpus", "--out-embeddings", "--work", "--write-baseline", "--assignments"]
        let shard = word.range(of: #"^[0-9]+/[0-9]+$"#, options: .regularExpression) != nil
        let suffixes = [".json", ".jsonl", ".npy", ".csv", ".tsv", ".html", ".gz"]
        let looksLikePath = !shard && (word.contains("/") || suffixes.contains { word.hasSuffix($0) })
        return looksLikePath || previous.map(outputs.contains) == true ? folder + "/" + word : word
    }

    /// A shown output line that varies from run to run: a duration or an ETA.
    static func isTiming(_ line: String) -> Bool {
        line.range(of: #"\b\d+(\.\d+)?\s?(ms|s|min)\b|ETA"#, options: .regularExpression) != nil
    }
}

@Suite struct DocExamplesTests {
    @Test func everyShellBlockIsMarked() {
        #expect(DocExample.unmarked.isEmpty, "mark each as `sh test` (run by this suite) or `sh no-run`")
        #expect(!DocExample.all.isEmpty)
    }

    @Test func noCountIsWrittenByHand() throws {
        for page in DocExample.pages {
            let text = try String(contentsOfFile: DocExample.root + "/" + page, encoding: .utf8)
            let hit = text.range(of: #"\b[0-9][0-9 ]* (tests|test cases|suites)\b"#, options: .regularExpression)
            #expect(hit == nil, "\(page): \(hit.map { String(text[$0]) } ?? "") — counts change; let the runner print them")
        }
    }

    @Test(arguments: DocExample.all)
    func exampleRunsAndPrintsWhatIsShown(_ example: DocExample) throws {
        let folder = temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        var printed = ""
        for var command in example.commands {
            // `! themelab …`, as sh negates a status: the command must fail (exit 1, a failed check), not succeed.
            let fails = command.first == "!"
            if fails { command.removeFirst() }
            try #require(
                ["themelab", "./themelab"].contains(command.first), "\(example): a `sh test` block runs only themelab commands: \(command)")
            var arguments: [String] = []
            for (k, word) in command.dropFirst().enumerated() {
                arguments.append(DocExample.resolve(word, after: k == 0 ? nil : command[k], in: folder))
            }
            let result = CLI.run(arguments)
            try #require(
                result.status == (fails ? 1 : 0), "\(example): \(command.joined(separator: " ")) exited \(result.status): \(result.stderr)")
            printed += result.stdout + "\n" + result.stderr + "\n"
        }
        printed = printed.replacingOccurrences(of: folder + "/", with: "").replacingOccurrences(of: DocExample.root + "/", with: "")
        let real = Set(printed.components(separatedBy: "\n").map { $0.trimmingCharacters(in: .whitespaces) })
        for line in example.output ?? [] {
            let shown = line.trimmingCharacters(in: .whitespaces)
            guard !shown.isEmpty, shown != "…", !DocExample.isTiming(shown) else { continue }
            let printedToo = real.contains(shown)
            #expect(printedToo, "\(example): shown but not printed: \(shown)")
        }
    }
}
