import Foundation
import ThemeLabCore

/// HINT3 (Arora et al., Insights from Negative Results in NLP, EMNLP 2020; ODbL 1.0 with contents under DbCL 1.0), its
/// v2 training sets: the queries users type to three customer-service chatbots, labelled by intent. Many small,
/// unevenly sized topics of very short items (about 5 words): powerplay11 (a fantasy-sports app, 471 queries, 57
/// intents of 1 to 42), curekart (a health shop, 599, 28 intents of 3 to 95), sofmattress (a mattress shop, 328, 21 of
/// 9 to 34).
package enum HINT3 {
    package static let all = [
        corpus(
            "powerplay11", "a fantasy-sports app: 471 queries, 57 intents of 1 to 42",
            "16847d06e62244ef902fe62a61261e8daec61d14335e535fcddf1752a8c8449b"),
        corpus(
            "curekart", "a health shop: 599 queries, 28 intents of 3 to 95",
            "99620b357d20801cbbebe2823d606d1afecd9414074d97a7386aaf2493f8911f"),
        corpus(
            "sofmattress", "a mattress shop: 328 queries, 21 intents of 9 to 34",
            "0addf4dc4b9df1e71509da5318d5a9f6e9a5d6eb98b9584d55cab3da7badf4b1"),
    ]

    package static func corpus(_ bot: String, _ description: String, _ sha256: String) -> CarriedCorpus {
        let about = CorpusAbout(
            name: "hint3-\(bot)", description: description,
            source: "Datasets/hint3 (github.com/hellohaptik/HINT3 @ 99965c8, dataset/v2/train/\(bot)_train.csv)",
            licence: "ODbL 1.0 (contents DbCL 1.0)", citation: "Arora et al., HINT3: Raising the bar for Intent Detection in the Wild, 2020"
        )
        return CarriedCorpus(about: about, folder: "hint3", files: [.init(name: "\(bot)_train.csv", sha256: sha256)]) { try items($0[0]) }
    }

    /// CSV with a header `sentence,label` (powerplay11 adds a third column of curators' notes, mostly empty, left out).
    package static func items(_ file: (path: String, data: Data)) throws -> [CorpusItem] {
        let records = try DelimitedText.records(try CarriedCorpus.text(file), delimiter: ",", file: file.path)
        guard let header = records.first, header.fields.prefix(2) == ["sentence", "label"] else {
            throw ThemeLabError.input("\(file.path):1: expected the header sentence,label")
        }
        return try records.dropFirst().map { r in
            guard r.fields.count >= 2, !r.fields[1].isEmpty else {
                throw ThemeLabError.input("\(file.path):\(r.line): expected a sentence and a label")
            }
            return CorpusItem(id: "\(r.line)", text: r.fields[0], label: r.fields[1])
        }
    }
}
