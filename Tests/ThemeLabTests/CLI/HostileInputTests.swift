import Foundation
import Testing
import ThemeLabCore
import ThemeLabCorpus
import ThemeLabEncoder
import ThemeLabMethods

/// Files a hostile or careless user could hand the harness: each is refused with a message naming
/// the file and the field, or handled as the reference tools handle it; none traps or silently
/// gives a wrong number.
@Suite struct HostileFileTests {
    @Test func safetensorsHolesOverlapsAndAShiftedHeaderAreRefused() throws {
        let hole = try safetensorsFile(
            header: #"{"a":{"dtype":"F32","shape":[1],"data_offsets":[0,4]},"b":{"dtype":"F32","shape":[1],"data_offsets":[8,12]}}"#,
            data: floatBytes([1, 2, 3]))
        #expect(
            errorMessage { _ = try SafeTensors(path: hole) }?.contains(
                "bytes 4..<8 of the data section belong to no tensor (a hole before 'b')") == true)
        let overlap = try safetensorsFile(
            header: #"{"a":{"dtype":"F32","shape":[2],"data_offsets":[0,8]},"b":{"dtype":"F32","shape":[2],"data_offsets":[4,12]}}"#,
            data: floatBytes([1, 2, 3]))
        #expect(
            errorMessage { _ = try SafeTensors(path: overlap) }?.contains("tensor 'b' (bytes 4..<12) overlaps the tensor before it") == true
        )
        // The header padded with spaces, as writers pad it, and its length stated 4 short: every
        // weight would be read 4 bytes early.
        let header = #"{"a":{"dtype":"F32","shape":[2],"data_offsets":[0,8]}}"# + "    "
        var bytes = Data()
        withUnsafeBytes(of: UInt64(header.utf8.count - 4).littleEndian) { bytes.append(contentsOf: $0) }
        bytes.append(contentsOf: Array(header.utf8) + floatBytes([1, 2]))
        let shifted = temporaryFolder() + "/m.safetensors"
        try AtomicFile.write(bytes, to: shifted)
        #expect(
            errorMessage { _ = try SafeTensors(path: shifted) }?.contains("bytes 8..<12 of the data section belong to no tensor") == true)
    }

    @Test func shapesWhoseProductOverflowAreRefused() throws {
        let huge = try safetensorsFile(
            header: #"{"a":{"dtype":"F32","shape":[4611686018427387904,4],"data_offsets":[0,4]}}"#, data: floatBytes([1]))
        #expect(errorMessage { _ = try SafeTensors(path: huge) }?.contains("needs more than Int.max") == true)
        var npy = NPY.encode(Matrix(rows: 1, cols: 1, storage: [1]))
        let header = "{'descr': '<f4', 'fortran_order': False, 'shape': (4611686018427387904, 4), }"
        npy.replaceSubrange(10..<(10 + header.utf8.count), with: Array(header.utf8))
        #expect(
            errorMessage { _ = try NPY.decode(npy, name: "x.npy") }?.contains(
                "x.npy: data is 4 bytes, shape (4611686018427387904, 4) of <f4 needs more than Int.max") == true)
        // No rows of an impossible width (a fuzzer's find: the row size overflowed when the rows were read).
        var empty = NPY.encode(Matrix(rows: 0, cols: 1, storage: []))
        let wide = "{'descr': '<f4', 'fortran_order': False, 'shape': (0, 4611686018427387904), }"
        empty.replaceSubrange(10..<(10 + wide.utf8.count), with: Array(wide.utf8))
        #expect(
            errorMessage { _ = try NPY.decode(empty, name: "w.npy") }?.contains(
                "w.npy: shape (0, 4611686018427387904) of <f4: a row needs more than Int.max bytes") == true)
    }

    @Test func aNonFiniteWeightIsRefusedNamingTheTensor() throws {
        let path = try safetensorsFile(header: #"{"w":{"dtype":"F32","shape":[2],"data_offsets":[0,8]}}"#, data: floatBytes([1, .nan]))
        #expect(
            errorMessage { _ = try SafeTensors(path: path).floats("w", shape: [2]) }?.contains(
                "tensor 'w' has a non-finite value (nan) at flat index 1") == true)
    }

    @Test func labelsEqualOnlyAfterUnicodeNormalisationStayApart() {
        // scikit-learn compares code points: "é" (U+00E9) and "e" + U+0301 are two topics.
        let corpus = Corpus(
            name: "c",
            items: [CorpusItem(id: "1", label: "\u{E9}"), CorpusItem(id: "2", label: "e\u{301}"), CorpusItem(id: "3", label: "\u{E9}")])
        #expect(corpus.labelIndices() == [0, 1, 0])
        #expect(corpus.topicSizes == [2, 1])
    }

    @Test func aCSVWithCarriageReturnsOnlyIsRead() throws {
        let corpus = try CorpusReader.parseDelimited(
            Data("id,text,label\r1,a,x\r2,\"b\rc\",y\r".utf8), delimiter: ",", file: "c.csv", name: "c")
        #expect(corpus.items.map(\.id) == ["1", "2"] && corpus.items[1].text == "b\rc" && corpus.labelIndices() == [0, 1])
    }

    @Test func aRowWithADenormalNormBecomesAUnitVector() throws {
        let u = try unitRows(Matrix(rows: 1, cols: 3, storage: [3e-41, 4e-41, 0]))
        #expect(u.storage.allSatisfy { $0.isFinite })
        #expect(
            u[0, 0].isApproximatelyEqual(to: 0.6, absoluteTolerance: 1e-4) && u[0, 1].isApproximatelyEqual(to: 0.8, absoluteTolerance: 1e-4)
        )  // denormals carry ~15 bits
    }

    @Test func aLeaderGroupWhoseMembersCancelKeepsAFiniteCentroid() throws {
        // e₁ starts group 0; −e₁ joins it at t = −1 (similarity −1), so its sum is zero. The zero
        // centroid scores 0 ≥ −1 for the next e₁, which joins too; a NaN centroid rejected it.
        let x = Matrix(rows: 3, cols: 2, storage: [1, 0, -1, 0, 1, 0])
        #expect(try LeaderAlgorithm.group(x, threshold: -1) == [0, 0, 0])
        #expect(try LeaderAlgorithm.group(x, threshold: 0.5) == [0, 1, 0])
    }

    @Test func anIntentMissingFromTheDomainsIsRefused() throws {
        let folder = temporaryFolder()
        let source = try #require(ProjectFiles.locate("Datasets/clinc150"))
        try FileManager.default.copyItem(atPath: source + "/data_full.json", toPath: folder + "/data_full.json")
        var domains = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: source + "/domains.json"))) as? [String: [String]])
        domains["banking"]!.removeFirst()
        try AtomicFile.write(try JSONSerialization.data(withJSONObject: domains), to: folder + "/domains.json")
        // Its checksum guards the file; the per-intent check stands behind it.
        #expect(
            errorMessage { _ = try CLINC150.load(folder: folder, options: .init()) }?.contains(
                "domains.json: missing, or not CLINC150's domains.json") == true)
    }

    @Test func filesWrittenTogetherAreAllOrNothing() throws {
        let folder = temporaryFolder()
        try AtomicFile.write(Data("x".utf8), to: folder + "/plain")
        // The second file cannot be written (its folder would be inside a file): the first must not appear.
        #expect(
            errorMessage { try AtomicFile.write([(Data("a".utf8), folder + "/a.jsonl"), (Data("b".utf8), folder + "/plain/b.npy")]) } != nil
        )
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).sorted() == ["plain"])
    }
}

