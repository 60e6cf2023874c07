import Foundation
import ThemeLabCore

/// WordNet 3.0 (Princeton; WordNet licence), parsed from Debian's `wordnet-base` data files
/// (`/usr/share/wordnet/data.{noun,verb,adj,adv}`, format in wndb(5WN)). Two corpora:
/// - domains: each synset's gloss definition, labeled by its topic domain (the synset its
///   `;c` pointer names), keeping domains with at least `minimumTopicSize` members;
/// - lexnames: each quoted example sentence, labeled by its synset's lexicographer file
///   (noun.food, verb.motion, …; lexnames(5WN)).
package enum WordNet {
    package static let defaultFolder = "/usr/share/wordnet"
    package static let parts = ["noun", "verb", "adj", "adv"]
    /// The smallest topic a corpus may be asked to keep, and the seeded caps on its item count.
    package static let minimumTopicSizes = 1...1_000_000
    package static let itemCaps = 2...10_000_000
    /// lexnames(5WN): file number → name.
    package static let lexicographerFiles = [
        "adj.all", "adj.pert", "adv.all", "noun.Tops", "noun.act", "noun.animal", "noun.artifact", "noun.attribute",
        "noun.body", "noun.cognition", "noun.communication", "noun.event", "noun.feeling", "noun.food", "noun.group",
        "noun.location", "noun.motive", "noun.object", "noun.person", "noun.phenomenon", "noun.plant", "noun.possession",
        "noun.process", "noun.quantity", "noun.relation", "noun.shape", "noun.state", "noun.substance", "noun.time",
        "verb.body", "verb.change", "verb.cognition", "verb.communication", "verb.competition", "verb.consumption",
        "verb.contact", "verb.creation", "verb.emotion", "verb.motion", "verb.perception", "verb.possession",
        "verb.social", "verb.stative", "verb.weather", "adj.ppl",
    ]

    package struct Synset {
        package var key: String  // "n00001740"
        package var lexicographerFile: Int
        package var words: [String]
        package var domains: [String]  // keys of ;c targets
        package var definition: String
        package var examples: [String]
    }

    nonisolated(unsafe) private static var parsed: [String: [String: Synset]] = [:]
    private static let lock = NSLock()

    /// Every synset of the folder's data files, parsed once per process (replicates re-draw from it).
    package static func synsets(folder: String) throws -> [String: Synset] {
        try lock.withLock {
            if let all = parsed[folder] { return all }
            let all = try parseSynsets(folder: folder)
            parsed[folder] = all
            return all
        }
    }

    package static func parseSynsets(folder: String) throws -> [String: Synset] {
        var all: [String: Synset] = [:]
        for part in parts {
            let path = "\(folder)/data.\(part)"
            guard let data = FileManager.default.contents(atPath: path) else {
                throw ThemeLabError.input("\(path): not found (install Debian's wordnet-base: scripts/bootstrap does)")
            }
            var lineNumber = 0
            for raw in data.split(separator: UInt8(ascii: "\n")) {
                lineNumber += 1
                if raw.first == UInt8(ascii: " ") { continue }  // licence header
                guard let line = String(data: raw, encoding: .utf8) ?? String(data: raw, encoding: .isoLatin1) else { continue }
                guard let s = parse(line) else { throw ThemeLabError.input("\(path):\(lineNumber): not a wndb synset line") }
                all[s.key] = s
            }
        }
        return all
    }

    /// One data line: offset lex_filenum ss_type w_cnt (word lex_id)… p_cnt (ptr offset pos st)… [frames] | gloss
    package static func parse(_ line: String) -> Synset? {
        let halves = line.components(separatedBy: " | ")
        let f = halves[0].split(separator: " ").map(String.init)
        guard f.count >= 4, let lex = Int(f[1]), let wordCount = Int(f[3], radix: 16) else { return nil }
        let type = f[2] == "s" ? "a" : f[2]
        var i = 4
        var words: [String] = []
        for _ in 0..<wordCount {
            guard i + 1 < f.count else { return nil }
            words.append(f[i].replacingOccurrences(of: "_", with: " "))
            i += 2
        }
        guard i < f.count, let pointers = Int(f[i]) else { return nil }
        i += 1
        var domains: [String] = []
        for _ in 0..<pointers {
            guard i + 3 < f.count else { return nil }
            if f[i] == ";c" { domains.append((f[i + 2] == "s" ? "a" : f[i + 2]) + f[i + 1]) }
            i += 4
        }
        let gloss = halves.count > 1 ? halves.dropFirst().joined(separator: " | ").trimmingCharacters(in: .whitespaces) : ""
        let pieces = gloss.components(separatedBy: "; ")
        let definition = pieces.filter { !$0.hasPrefix("\"") }.joined(separator: "; ")
        let examples = pieces.filter { $0.hasPrefix("\"") }.map { $0.trimmingCharacters(in: CharacterSet(charactersIn: "\" ")) }.filter {
            !$0.isEmpty
        }
        return Synset(key: type + f[0], lexicographerFile: lex, words: words, domains: domains, definition: definition, examples: examples)
    }

    /// Glosses labeled by topic domain.
    package static func domains(folder: String = defaultFolder, minimumTopicSize: Int = 20) throws -> Corpus {
        let all = try synsets(folder: folder)
        var items: [CorpusItem] = []
        for s in all.values.sorted(by: { $0.key < $1.key }) {
            guard let domain = s.domains.first.flatMap({ all[$0] }) else { continue }
            items.append(
                CorpusItem(
                    id: "wn-\(s.key)", text: "\(s.words[0]): \(s.definition)", label: domain.words[0],
                    group2: lexicographerFiles[safe: domain.lexicographerFile]))
        }
        return Corpus(name: "wordnet-domains", items: keepTopics(items, minimumSize: minimumTopicSize))
    }

    /// Example sentences labeled by lexicographer file.
    package static func lexnames(folder: String = defaultFolder, minimumTopicSize: Int = 20) throws -> Corpus {
        let all = try synsets(folder: folder)
        var items: [CorpusItem] = []
        for s in all.values.sorted(by: { $0.key < $1.key }) {
            for (j, e) in s.examples.enumerated() {
                items.append(
                    CorpusItem(
                        id: "wn-\(s.key)-\(j)", text: e, label: lexicographerFiles[safe: s.lexicographerFile] ?? "lex\(s.lexicographerFile)"
                    ))
            }
        }
        return Corpus(name: "wordnet-lexnames", items: keepTopics(items, minimumSize: minimumTopicSize))
    }

    package static func keepTopics(_ items: [CorpusItem], minimumSize: Int) -> [CorpusItem] {
        var size: [String: Int] = [:]
        for i in items { size[i.label!, default: 0] += 1 }
        return items.filter { size[$0.label!]! >= minimumSize }
    }
}

extension Array {
    package subscript(safe i: Int) -> Element? { indices.contains(i) ? self[i] : nil }
}
