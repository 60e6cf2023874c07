import Foundation
import Testing
import ThemeLabCore
import ThemeLabCorpus
import ThemeLabPairs

/// Corpora through the registry, on real rows: the committed seeds and CLINC150 (Datasets/), WordNet
/// from Debian's wordnet-base.
@Suite struct DatasetTests {
    @Test func seedsHaveTheirShapes() throws {
        let twelve = try DatasetRegistry.load(CorpusSpec(name: "seed-12")).corpus
        #expect(twelve.count == 12)
        var sizes: [String: Int] = [:]
        for i in twelve.items { sizes[i.label!, default: 0] += 1 }
        #expect(sizes.values.sorted(by: >) == [4, 3, 3, 2])
        // 66 pairs, 6 + 3 + 3 + 1 = 13 same-topic.
        let topics = twelve.labelIndices()!
        var related = 0
        for i in 0..<12 { for j in (i + 1)..<12 where topics[i] == topics[j] { related += 1 } }
        #expect(related == 13)
        let twentySix = try DatasetRegistry.load(CorpusSpec(name: "seed-26")).corpus
        #expect(twentySix.count == 26 && Set(twentySix.items.map(\.label)).count == 6)
        #expect(ContentWords.disjointSameTopicShare(twelve) == 1)
        #expect(ContentWords.of("I think I said the wrong thing in standup.") == ["think", "said", "wrong", "thing", "standup"])
    }

