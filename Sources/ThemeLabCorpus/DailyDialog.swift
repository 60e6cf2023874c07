import Foundation
import ThemeLabCore

/// DailyDialog (Li et al., IJCNLP 2017; CC BY-NC-SA 4.0), the English side of XDailyDialog's test split (Liu et al.,
/// ACL 2023): 996 everyday two-person conversations, each labelled with one of 10 topics (ordinary life 279 …
/// culture & education 5). An item is a whole conversation, its turns joined by spaces: first and second person, about
/// 90 words, the longest items of the study (the encoder reads the first 256 tokens).
package enum DailyDialog {
    /// DailyDialog's topic numbers (its readme).
    package static let topics = [
        "ordinary life", "school life", "culture & education", "attitude & emotion", "relationship", "tourism", "health", "work",
        "politics", "finance",
    ]

    package static let test = CarriedCorpus(
        about: .init(
            name: "dailydialog", description: "996 everyday conversations, 10 topics of 279 to 5 (first person; long items)",
            source: "Datasets/dailydialog (github.com/liuzeming01/XDailyDialog @ 6e7ecf5, data/en_test_human.txt)",
            licence: "CC BY-NC-SA 4.0",
            citation: "Li et al., DailyDialog: A Manually Labelled Multi-turn Dialogue Dataset, IJCNLP 2017; Liu et al., ACL 2023"),
        folder: "dailydialog",
        files: [.init(name: "en_test_human.txt", sha256: "f5f74a02996ecc69f68ca9f3fdc07bb463f10b4b737e397bb66dca673d000bdf")]
    ) { try items($0[0]) }

    /// One conversation per line: text (turns ending in ` __eou__ `), topic 1–10, acts, emotions, tab-separated.
    package static func items(_ file: (path: String, data: Data)) throws -> [CorpusItem] {
        let lines = try CarriedCorpus.text(file).split(separator: "\n", omittingEmptySubsequences: false)
        var items: [CorpusItem] = []
        for (i, line) in lines.enumerated() where !line.isEmpty {
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
            guard fields.count == 4, let t = Int(fields[1]), topics.indices.contains(t - 1) else {
                throw ThemeLabError.input("\(file.path):\(i + 1): expected text, a topic from 1 to 10, acts and emotions, tab-separated")
            }
            let turns = fields[0].components(separatedBy: "__eou__").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
            items.append(CorpusItem(id: "test-\(i + 1)", text: turns.joined(separator: " "), label: topics[t - 1]))
        }
        return items
    }
}
