import Foundation
import Testing
import ThemeLabCore
import ThemeLabEncoder

/// Tiny random-weight models, one per architecture × tokenizer × pooling combination, made by
/// scripts/fixtures/make_encoder_fixtures.py with sentence-transformers (Fixtures/encoders/NAME/expected.json: its
/// token ids and vectors for texts with accents, emoji, CJK, an empty and an over-long one). Each must give the same
/// token ids and, unit-normalised, vectors within 1e-5 of sentence-transformers'.
@Suite struct EncoderFixtureParityTests {
    struct Expected: Decodable {
        var texts: [String]
        var inputIds: [[Int32]]
        var vectors: [[Double]]
        var prompted: [String: [[Double]]]?
        enum CodingKeys: String, CodingKey {
            case texts, vectors, prompted
            case inputIds = "input_ids"
        }
    }

    static let names = [
        "bert-wordpiece-mean", "bert-wordpiece-cls", "bert-wordpiece-max", "bert-wordpiece-mean-sqrt-len-tokens",
        "bert-wordpiece-weightedmean", "bert-wordpiece-lasttoken", "bert-wordpiece-cls-mean-dense-normalize", "bert-wordpiece-prompts",
        "distilbert-wordpiece-mean", "mpnet-wordpiece-mean", "roberta-bpe-mean", "xlm-roberta-unigram-mean",
        "xlm-roberta-unigram-precompiled-mean",
    ]

    static func expected(_ name: String) throws -> Expected { try expected(folder: fixture("encoders/\(name)")) }

    static func expected(folder: String) throws -> Expected {
        try JSONDecoder().decode(Expected.self, from: Data(contentsOf: URL(fileURLWithPath: "\(folder)/expected.json")))
    }

    /// The largest difference between unit-normalised rows.
    static func largestDifference(_ x: Matrix, _ reference: [[Double]]) -> Double {
        var worst = 0.0
        for (i, row) in reference.enumerated() {
            let a = (0..<x.cols).map { Double(x[i, $0]) }
            let (na, nb) = (a.map { $0 * $0 }.reduce(0, +).squareRoot(), row.map { $0 * $0 }.reduce(0, +).squareRoot())
            for (u, v) in zip(a, row) { worst = max(worst, abs(u / na - v / nb)) }
        }
        return worst
    }

    @Test(arguments: names)
    func tokenIdsAndUnitVectorsEqualSentenceTransformers(_ name: String) throws {
        try Self.checkParity(folder: fixture("encoders/\(name)"), name: name)
    }

    /// The masked-LM encoder the study runs (Datasets/encoders/, trained by scripts/fixtures/train_mlm_encoder.py,
    /// which wrote sentence-transformers' token ids and vectors beside it).
    @Test func committedMaskedLanguageModelEqualsSentenceTransformers() throws {
        try Self.checkParity(folder: projectRoot + "/Datasets/encoders/wordnet-mlm-4x256", name: "wordnet-mlm-4x256")
    }

    /// The model card's SHA-256 of each file is the file's (Datasets/encoders/README.md).
    @Test func theModelCardNamesEachFilesChecksum() throws {
        let folder = projectRoot + "/Datasets/encoders"
        let card = try String(contentsOfFile: folder + "/README.md", encoding: .utf8)
        let rows = card.split(separator: "\n").filter { $0.hasPrefix("| `") && $0.split(separator: "|").count == 2 }
        #expect(rows.count == 10)
        for row in rows {
            let cells = row.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            let file = cells[0].trimmingCharacters(in: CharacterSet(charactersIn: "`"))
            #expect(try SHA256.hex(file: "\(folder)/wordnet-mlm-4x256/\(file)") == cells[1], "\(file)")
        }
    }