    @Test func clinc150LoadsRealRowsWithBothLevelsAndSubsamples() throws {
        var spec = CorpusSpec(name: "clinc150")
        let loaded = try DatasetRegistry.load(spec, dataDirectory: nil)
        #expect(loaded.files.allSatisfy { $0.hasSuffix(".json") && $0.contains("Datasets/clinc150/") }, "the repository's copy by default")
        let test = loaded.corpus
        #expect(test.count == 4500 && Set(test.items.map(\.label)).count == 150)
        #expect(test.items[0].text != nil && test.items[0].group2 != nil)
        spec.level = "domain"
        #expect(Set(try DatasetRegistry.load(spec).corpus.items.map(\.label)).count == 10)
        spec = CorpusSpec(name: "clinc150")
        spec.split = "train"
        spec.intents = 5
        spec.perIntent = 7
        spec.seed = 3
        let sub = try DatasetRegistry.load(spec).corpus
        #expect(sub.count == 35 && Set(sub.items.map(\.label)).count == 5 && sub.name == "clinc150-train-5ix7-seed3")
        #expect(try DatasetRegistry.load(spec).corpus == sub, "seeded")
        spec.split = "dev"
        #expect(errorMessage { _ = try DatasetRegistry.load(spec) }?.contains("no split 'dev'") == true)
        #expect(
            errorMessage { _ = try DatasetRegistry.load(CorpusSpec(name: "clinc150"), dataDirectory: "/nonexistent") }?.contains(
                "not found") == true)
    }

    /// `DatasetRegistry.files` (what the stage keys hash, without parsing) names exactly what each loader reads: with only
    /// the listed files in a data folder every corpus read from one loads, and without any one of them it does not, and
    /// listing them then gives the loader's own error, naming the file.
    @Test func theRegistryNamesTheFilesEachLoaderReads() throws {
        let entries = ["clinc150"] + CarriedCorpus.all.map(\.name)
        for name in entries {
            let spec = CorpusSpec(name: name)
            let dir = temporaryFolder()
            let original = try DatasetRegistry.files(spec)
            #expect(!original.isEmpty, "\(name)")
            let copies = original.map { dir + "/" + $0.split(separator: "/").suffix(2).joined(separator: "/") }
            for (from, to) in zip(original, copies) {
                try FileManager.default.createDirectory(
                    atPath: (to as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
                try FileManager.default.copyItem(atPath: from, toPath: to)
            }
            #expect(try DatasetRegistry.load(spec, dataDirectory: dir).files == copies, "\(name)")
            for copy in copies {
                try FileManager.default.moveItem(atPath: copy, toPath: copy + ".away")
                let loading = errorMessage { _ = try DatasetRegistry.load(spec, dataDirectory: dir) }
                let listing = errorMessage { _ = try DatasetRegistry.files(spec, dataDirectory: dir) }
                #expect(loading?.hasPrefix("\(copy): ") == true && listing == loading, "\(name): \(listing ?? "listed")")
                try FileManager.default.moveItem(atPath: copy + ".away", toPath: copy)
            }
        }
        #expect(try DatasetRegistry.files(CorpusSpec(name: "synthetic")).isEmpty)
        #expect(try DatasetRegistry.files(CorpusSpec(name: "seed-12")).map { $0.hasSuffix("Datasets/seed-12.jsonl") } == [true])
    }

    @Test func clinc150IsCheckedAgainstItsChecksum() throws {
        let dir = temporaryFolder()
        try FileManager.default.createDirectory(atPath: dir + "/clinc150", withIntermediateDirectories: true)
        let original = try #require(ProjectFiles.locate("Datasets/clinc150"))
        try FileManager.default.copyItem(atPath: original + "/domains.json", toPath: dir + "/clinc150/domains.json")
        var bytes = try Data(contentsOf: URL(fileURLWithPath: original + "/data_full.json"))
        bytes[bytes.count / 2] ^= 1
        try bytes.write(to: URL(fileURLWithPath: dir + "/clinc150/data_full.json"))
        let message = errorMessage { _ = try DatasetRegistry.load(CorpusSpec(name: "clinc150"), dataDirectory: dir) }
        #expect(message?.contains("data_full.json: SHA-256") == true && message?.contains("is not CLINC150's") == true, "\(message ?? "")")
    }

    @Test func wordnetCorporaParseDebianData() throws {
        let domains = try WordNet.domains(minimumTopicSize: 20)
        #expect(domains.count > 1000)
        let cell = try #require(domains.items.first { $0.id == "wn-n00006484" })
        #expect(cell.text!.hasPrefix("cell: (biology) the basic structural and functional unit") && cell.label == "biology")
        let lexnames = try WordNet.lexnames(minimumTopicSize: 20)
        #expect(Set(lexnames.items.map(\.label)).contains("noun.food"))
        #expect(lexnames.items.allSatisfy { !($0.text ?? "").hasPrefix("\"") })
    }

    @Test func syntheticPresetReproducesTheAppsRawBand() throws {
        let loaded = try DatasetRegistry.load(CorpusSpec(name: "synthetic"))
        let x = try #require(loaded.vectors)
        let d = PairEngine().run(x, labels: loaded.corpus.labelIndices())
        let u = try #require(d.statistics(.unrelated))
        #expect(u.p1 > 0.80 && u.p99 - u.p1 < 0.15, "unrelated raw band \(u.p1)…\(u.p99)")
        #expect(x.cols == 512)
    }

    /// Every parameter that changes a corpus is in its name, so rows and files of two corpora never collide.
    @Test func corporaThatDifferHaveDifferentNames() throws {
        var a = CorpusSpec(name: "synthetic")
        a.generator = SyntheticVectors.journalMethodRaw()
        var b = a
        b.generator!.noise += 0.1
        var c = a
        c.seed = 7
        let names = try [a, b, c].map { try DatasetRegistry.load($0).corpus.name }
        #expect(Set(names).count == 3 && names.allSatisfy { $0.hasPrefix("synthetic-a2.4-t8-") }, "\(names)")
        #expect(try DatasetRegistry.load(a).corpus.name == names[0], "the same generator, the same name")
        var clinc = CorpusSpec(name: "clinc150")
        clinc.intents = 5
        let first = try DatasetRegistry.load(clinc).corpus.name
        clinc.seed = 1
        let second = try DatasetRegistry.load(clinc).corpus.name
        clinc.includeOutOfScope = true
        let third = try DatasetRegistry.load(clinc).corpus.name
        #expect([first, second, third] == ["clinc150-test-5i-seed0", "clinc150-test-5i-seed1", "clinc150-test-5i-seed1-oos"])
    }

    @Test func unknownCorpusIsAUsageError() {
        #expect(errorMessage { _ = try DatasetRegistry.load(CorpusSpec(name: "imdb")) }?.hasPrefix("unknown corpus 'imdb'") == true)
    }
}
