import Foundation
import ThemeLabCore

/// The SNIPS NLU benchmark (Coucke et al. 2018; CC0), its validation files: 700 voice-assistant commands, 100 for each
/// of 7 intents (add to playlist, book restaurant, get weather, play music, rate book, search creative work, search
/// screening event). Few, balanced topics of short imperative items.
package enum SNIPS {
    package static let intents: [(name: String, sha256: String)] = [
        ("AddToPlaylist", "14cc9ee49ae477b1452632a6e835498cf4c32da397b16967c82abb3e50403e83"),
        ("BookRestaurant", "4f7258ccc768b777b2eb8916532db9aa50dbd058ddf1ffb0dc59218963e7442a"),
        ("GetWeather", "60c095e193655d6ca92be220fed3926ca25e18cd70c85664145efe25d80993af"),
        ("PlayMusic", "922212775e26259d5bffeaf79b6048d070ca017d229df00b2cc9800f71c75d20"),
        ("RateBook", "c1f8b4114da0bb5e8afd78a8062766e18b2eabb0e717539598db01b09d04619b"),
        ("SearchCreativeWork", "8a5e830eddb185d3e4a9d27ded140a145d04766bdce0e58834676ede32d13e77"),
        ("SearchScreeningEvent", "81e1445713e03c7c3e615353c5f3fee05f369fe9834100b9b9735900a96b9498"),
    ]

    package static let validate = CarriedCorpus(
        about: .init(
            name: "snips", description: "700 voice-assistant commands, 7 intents of 100",
            source: "Datasets/snips (github.com/sonos/nlu-benchmark @ b86ac7f, 2017-06-custom-intent-engines/*/validate_*.json)",
            licence: "CC0 1.0", citation: "Coucke et al., Snips Voice Platform, arXiv:1805.10190, 2018"),
        folder: "snips", files: intents.map { .init(name: "validate_\($0.name).json", sha256: $0.sha256) }
    ) { contents in try zip(intents, contents).flatMap { try items(intent: $0.name, $1) } }

    /// `{"INTENT": [{"data": [{"text": …, "entity"?: …}, …]}, …]}`: an item's text is its pieces joined.
    package static func items(intent: String, _ file: (path: String, data: Data)) throws -> [CorpusItem] {
        guard let utterances = try CarriedCorpus.jsonObject(file)[intent] as? [[String: Any]] else {
            throw ThemeLabError.input("\(file.path): expected a list of utterances under \"\(intent)\"")
        }
        return try utterances.enumerated().map { i, u in
            guard let pieces = u["data"] as? [[String: Any]], let texts = pieces.map({ $0["text"] as? String }) as? [String] else {
                throw ThemeLabError.input("\(file.path): utterance \(i): expected data, a list of objects with a text")
            }
            return CorpusItem(id: "\(intent)-\(i)", text: texts.joined().trimmingCharacters(in: .whitespaces), label: intent)
        }
    }
}