    static func checkParity(folder: String, name: String) throws {
        let expected = try Self.expected(folder: folder)
        let encoder = try SentenceEncoder(folder: ModelFolder(path: folder))
        for (text, ids) in zip(expected.texts, expected.inputIds) {
            #expect(encoder.tokenizer.encode(text) == ids, "\(name): \(text.debugDescription)")
        }
        let vectors = try encoder.embed(expected.texts, layer: encoder.configuration.layers)
        #expect(vectors.cols == expected.vectors[0].count)
        let difference = Self.largestDifference(vectors, expected.vectors)
        #expect(difference <= 1e-5, "\(name): largest difference \(difference)")
        let figure = try Self.documentedFigure(name)
        #expect(difference <= figure, "\(name): largest difference \(difference), above docs/encoders.md's figure")
    }

    /// docs/encoders.md's largest difference for fixture `name` (its row names it, or its suffix after `bert-wordpiece`).
    static func documentedFigure(_ name: String) throws -> Double {
        let page = try String(contentsOfFile: projectRoot + "/docs/encoders.md", encoding: .utf8)
        let suffix = name.replacingOccurrences(of: "bert-wordpiece", with: "")
        let row = try #require(
            page.split(separator: "\n").first { $0.hasPrefix("| `\(name)`") || (!suffix.isEmpty && $0.contains("`\(suffix)`")) },
            "docs/encoders.md has no parity row for \(name)")
        return try #require(Double(row.split(separator: "|").last!.trimmingCharacters(in: .whitespaces)))
    }

    /// E5-style prompts: the folder's default prompt ("query: ") is used unless another is named, as
    /// sentence-transformers' encode does; "none" gives the text alone, and an unknown name is refused.
    @Test func promptsAreThoseOfSentenceTransformers() throws {
        let expected = try Self.expected("bert-wordpiece-prompts")
        let folder = try ModelFolder(path: fixture("encoders/bert-wordpiece-prompts"))
        for name in ["query", "passage"] {
            let encoder = try SentenceEncoder(folder: folder, prompt: name)
            let vectors = try encoder.embed(expected.texts, layer: encoder.configuration.layers)
            #expect(Self.largestDifference(vectors, try #require(expected.prompted?[name])) <= 1e-5, "\(name)")
        }
        #expect(try SentenceEncoder(folder: folder).prompt == "query: " && SentenceEncoder(folder: folder, prompt: "none").prompt == "")
        #expect(
            errorMessage { _ = try SentenceEncoder(folder: folder, prompt: "search") }
                == "prompt 'search' is not in \(folder.path)/config_sentence_transformers.json (it has 'document', 'passage', 'query'; "
                + "'none' for no prompt)")
    }

    /// A text's vector does not depend on its batch-mates on any architecture: alone and among the others, the same bits.
    @Test(arguments: ["distilbert-wordpiece-mean", "mpnet-wordpiece-mean", "roberta-bpe-mean", "xlm-roberta-unigram-mean"])
    func aTextsVectorIsIndependentOfItsBatch(_ name: String) throws {
        let expected = try Self.expected(name)
        let encoder = try SentenceEncoder(folder: ModelFolder(path: fixture("encoders/\(name)")))
        let together = try encoder.embed(expected.texts, layer: encoder.configuration.layers)
        for (i, text) in expected.texts.enumerated() {
            let alone = try encoder.embed([text], layer: encoder.configuration.layers)
            #expect((0..<alone.cols).allSatisfy { alone[0, $0].bitPattern == together[i, $0].bitPattern }, "\(name): \(text)")
        }
    }

    /// What each folder is, as `themelab env` prints it.
    @Test func summariesSayWhatTheFolderIs() throws {
        func summary(_ name: String) throws -> String { try ModelFolder(path: fixture("encoders/\(name)")).configuration().summary }
        #expect(try summary("mpnet-wordpiece-mean").hasPrefix("MPNet, 2 layers, hidden 16; WordPiece (tokenizer.json), up to 24 tokens"))
        #expect(try summary("roberta-bpe-mean").hasPrefix("RoBERTa, 2 layers, hidden 16; BPE (tokenizer.json)"))
        #expect(try summary("xlm-roberta-unigram-mean").hasPrefix("XLM-RoBERTa, 2 layers, hidden 16; Unigram (tokenizer.json)"))
        #expect(
            try summary("bert-wordpiece-cls-mean-dense-normalize").hasSuffix(
                "pooling cls + mean, Dense 32→12, Normalize; sentence vectors of 12 dimensions"))
        #expect(try summary("bert-wordpiece-prompts").contains("prompts passage, query (default query)"))
    }
}