/// A model folder with one file changed: the others linked from the bootstrap folder, or copied (`copied`: a test that
/// writes the weights must not reach the bootstrap's through a link).
func modelFolder(changing file: String? = nil, copied: Bool = false, to contents: (String) -> String = { $0 }) throws -> String {
    let source = try #require(ModelFolder.bootstrapFolder(), "model folder needed (run scripts/bootstrap)")
    let folder = temporaryFolder() + "/model"
    try FileManager.default.createDirectory(atPath: folder + "/1_Pooling", withIntermediateDirectories: true)
    for name in ["model.safetensors"] + ModelFolder.standardConfigurationFiles {
        guard FileManager.default.fileExists(atPath: "\(source)/\(name)") else { continue }
        if name == file {
            try AtomicFile.write(contents(try String(contentsOfFile: "\(source)/\(name)", encoding: .utf8)), to: "\(folder)/\(name)")
        } else if copied {
            try FileManager.default.copyItem(atPath: "\(source)/\(name)", toPath: "\(folder)/\(name)")
        } else {
            try FileManager.default.createSymbolicLink(atPath: "\(folder)/\(name)", withDestinationPath: "\(source)/\(name)")
        }
    }
    return folder
}

@Suite(.serialized) struct HostileModelTests {
    @Test func configValuesThatWouldGiveNonFiniteVectorsOrNoTokensAreRefused() throws {
        let eps = try modelFolder(changing: "config.json") {
            $0.replacingOccurrences(of: #""layer_norm_eps": 1e-12"#, with: #""layer_norm_eps": -1e-12"#)
        }
        #expect(
            errorMessage { _ = try ModelFolder(path: eps).configuration() }?.contains(
                "config.json: 'layer_norm_eps' must be a small positive number") == true)
        let short = try modelFolder(changing: "sentence_bert_config.json") { $0.replacingOccurrences(of: "256", with: "1") }
        #expect(errorMessage { _ = try ModelFolder(path: short).configuration() }?.contains("max_seq_length") == true)
    }

