import Foundation
import ThemeLabCore

/// Text → token ids with the special tokens around them, truncated to the model's length: what the encoder needs
/// of a tokenizer, whichever kind the folder has.
package protocol SentenceTokenizer: Sendable {
    func encode(_ text: String) -> [Int32]
    /// The token strings of `encode`, for inspection.
    func tokens(_ text: String) -> [String]
    /// The largest id it can give (checked against the embedding table before any work).
    var largestId: Int32 { get }
}

/// A folder's tokenizer: `tokenizer.json` (the transformers "fast" tokenizer: normalizer, pre-tokenizer, model —
/// WordPiece, byte-level BPE or SentencePiece Unigram — and post-processor), as sentence-transformers loads it, else
/// WordPiece from `vocab.txt` with tokenizer_config.json's settings.
package enum TokenizerFile {
    /// "WordPiece", "BPE" or "Unigram" and where from, for `themelab env`; refuses a model kind it does not know.
    package static func kind(_ folder: ModelFolder) throws -> String {
        guard let json = try folder.json("tokenizer.json") else { return "WordPiece (vocab.txt)" }
        let type = (json["model"] as? [String: Any])?["type"] as? String ?? ""
        guard ["WordPiece", "BPE", "Unigram"].contains(type) else {
            throw ThemeLabError.input(
                "\(folder.path)/tokenizer.json: tokenizer model '\(type)' is not supported (expected WordPiece, BPE or Unigram)")
        }
        return "\(type) (tokenizer.json)"
    }

    /// Every id it can give must index a row of the embedding table (vocab.txt's check names the line: `WordPieceTokenizer`).
    package static func load(_ folder: ModelFolder, configuration c: EncoderConfiguration) throws -> any SentenceTokenizer {
        guard let json = try folder.json("tokenizer.json") else { return try WordPieceTokenizer(folder: folder, configuration: c) }
        let file = "\(folder.path)/tokenizer.json"
        let tokenizer = try TokenizerPipeline(json, file: file, maxLength: c.maxSequenceLength)
        guard Int(tokenizer.largestId) < c.vocabSize else {
            throw ThemeLabError.input("\(file): a token has id \(tokenizer.largestId), but config.json's vocab_size is \(c.vocabSize)")
        }
        return tokenizer
    }
}
