import Foundation
import ThemeLabCore
import ThemeLabCorpus
import ThemeLabEncoder
import ThemeLabMeasures
import ThemeLabMethods
import ThemeLabPairs
import ThemeLabReport
import ThemeLabStudy

/// One parser under fuzzing: it is handed arbitrary bytes and must return or throw a
/// `ThemeLabError`, never trap, hang or allocate without bound. What a parser accepts is held to
/// the properties a reader relies on (a decoded matrix re-encodes to the same values, a merged
/// part has the counts it claims). `themelab-fuzz` runs these under libFuzzer; the test suite
/// replays every committed seed and crasher (Tests/ThemeLabTests/Fixtures/fuzz/TARGET/).
package enum FuzzTarget: String, CaseIterable, Sendable {
    case npy, corpus, safetensors, vocab, experiment, results, part, grid, normalizer, bridge, assignments

    /// The Slurm scripts made with `names` (from a part) in every path, option and comment: every line is a comment, an
    /// #SBATCH line, or a line the harness wrote itself — none comes from the data.
    package static func checkScripts(names: [String]) throws {
        let joined = names.joined(separator: ",")
        let request = try SlurmResources(cpus: 1, predictedMiB: 1, predictedSeconds: 1, reason: joined)
        let batch = SlurmBatch(
            name: "fuzz", folder: "/w", workingDirectory: "/w", partition: nil, account: nil, tasks: 2, task: request, finish: request,
            taskCommand: ["/bin/themelab"] + names + [SlurmBatch.partPath], finishCommand: (["/bin/themelab"] + names, names))
        for (_, text) in try batch.render() {
            for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
                precondition(
                    line.isEmpty || line.hasPrefix("#") || SlurmBatch.fixedLinePrefixes.contains { line.hasPrefix($0) },
                    "a generated script holds a line the harness did not write: \(line)")
            }
        }
    }

    /// Feeds `data` to the parser; errors it throws are the expected outcome for bad input.
    package func run(_ data: Data) {
        do { try parse(data) } catch let e as ThemeLabError { _ = e.description } catch {
            preconditionFailure("\(rawValue): a parser threw \(type(of: error)), not a ThemeLabError: \(error)")
        }
    }

    /// The parser and the properties of what it accepts; throws what the parser throws.
    package func parse(_ data: Data) throws {
        switch self {
        case .npy: try Self.parseNPY(data)
        case .corpus: try Self.parseCorpus(data)
        case .safetensors: try Self.parseSafetensors(data)
        case .vocab: try Self.parseVocab(data)
        case .experiment: try Self.parseExperiment(data)
        case .results: try Self.parseResults(data)
        case .grid: try Self.parseGrid(data)
        case .part: try Self.parsePart(data)
        case .normalizer: try Self.parseNormalizer(data)
        case .bridge: try Self.parseBridge(data)
        case .assignments: try Self.writeAssignments(data)
        }
    }

    /// A `.npy` file: what decodes re-encodes to the same shape and bits.
    package static func parseNPY(_ data: Data) throws {
        let m = try NPY.decode(data, name: "fuzz.npy")
        let again = try NPY.decode(NPY.encode(m), name: "re-encoded")
        precondition(again.rows == m.rows && again.cols == m.cols && again.storage.map(\.bitPattern) == m.storage.map(\.bitPattern))
    }

    /// A corpus file (the first byte picks JSONL, CSV or TSV): a labelled corpus's topic sizes add up to its items.
    package static func parseCorpus(_ data: Data) throws {
        // The first byte picks the format; the rest is the file.
        let body = data.dropFirst()
        let corpus: Corpus
        switch data.first.map({ $0 % 3 }) ?? 0 {
        case 0: corpus = try CorpusReader.parseJSONL(Data(body), file: "fuzz.jsonl", name: "fuzz")
        case 1: corpus = try CorpusReader.parseDelimited(Data(body), delimiter: ",", file: "fuzz.csv", name: "fuzz")
        default: corpus = try CorpusReader.parseDelimited(Data(body), delimiter: "\t", file: "fuzz.tsv", name: "fuzz")
        }
        if let labels = corpus.labelIndices() {
            precondition(corpus.topicSizes.reduce(0, +) == corpus.count && labels.count == corpus.count)
        }
    }

    /// A `.safetensors` file: every float tensor it lists can be read.
    package static func parseSafetensors(_ data: Data) throws {
        let path = try Self.scratchFile("fuzz.safetensors", data)
        let file = try SafeTensors(path: path)
        for (name, entry) in file.entries.sorted(by: { $0.key < $1.key }) where ["F32", "F16", "BF16"].contains(entry.dtype) {
            _ = try file.floats(name, shape: entry.shape)
        }
    }

    /// One text file of a model folder (the first byte picks which): both tokenizers' ids (tokenizer.json's and
    /// vocab.txt's) fit the sequence and vocabulary.
    package static func parseVocab(_ data: Data) throws {
        // The first byte picks the file of a model folder to replace; the others are minimal and valid.
        let folder = try Self.scratchModelFolder(
            replacing: Self.modelFiles[Int(data.first ?? 0) % Self.modelFiles.count], with: Data(data.dropFirst()))
        let configuration = try EncoderConfiguration(folder: ModelFolder(path: folder))
        let tokenizers: [any SentenceTokenizer] = [
            try WordPieceTokenizer(folder: ModelFolder(path: folder), configuration: configuration),
            try TokenizerFile.load(ModelFolder(path: folder), configuration: configuration),
        ]
        for tokenizer in tokenizers {
            let ids = tokenizer.encode("Fuzzing: café naïve 東京 unaffable!  ")
            precondition(
                !ids.isEmpty && ids.count <= configuration.maxSequenceLength && ids.allSatisfy { Int($0) < configuration.vocabSize })
        }
    }

    /// An experiment file: one that loads gives no key twice in an object (as many keys are written as Foundation reads),
    /// and each small synthetic corpus it names is checked against its settings.
    package static func parseExperiment(_ data: Data) throws {
        let plan = try ExperimentPlan.decode(data, path: "fuzz.json")
        let read = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
        precondition(keysWritten(data) == keysHeld(read), "an experiment file with a key given twice was accepted")
        for spec in plan.corpora where spec.name == "synthetic" {
            let g = spec.generator ?? .journalMethodRaw()
            guard g.topicSizes.reduce(0, +) * g.dimensions <= 100_000 else { continue }
            let (corpus, vectors) = g.corpus(name: g.identity)
            try Validation.check(
                plan.settings, items: corpus.count, dimensions: vectors.cols, corpus: corpus.name, source: .experiment("fuzz.json"))
        }
    }

    /// How many keys JSON `data` writes: one per colon outside its strings (counted without `JSONInput`).
    package static func keysWritten(_ data: Data) -> Int {
        var (count, inString, escaped) = (0, false, false)
        for b in data {
            if inString {
                (escaped, inString) = (!escaped && b == UInt8(ascii: "\\"), escaped || b != UInt8(ascii: "\""))
            } else if b == UInt8(ascii: "\"") {
                inString = true
            } else if b == UInt8(ascii: ":") {
                count += 1
            }
        }
        return count
    }

    /// How many keys the objects of a value Foundation parsed hold.
    package static func keysHeld(_ value: Any) -> Int {
        if let object = value as? [String: Any] { return object.count + object.values.map(keysHeld).reduce(0, +) }
        return (value as? [Any])?.map(keysHeld).reduce(0, +) ?? 0
    }

    /// A baseline file: compared with itself and rendered as CSV, Markdown and plots.
    package static func parseResults(_ data: Data) throws {
        let baseline = try RegressionCheck.decodeBaseline(data, path: "fuzz.json")
        _ = try RegressionCheck.compare(results: baseline.analyses, baseline: baseline)
        _ = AnalysisReport.tidyCSV(baseline.analyses)
        for a in baseline.analyses {
            _ = AnalysisReport.markdown(a)
            for s in a.spaces {
                _ = SVGPlot.histogram(s, corpus: a.corpus.name, source: a.source)
                _ = SVGPlot.ablation(s, corpus: a.corpus.name, source: a.source)
            }
        }
    }

    /// A grid part: gathered alone, rendered, and its names put through the Slurm scripts.
    package static func parseGrid(_ data: Data) throws {
        let part = try GridPart.decode(data, name: "fuzz.json")
        let plan = ExperimentPlan(name: part.results.name, corpora: part.corpora.map { _ in CorpusSpec(name: "seed-12") })
        let results = try GridPart.gather(
            [part], names: ["fuzz.json"], plan: plan, planChecksum: part.planChecksum, command: [],
            createdAt: Date(timeIntervalSince1970: 0), checksum: { part.results.provenance.inputs[$0] })
        precondition(results.analyses.count <= part.results.analyses.count)
        _ = results.markdown()
        try Self.checkScripts(names: [results.name] + results.analyses.map(\.corpus.name) + results.analyses.map(\.source))
    }

    /// A pair-pass part: merged alone, it holds every pair it counts, and its summary renders.
    package static func parsePart(_ data: Data) throws {
        let part = try PairPartial.decode(data, name: "fuzz.json")
        let merged = try PairPartial.merge([part])
        precondition(merged.all.count == part.related.count + part.unrelated.count)
        _ = PairPartial.mergedForest([part])?.labels(atLeast: 0.5)
        _ = PairsSummary(
            provenance: .current(command: [], inputs: [:]), items: part.items, dimensions: part.dimensions,
            bins: part.related.histogram.count, distribution: merged
        ).markdown()
    }

    /// A tokenizer.json normalizer (the bytes before the first NUL, as JSON) run on a text (the bytes after it): a chain
    /// that loads lengthens no text beyond its bound, and the tokenizer's ids fit the sequence.
    package static func parseNormalizer(_ data: Data) throws {
        let cut = data.firstIndex(of: 0) ?? data.endIndex
        guard let normalizer = try? JSONSerialization.jsonObject(with: data[..<cut], options: [.fragmentsAllowed]) else {
            throw ThemeLabError.input("fuzz: the normalizer is not JSON")
        }
        let text = String(decoding: data[cut...].dropFirst(), as: UTF8.self)
        let model: [String: Any] = ["type": "WordPiece", "unk_token": "[UNK]", "vocab": ["[UNK]": 0, "[CLS]": 1, "[SEP]": 2, "a": 3]]
        let json: [String: Any] = [
            "normalizer": normalizer, "pre_tokenizer": ["type": "BertPreTokenizer"], "model": model,
            "post_processor": ["type": "BertProcessing", "cls": ["[CLS]", 1], "sep": ["[SEP]", 2]],
        ]
        let pipeline = try TokenizerPipeline(json, file: "fuzz/tokenizer.json", maxLength: 8)
        let normalized = pipeline.normalizers.reduce(text) { $1.apply($0) }
        precondition(
            normalized.unicodeScalars.count <= TextNormalizer.maxGrowth * text.unicodeScalars.count + TextNormalizer.maxAdded,
            "a normalizer chain lengthened \(text.unicodeScalars.count) code points to \(normalized.unicodeScalars.count)")
        precondition((2...8).contains(pipeline.encode(text).count))
    }

    /// A bridge forest file: one that is accepted is a forest whose edges match their digest, seeds a spanning forest
    /// and passes the check against its own inputs and shape.
    package static func parseBridge(_ data: Data) throws {
        let bridge = try BridgeForest.decode(data, name: "fuzz.json")
        precondition(BridgeForest.digest(of: bridge.edges) == bridge.edgesDigest && bridge.edges.count < bridge.items)
        guard bridge.items <= 1 << 20, bridge.kernel == BLASRuntime.corename else { return }
        SpanningForest(items: bridge.items).seed(bridge.edges)
        try bridge.check(inputChecksums: bridge.inputChecksums, items: bridge.items, dimensions: bridge.dimensions, name: "fuzz.json")
    }

    /// The assignments writer on items made of the input (its text cut at U+001E into id, text and label, three fields an
    /// item), in the cells of a small analysis with groups of three and noise: the CSV read back by the harness's reader
    /// gives every row's fields as they were, no text field begins with a formula character as written, and each JSON
    /// line decodes to its row.
    package static func writeAssignments(_ data: Data) throws {
        let fields = String(decoding: data, as: UTF8.self).split(separator: "\u{1E}", omittingEmptySubsequences: false).map(String.init)
        let triples = stride(from: 0, to: fields.count - 2, by: 3).prefix(256).map { Array(fields[$0..<$0 + 3]) }
        let labelled = triples.allSatisfy { !$0[2].isEmpty }
        var a = assignmentsTemplate
        a.items = triples.map { CorpusItem(id: $0[0], text: $0[1].isEmpty ? nil : $0[1], label: labelled ? $0[2] : nil) }
        let labels = a.items!.indices.map { Int32($0 % 4 == 3 ? -1 : $0 % 3) }
        let x = Matrix(rows: labels.count, cols: 2, storage: labels.indices.flatMap { [Float($0 % 5) + 1, 1] })
        for s in a.spaces.indices {
            for g in a.spaces[s].groupings.indices { a.spaces[s].groupings[g].members = GroupMembers(labels: labels, vectors: x) }
        }
        var rows: [AssignmentsReport.Row] = []
        try AssignmentsReport.forEachRow(a) { rows.append($0) }
        var csv = ""
        try AssignmentsReport.write([a], as: .init(kind: .csv), to: { csv += $0 })
        let records = try DelimitedText.records(csv, delimiter: ",", file: "fuzz.csv")
        precondition(records.count == rows.count + 1 && records[0].fields == AssignmentsReport.csvTable.names, "rows split or lost")
        let kinds = AssignmentsReport.csvTable.columns.map(\.kind)
        for (record, row) in zip(records.dropFirst(), rows) {
            precondition(record.fields.count == kinds.count, "a row of \(record.fields.count) fields")
            for (k, kind) in kinds.enumerated() {
                precondition((kind == .text ? record.text(k) : record.fields[k]) == row.csvFields[k], "field \(k) changed")
                precondition(kind == .number || !CSVTable.formulaStarts.contains(record.fields[k].utf8.first ?? 0), "a raw formula")
            }
        }
        var jsonl = ""
        try AssignmentsReport.write([a], as: .init(kind: .jsonl), to: { jsonl += $0 })
        let lines = jsonl.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        precondition(lines.count == rows.count, "a JSON line split or lost")
        for (line, row) in zip(lines, rows) {
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            precondition(object?["id"] as? String == row.id && object?["text"] as? String == row.text, "a JSON line changed")
        }
    }

    /// An analysis of four items in the raw space at one rule, cut by components and leader: its two cells take each
    /// input's items and groups.
    static let assignmentsTemplate: CorpusAnalysis = {
        var settings = AnalysisSettings()
        (settings.spaces, settings.rules, settings.shuffles) = ([.raw], [try! thresholdRule(named: "fixed(0.9)")], 0)
        settings.groupings = [try! grouping(named: "components"), try! grouping(named: "leader")]
        let items = (0..<4).map { CorpusItem(id: "\($0)", label: "t\($0 % 2)") }
        let vectors = Matrix(rows: 4, cols: 2, storage: [1, 0, 1, 0.1, 0, 1, 0.1, 1])
        return try! Analysis(settings: settings).run(corpus: Corpus(name: "fuzz", items: items), vectors: vectors, source: "fuzz")
    }()

    package static let modelFiles = [
        "config.json", "vocab.txt", "tokenizer_config.json", "sentence_bert_config.json", "1_Pooling/config.json", "modules.json",
        "tokenizer.json",
    ]

    /// A tiny valid BERT folder's text files (no weights: the tokenizer and configuration only).
    package static let minimalModel: [String: String] = [
        "config.json": #"{"num_hidden_layers": 1, "hidden_size": 4, "num_attention_heads": 2, "intermediate_size": 8, "#
            + #""max_position_embeddings": 16, "vocab_size": 12, "layer_norm_eps": 1e-12, "hidden_act": "gelu"}"#,
        "vocab.txt": "[PAD]\n[UNK]\n[CLS]\n[SEP]\nfuzz\n##ing\ncafe\nna\n##ive\n!\n:\n東\n",
        "tokenizer_config.json": #"{"do_lower_case": true}"#,
        "sentence_bert_config.json": #"{"max_seq_length": 8}"#,
        "1_Pooling/config.json": #"{"pooling_mode_mean_tokens": true}"#,
        "modules.json": #"[{"type": "x.Transformer"}, {"type": "x.Pooling", "path": "1_Pooling"}, {"type": "x.Normalize"}]"#,
        "tokenizer.json": #"{"normalizer": {"type": "BertNormalizer", "lowercase": true}, "pre_tokenizer": {"type": "BertPreTokenizer"}, "#
            + #""model": {"type": "WordPiece", "unk_token": "[UNK]", "vocab": {"[PAD]": 0, "[UNK]": 1, "[CLS]": 2, "[SEP]": 3, "fuzz": 4, "#
            + #""ing": 5, "cafe": 6}}, "post_processor": {"type": "BertProcessing", "cls": ["[CLS]", 2], "sep": ["[SEP]", 3]}}"#,
    ]

    /// A per-process scratch folder (fuzzing runs one input at a time).
    package static let scratch: String = {
        let folder = NSTemporaryDirectory() + "themelab-fuzz-\(getpid())"
        try? FileManager.default.createDirectory(atPath: folder + "/model/1_Pooling", withIntermediateDirectories: true)
        return folder
    }()

    package static func scratchFile(_ name: String, _ data: Data) throws -> String {
        let path = "\(scratch)/\(name)"
        guard FileManager.default.createFile(atPath: path, contents: data) else { throw ThemeLabError.input("\(path): cannot write") }
        return path
    }

    package static func scratchModelFolder(replacing file: String, with data: Data) throws -> String {
        let folder = "\(scratch)/model"
        for (name, text) in minimalModel {
            guard FileManager.default.createFile(atPath: "\(folder)/\(name)", contents: name == file ? data : Data(text.utf8)) else {
                throw ThemeLabError.input("\(folder)/\(name): cannot write")
            }
        }
        _ = FileManager.default.createFile(atPath: "\(folder)/model.safetensors", contents: Data())
        return folder
    }
}
