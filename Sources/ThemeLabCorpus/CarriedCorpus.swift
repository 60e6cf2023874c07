import Foundation
import ThemeLabCore

/// What a corpus is, as its registry entry, `datasets list` and docs/method.md say it.
package struct CorpusAbout: Sendable {
    package var name: String
    package var description: String
    package var source: String
    package var licence: String
    package var citation: String
}

/// A labelled corpus carried unchanged in `Datasets/FOLDER/` under its licence (`SOURCE.md` beside the files says where
/// it came from), or read from `<data dir>/FOLDER/`; every file is checked against its SHA-256 on every read, so a
/// result names exactly the bytes it was made from.
package struct CarriedCorpus: Sendable {
    package struct File: Sendable {
        package var name: String
        package var sha256: String
    }

    /// What `datasets list` and docs say of it: name, shape, source, licence and citation.
    package var about: CorpusAbout
    package var name: String { about.name }
    package var folder: String
    package var files: [File]
    /// The items of the checked files' contents, given with their paths (for errors that name the file and line).
    package var items: @Sendable (_ contents: [(path: String, data: Data)]) throws -> [CorpusItem]

    /// Every carried corpus, in the order `datasets list` shows them.
    package static let all: [CarriedCorpus] = [DailyDialog.test, SNIPS.validate] + HINT3.all + NLUEvaluationCorpora.all

    /// Where its files are read from.
    package func paths(dataDirectory: String?) throws -> [String] {
        let at = try DatasetRegistry.datasetFolder(folder, dataDirectory: dataDirectory)
        return files.map { "\(at)/\($0.name)" }
    }

    /// The corpus, every file checked first.
    package func load(dataDirectory: String?) throws -> LoadedCorpus {
        var contents: [(path: String, data: Data)] = []
        let paths = try paths(dataDirectory: dataDirectory)
        for (f, path) in zip(files, paths) {
            guard let data = FileManager.default.contents(atPath: path) else {
                throw ThemeLabError.input("\(path): not found (the repository carries it in Datasets/\(folder)/)")
            }
            let sha = SHA256.hex(data)
            guard sha == f.sha256 else {
                throw ThemeLabError.input("\(path): SHA-256 \(sha) is not \(name)'s \(f.sha256) (Datasets/\(folder)/SOURCE.md)")
            }
            contents.append((path, data))
        }
        let corpus = Corpus(name: name, items: try items(contents))
        guard corpus.count > 0, corpus.isLabeled else {
            throw ThemeLabError.input("\(paths.joined(separator: ", ")): \(name) has no labelled items")
        }
        return LoadedCorpus(corpus: corpus)
    }

    /// A file's text, or an error naming it.
    package static func text(_ file: (path: String, data: Data)) throws -> String {
        guard let text = String(data: file.data, encoding: .utf8) else { throw ThemeLabError.input("\(file.path): not UTF-8") }
        return text
    }

    /// A file's JSON object, or an error naming it.
    package static func jsonObject(_ file: (path: String, data: Data)) throws -> [String: Any] {
        guard let object = try JSONInput.parse(file.data, file: file.path) as? [String: Any] else {
            throw ThemeLabError.input("\(file.path): expected a JSON object")
        }
        return object
    }
}