/// A model folder that bends the rules of its files: one line naming the file and the value, never a trap or a read
/// outside the embedding table (the cases a hostile-input review of the tokenizers found).
@Suite struct HostileEncoderFolderTests {
    /// A copy of fixture `name` with `file`'s JSON changed by `change`.
    static func variant(_ name: String, _ file: String, _ change: (inout [String: Any]) -> Void) throws -> String {
        let folder = temporaryFolder() + "/\(name)"
        try FileManager.default.copyItem(atPath: fixture("encoders/\(name)"), toPath: folder)
        var json = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: "\(folder)/\(file)"))) as? [String: Any])
        change(&json)
        try JSONSerialization.data(withJSONObject: json).write(to: URL(fileURLWithPath: "\(folder)/\(file)"))
        return folder
    }

    static func refusal(_ folder: String) -> String? { errorMessage { _ = try SentenceEncoder(folder: ModelFolder(path: folder)) } }

    @Test func badFilesAreRefusedNamingFileAndValue() throws {
        var folder = try Self.variant("mpnet-wordpiece-mean", "config.json") { $0["relative_attention_num_buckets"] = 2 }
        #expect(Self.refusal(folder) == "\(folder)/config.json: relative_attention_num_buckets 2 is outside 4…511")
        folder = try Self.variant("xlm-roberta-unigram-mean", "tokenizer.json") { json in
            var model = json["model"] as! [String: Any]
            var vocab = model["vocab"] as! [[Any]]
            vocab.append([String(repeating: "x", count: 65), -1.0])
            model["vocab"] = vocab
            json["model"] = model
        }
        #expect(Self.refusal(folder) == "\(folder)/tokenizer.json: Unigram piece 'xxxxxxxxxxxxxxxxxxxx…' is over 64 characters")
        // An unknown id beyond config.json's vocab_size, reached only through a duplicated piece: caught before any work.
        folder = try Self.variant("xlm-roberta-unigram-mean", "tokenizer.json") { json in
            var model = json["model"] as! [String: Any]
            var vocab = model["vocab"] as! [[Any]]
            vocab.append(["<unk>", 0.0])
            model["unk_id"] = vocab.count - 1
            model["vocab"] = vocab
            json["model"] = model
        }
        #expect(Self.refusal(folder)?.contains("tokenizer.json: a token has id") == true)
        folder = try Self.variant("xlm-roberta-unigram-mean", "tokenizer.json") { json in
            json["pre_tokenizer"] = ["type": "Metaspace", "replacement": "", "prepend_scheme": "always"]
        }
        #expect(Self.refusal(folder) == "\(folder)/tokenizer.json: pre_tokenizer Metaspace: 'replacement' must be one character")
        folder = try Self.variant("bert-wordpiece-mean", "sentence_bert_config.json") { $0["max_seq_length"] = 2 }
        #expect(
            Self.refusal(folder)?.hasSuffix("it must be at least 3: the tokens that open and close a sentence and one of its own") == true)
        folder = try Self.variant("bert-wordpiece-mean", "tokenizer.json") { json in
            var model = json["model"] as! [String: Any]
            model["max_input_chars_per_word"] = 1_000_000_000
            json["model"] = model
        }
        #expect(Self.refusal(folder) == "\(folder)/tokenizer.json: WordPiece max_input_chars_per_word 1000000000 is outside 1…1000")
        try FileManager.default.removeItem(atPath: folder + "/1_Pooling/config.json")
        #expect(Self.refusal(folder) == "\(folder)/1_Pooling/config.json: cannot read (modules.json names this Pooling module)")
    }
}