    @Test func aVocabularyLongerThanTheEmbeddingTableIsRefused() throws {
        let folder = try modelFolder(changing: "vocab.txt") { $0 + "extra-token\n" }
        let c = try ModelFolder(path: folder).configuration()
        #expect(
            errorMessage { _ = try WordPieceTokenizer(folder: ModelFolder(path: folder), configuration: c) }?
                .contains("vocab.txt: token 'extra-token' on line 30523 has id 30522, but config.json's vocab_size is 30522") == true)
    }

    @Test func aCRLFVocabularyGivesTheSameIDs() throws {
        let folder = try modelFolder(changing: "vocab.txt") { $0.replacingOccurrences(of: "\n", with: "\r\n") }
        let c = try ModelFolder(path: folder).configuration()
        let crlf = try WordPieceTokenizer(folder: ModelFolder(path: folder), configuration: c)
        let lf = try WordPieceTokenizer(folder: ModelFolder(path: try #require(ModelFolder.bootstrapFolder())), configuration: c)
        #expect(
            crlf.encode("Journaling every evening, I keep coming back to sleep.")
                == lf.encode("Journaling every evening, I keep coming back to sleep."))
        #expect(crlf.pipeline.model.names == lf.pipeline.model.names)
    }

    @Test func theCacheNeverReturnsVectorsOfAnotherVocabularyOrConfiguration() throws {
        let base = try SentenceEncoder(folder: ModelFolder(path: try modelFolder()))
        let changed = try SentenceEncoder(
            folder: ModelFolder(
                path: try modelFolder(changing: "sentence_bert_config.json") { $0.replacingOccurrences(of: "256", with: "8") }))
        #expect(base.modelHash == changed.modelHash && base.cacheIdentity != changed.cacheIdentity)
        let cache = temporaryFolder()
        let text = "a sentence long enough to be cut at eight tokens by the changed configuration"
        var first = try EmbeddingCache(folder: cache, encoder: base, layer: 6)
        let full = try base.embed([text], layer: 6, cache: &first)
        var second = try EmbeddingCache(folder: cache, encoder: changed, layer: 6)
        let cut = try changed.embed([text], layer: 6, cache: &second)
        let direct = try changed.embed([text], layer: 6)
        #expect(full.storage != cut.storage && cut.storage == direct.storage)
        // A cache file renamed to pose as another encoder's is refused.
        try FileManager.default.removeItem(atPath: second.file)
        try FileManager.default.copyItem(atPath: first.file, toPath: second.file)
        #expect(
            errorMessage { _ = try EmbeddingCache(folder: cache, encoder: changed, layer: 6) }?.contains(
                "not an embedding cache of this encoder") == true)
    }

    @Test func canonicallyEquivalentTextsAreEmbeddedApart() throws {
        let encoder = try SentenceEncoder.shared(folder: ModelFolder.locate())
        var cache = try EmbeddingCache(folder: temporaryFolder(), encoder: encoder, layer: 6)
        let texts = ["caf\u{E9} every morning", "cafe\u{301} every morning"]
        let vectors = try encoder.embed(texts, layer: 6, cache: &cache)
        #expect(vectors.rows == 2 && cache.count == 2)
        #expect(Array(vectors.row(0)) == Array(try encoder.embed([texts[0]], layer: 6).row(0)))
        #expect(Array(vectors.row(1)) == Array(try encoder.embed([texts[1]], layer: 6).row(0)))
    }
}

/// Weights that change under the harness, and a cache that cannot be written.
@Suite struct WeightsAndCacheTests {
    /// The weights are read into memory: a file truncated or rewritten after loading changes no vector and ends no
    /// process with SIGBUS; loading the truncated file is refused naming it.
    @Test func weightsChangedAfterLoadingChangeNoVector() throws {
        let folder = try modelFolder(copied: true)
        let encoder = try SentenceEncoder(folder: ModelFolder(path: folder))
        let before = try encoder.embed(["a journal entry about the sea"], layer: encoder.configuration.layers)
        let weights = try FileHandle(forUpdating: URL(fileURLWithPath: folder + "/model.safetensors"))
        try weights.truncate(atOffset: 1000)
        try weights.close()
        let after = try encoder.embed(["a journal entry about the sea"], layer: encoder.configuration.layers)
        #expect(after.storage.map(\.bitPattern) == before.storage.map(\.bitPattern))
        #expect(
            errorMessage { _ = try SentenceEncoder(folder: ModelFolder(path: folder)) }?.hasPrefix(folder + "/model.safetensors") == true)
    }

    @Test func aCacheThatCannotBeWrittenIsFoundBeforeTheWork() throws {
        let folder = temporaryFolder()
        try AtomicFile.write("{\"id\":\"a\",\"text\":\"hello\"}\n", to: folder + "/c.jsonl")
        let r = try CLI.launch(
            ["embed", "--corpus", folder + "/c.jsonl", "--out", folder + "/x.npy"], environment: ["THEMELAB_CACHE": "/dev/null/x"])
        #expect(
            r.status == 1
                && r.stderr == "themelab: /dev/null/x: the embedding cache cannot be written there (Not a directory); set "
                    + "THEMELAB_CACHE to a writable folder, or pass --no-cache\n",
            "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder + "/x.npy"))
    }
}
