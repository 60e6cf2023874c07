import Foundation
import ThemeLabCore

/// The NLU evaluation corpora of Braun et al. (SIGdial 2017; CC BY-SA 3.0): questions people asked in their own words,
/// labelled by intent. Ask Ubuntu (askubuntu.com: 154 questions in 4 intents), Web Applications
/// (webapps.stackexchange.com: 83 in 7 intents, one of a single item) and Chatbot (a Telegram bot for Munich's public
/// transport: 206 in 2 intents). Journal-sized corpora. The intent "None" (whatever fits no intent) is left out: it
/// names no topic.
package enum NLUEvaluationCorpora {
    package static let all = [
        corpus(
            "askubuntu", "154 Ask Ubuntu questions, 4 intents of 57 to 23", "AskUbuntuCorpus.json",
            "2eaac51ed3d53e06bc90f48d29367214ecf788965c6f540992250a0f12447b49"),
        corpus(
            "webapplications", "83 Web Applications questions, 7 intents of 23 to 1", "WebApplicationsCorpus.json",
            "da737aa784a065e39a000f436a43337621d5e86bc1d87edd6a338843ea913463"),
        corpus(
            "chatbot-munich", "206 public-transport questions, 2 intents of 128 and 78", "ChatbotCorpus.json",
            "34ae4577802af41145fe138b5b1906fdea4cf371ef2a10e3d5cd2d69e86cfbc8"),
    ]

    package static func corpus(_ name: String, _ description: String, _ file: String, _ sha256: String) -> CarriedCorpus {
        let about = CorpusAbout(
            name: name, description: description,
            source: "Datasets/nlu-evaluation-corpora (github.com/sebischair/NLU-Evaluation-Corpora @ 9bac08b, \(file))",
            licence: "CC BY-SA 3.0",
            citation:
                "Braun et al., Evaluating Natural Language Understanding Services for Conversational Question Answering Systems, "
                + "SIGdial 2017"
        )
        return CarriedCorpus(about: about, folder: "nlu-evaluation-corpora", files: [.init(name: file, sha256: sha256)]) {
            try items($0[0])
        }
    }

    /// `{"sentences": [{"text": …, "intent": …, …}, …]}`.
    package static func items(_ file: (path: String, data: Data)) throws -> [CorpusItem] {
        guard let sentences = try CarriedCorpus.jsonObject(file)["sentences"] as? [[String: Any]] else {
            throw ThemeLabError.input("\(file.path): expected a list under \"sentences\"")
        }
        return try sentences.enumerated().compactMap { i, s in
            guard let text = s["text"] as? String, let intent = s["intent"] as? String else {
                throw ThemeLabError.input("\(file.path): sentence \(i): expected a text and an intent")
            }
            return intent == "None" ? nil : CorpusItem(id: "\(i)", text: text, label: intent)
        }
    }
}
