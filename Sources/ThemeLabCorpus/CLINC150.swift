import Foundation
import ThemeLabCore

/// CLINC150 (Larson et al., EMNLP-IJCNLP 2019; CC BY 3.0): 150 intents in 10 domains, short
/// user utterances. Carried in `Datasets/clinc150/` (with its licence and source note), or read
/// from `<data dir>/clinc150/`; both files are checked against their SHA-256 on every read.
package enum CLINC150 {
    package static let dataSHA256 = "36923c3705a59e08fe9c3883d8bc2dd966ef93e22cb78ac41171782a698d56e0"
    package static let domainsSHA256 = "b947b579d3b8e74b06f93b01083d8efaff2888b43a3e362533bd88a6e1211b3a"

    /// How many intents a seeded subsample may keep, and utterances of each.
    package static let intentCounts = 1...150
    package static let perIntentCounts = 1...100_000

    package struct Options: Codable, Sendable, Equatable {
        /// train, val or test.
        package var split = "test"
        /// intent (150 topics) or domain (10).
        package var level = "intent"
        package var includeOutOfScope = false
        /// Seeded subsample: this many intents …
        package var intents: Int?
        /// … and this many utterances of each.
        package var perIntent: Int?
        package var seed: UInt64 = 0
        package init() {}
    }

    /// Its two files in `folder`: the utterances and the intents' domains.
    package static func paths(folder: String) -> [String] { ["\(folder)/data_full.json", "\(folder)/domains.json"] }

    package static func load(folder: String, options o: Options) throws -> Corpus {
        let (dataPath, domainsPath) = (paths(folder: folder)[0], paths(folder: folder)[1])
        let root = try readData(dataPath)
        guard ["train", "val", "test"].contains(o.split), let rows = root[o.split] as? [[Any]] else {
            throw ThemeLabError.input("\(dataPath): no split '\(o.split)' (expected train, val or test)")
        }
        guard ["intent", "domain"].contains(o.level) else {
            throw ThemeLabError.invalid("clinc150 level '\(o.level)': expected intent or domain")
        }
        let domainOf = try readDomains(domainsPath)
        var items = try splitItems(rows, split: o.split, domainOf: domainOf, dataPath: dataPath, domainsPath: domainsPath)
        if o.includeOutOfScope, let oos = root["oos_\(o.split)"] as? [[Any]] {
            for (i, row) in oos.enumerated() {
                if let text = row.first as? String {
                    items.append(CorpusItem(id: "oos_\(o.split)-\(i)", text: text, label: "oos", group2: "oos"))
                }
            }
        }
        try checkPerIntent(items, o, dataPath: dataPath)
        items = subsample(items, intents: o.intents, perIntent: o.perIntent, seed: o.seed)
        if o.level == "domain" {
            items = items.map {
                var x = $0
                (x.label, x.group2) = (x.group2, x.label)
                return x
            }
        }
        return Corpus(name: corpusName(o), items: items)
    }

    /// data_full.json's top-level object, checked against its SHA-256.
    private static func readData(_ dataPath: String) throws -> [String: Any] {
        guard let data = FileManager.default.contents(atPath: dataPath) else {
            throw ThemeLabError.input(
                "\(dataPath): not found (the repository carries it in Datasets/clinc150/; --data-dir names a folder holding clinc150/)")
        }
        guard SHA256.hex(data) == dataSHA256 else {
            throw ThemeLabError.input(
                "\(dataPath): SHA-256 \(SHA256.hex(data)) is not CLINC150's \(dataSHA256) (Datasets/clinc150/SOURCE.md)")
        }
        guard let root = try JSONInput.parse(data, file: dataPath) as? [String: Any] else {
            throw ThemeLabError.input("\(dataPath): expected a JSON object with train/val/test lists")
        }
        return root
    }

    /// Each intent's domain, from domains.json checked against its SHA-256.
    private static func readDomains(_ domainsPath: String) throws -> [String: String] {
        var domainOf: [String: String] = [:]
        if let d = FileManager.default.contents(atPath: domainsPath), SHA256.hex(d) == domainsSHA256,
            let domains = try JSONInput.parse(d, file: domainsPath) as? [String: [String]]
        {
            for (domain, intents) in domains { for i in intents { domainOf[i] = domain } }
        } else {
            throw ThemeLabError.input("\(domainsPath): missing, or not CLINC150's domains.json (SHA-256 \(domainsSHA256))")
        }
        return domainOf
    }

    /// The items of a split's [text, intent] rows, labelled by intent with the intent's domain as second label.
    private static func splitItems(
        _ rows: [[Any]], split: String, domainOf: [String: String], dataPath: String, domainsPath: String
    ) throws -> [CorpusItem] {
        var items: [CorpusItem] = []
        for (i, row) in rows.enumerated() {
            guard row.count == 2, let text = row[0] as? String, let intent = row[1] as? String else {
                throw ThemeLabError.input("\(dataPath): \(split)[\(i)] is not a [text, intent] pair")
            }
            guard let domain = domainOf[intent] else {
                throw ThemeLabError.input("\(domainsPath): intent '\(intent)' (\(dataPath), \(split)[\(i)]) belongs to no domain")
            }
            items.append(CorpusItem(id: "\(split)-\(i)", text: text, label: intent, group2: domain))
        }
        return items
    }

    /// Refuses a `perIntent` above the item count of the split's smallest intent.
    private static func checkPerIntent(_ items: [CorpusItem], _ o: Options, dataPath: String) throws {
        if let m = o.perIntent, let smallest = Dictionary(grouping: items, by: { $0.label! }).min(by: { $0.value.count < $1.value.count }),
            smallest.value.count < m
        {
            throw ThemeLabError.input(
                "\(dataPath): perIntent is \(m), but intent '\(smallest.key)' has only \(smallest.value.count) items in split \(o.split)")
        }
    }

    /// The corpus's name: the split, then each option that changes the items.
    private static func corpusName(_ o: Options) -> String {
        var name = "clinc150-\(o.split)"
        if let k = o.intents { name += "-\(k)i" }
        if let m = o.perIntent { name += "x\(m)" }
        if o.intents != nil || o.perIntent != nil { name += "-seed\(o.seed)" }
        if o.includeOutOfScope { name += "-oos" }
        if o.level == "domain" { name += "-domain" }
        return name
    }

    /// A seeded choice of `intents` labels and `perIntent` items of each, in corpus order.
    package static func subsample(_ items: [CorpusItem], intents: Int?, perIntent: Int?, seed: UInt64) -> [CorpusItem] {
        var labels: [String] = []
        for i in items where !labels.contains(i.label!) { labels.append(i.label!) }
        var rng = SeededRandom(seed: seed)
        var chosen = Set(labels)
        if let k = intents, k < labels.count {
            chosen = Set(SeededRandom.permutation(count: labels.count, seed: rng.next()).prefix(k).map { labels[$0] })
        }
        var kept: [CorpusItem] = []
        for label in labels where chosen.contains(label) {
            let members = items.indices.filter { items[$0].label == label }
            let take = perIntent.map { min($0, members.count) } ?? members.count
            let picked = SeededRandom.sample(take, of: members.count, seed: rng.next())
            kept += picked.map { items[members[$0]] }
        }
        let position = Dictionary(uniqueKeysWithValues: items.enumerated().map { ($1.id, $0) })
        return kept.sorted { position[$0.id]! < position[$1.id]! }
    }
}
