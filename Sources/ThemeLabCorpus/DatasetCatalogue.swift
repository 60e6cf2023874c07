import Foundation
import ThemeLabCore

/// What `themelab datasets list` shows: each registry corpus, where it lives, and its shape.
package enum DatasetCatalogue {
    package struct Row: Codable, Sendable {
        package var name: String
        package var description: String
        package var source: String
        package var licence: String
        package var citation: String
        package var present: Bool
        package var items: Int?
        package var topics: Int?
        package var relatedPairShare: Double?
        /// Seeds: share of same-topic pairs that share no content word.
        package var sameTopicPairsWithoutSharedContentWord: Double?
        package var note: String?
    }

    package static func rows(dataDirectory: String?) -> [Row] {
        DatasetRegistry.entries.map { e in
            var row = Row(
                name: e.name, description: e.about.description, source: e.about.source, licence: e.about.licence,
                citation: e.about.citation, present: false)
            do {
                let c = try DatasetRegistry.load(CorpusSpec(name: e.name), dataDirectory: dataDirectory).corpus
                row.present = true
                row.items = c.count
                row.topics = c.topicSizes.count
                row.relatedPairShare = c.relatedPairShare
                if e.name.hasPrefix("seed") { row.sameTopicPairsWithoutSharedContentWord = ContentWords.disjointSameTopicShare(c) }
            } catch {
                row.note = "\(error)"
            }
            return row
        }
    }

    package static func markdown(_ rows: [Row]) -> String {
        var out = "| corpus | items | topics | related pairs | present | source | licence |\n|---|---|---|---|---|---|---|\n"
        for r in rows {
            let share = r.relatedPairShare.map { String(format: "%.2f%%", 100 * $0) } ?? "n/a"
            out +=
                "| \(r.name) | \(r.items.map(String.init) ?? "n/a") | \(r.topics.map(String.init) ?? "n/a") | \(share) | "
                + "\(r.present ? "yes" : "no") | \(r.source) | \(r.licence) |\n"
        }
        for r in rows where r.note != nil { out += "\n\(r.name): \(r.note!)" }
        for r in rows {
            if let s = r.sameTopicPairsWithoutSharedContentWord {
                out += "\n\(r.name): \(String(format: "%.0f%%", 100 * s)) of same-topic pairs share no content word"
            }
        }
        return out + "\n"
    }
}

/// Content words of a sentence: lower-cased words (letters, digits, apostrophes) that are not
/// English function words.
package enum ContentWords {
    package static let stopwords: Set<String> = Set(
        """
        a about above after again against all am an and any are as at be because been before being below between both but by \
        can could couldn't did didn't do does doesn't doing don't down during each few for from further had hadn't has hasn't \
        have haven't having he her here hers herself him himself his how i i'm i've if in into is isn't it it's its itself just \
        me more most my myself no nor not now of off on once only or other our ours out over own probably really same she \
        should so some still such than that the their theirs them then there these they they're this those through to too \
        under until up very was wasn't we were what when where which while who whom why will with without won't would you \
        your yours another every whole right all's nobody
        """.split(whereSeparator: { $0 == " " || $0 == "\n" }).map(String.init))

    package static func of(_ text: String) -> Set<String> {
        let words = text.lowercased().split { !($0.isLetter || $0.isNumber || $0 == "'" || $0 == "’") }
        return Set(words.map { $0.replacingOccurrences(of: "’", with: "'") }.filter { !stopwords.contains($0) })
    }

    /// The share of same-topic pairs whose content words do not overlap.
    package static func disjointSameTopicShare(_ c: Corpus) -> Double? {
        let words = c.items.map { of($0.text ?? "") }
        var pairs = 0
        var disjoint = 0
        for i in c.items.indices {
            for j in (i + 1)..<c.items.count where c.items[i].label == c.items[j].label {
                pairs += 1
                if words[i].isDisjoint(with: words[j]) { disjoint += 1 }
            }
        }
        return pairs > 0 ? Double(disjoint) / Double(pairs) : nil
    }
}
