import Foundation
import Testing
import ThemeLabCore
import ThemeLabCorpus

/// The carried corpora (HINT3, SNIPS, the NLU evaluation corpora, DailyDialog) through the registry, on their real rows
/// (Datasets/), and the checks every carried file gets.
@Suite struct CarriedCorpusTests {
    /// Name, items, topics, the largest and smallest topic, and the first item's text and label.
    @Test(arguments: [
        (
            "dailydialog", 996, 10, 333, 5,
            "So Dick , how about getting some coffee for tonight ? Coffee ? I don ’ t honestly like that kind of stuff .", "ordinary life"
        ),
        ("snips", 700, 7, 100, 100, "I'd like to have this track onto my Classical Relaxations playlist.", "AddToPlaylist"),
        ("hint3-powerplay11", 471, 57, 42, 1, "I want to know about offers and referral programs", "OFFERS_AND_REFERRALS"),
        ("hint3-curekart", 599, 28, 95, 3, "What time is your call centre operational during COVID?", "CALL_CENTER"),
        ("hint3-sofmattress", 328, 21, 34, 9, "You guys provide EMI option?", "EMI"),
        ("askubuntu", 154, 4, 57, 23, "What software can I use to view epub documents?", "Software Recommendation"),
        ("webapplications", 83, 7, 23, 1, "Alternative to Facebook", "Find Alternative"),
        ("chatbot-munich", 206, 2, 128, 78, "i want to go marienplatz", "FindConnection"),
    ])
    func loadsRealRows(
        _ name: String, _ items: Int, _ topics: Int, _ largest: Int, _ smallest: Int, _ first: String, _ label: String
    ) throws {
        let loaded = try DatasetRegistry.load(CorpusSpec(name: name))
        let c = loaded.corpus
        #expect(c.count == items && c.topicSizes.count == topics)
        #expect(c.topicSizes.max() == largest && c.topicSizes.min() == smallest)
        #expect(
            c.items.first.map { ($0.text ?? "").hasPrefix(first) && $0.label == label } == true, "\(c.items.first.map { "\($0)" } ?? "")")
        #expect(Set(c.items.map(\.id)).count == items, "ids are unique")
        #expect(loaded.files.allSatisfy { $0.contains("/Datasets/") }, "the repository's copy by default")
    }

    /// The powerplay11 row whose third column is a curator's note keeps only its sentence and label; DailyDialog's turns
    /// lose their `__eou__` markers; Ask Ubuntu's 8 questions of intent None are left out (162 in the file).
    @Test func formatsAreReadAsDocumented() throws {
        let powerplay = try DatasetRegistry.load(CorpusSpec(name: "hint3-powerplay11")).corpus
        let note = try #require(powerplay.items.first { $0.id == "61" })
        #expect(note.text == "Where is my withdraw" && note.label == "WITHDRAWAL_INTRO")
        let dialog = try DatasetRegistry.load(CorpusSpec(name: "dailydialog")).corpus
        #expect(!dialog.items.contains { ($0.text ?? "").contains("__eou__") })
        let ubuntu = try DatasetRegistry.load(CorpusSpec(name: "askubuntu")).corpus
        #expect(!ubuntu.items.contains { $0.label == "None" } && ubuntu.items.last?.id == "161")
    }

    /// One flipped bit in a carried file is an error naming the file and where its checksum is written; a missing file too.
    @Test(arguments: CarriedCorpus.all)
    func everyFileIsCheckedAgainstItsChecksum(_ carried: CarriedCorpus) throws {
        let dir = temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let original = try #require(ProjectFiles.locate("Datasets/\(carried.folder)"))
        try FileManager.default.createDirectory(atPath: "\(dir)/\(carried.folder)", withIntermediateDirectories: true)
        let missing = errorMessage { _ = try carried.load(dataDirectory: dir) }
        #expect(
            missing
                == "\(dir)/\(carried.folder)/\(carried.files[0].name): not found (the repository carries it in Datasets/\(carried.folder)/)"
        )
        for (n, f) in carried.files.enumerated() {
            var bytes = try Data(contentsOf: URL(fileURLWithPath: "\(original)/\(f.name)"))
            if n == carried.files.count - 1 { bytes[bytes.count / 2] ^= 1 }
            try bytes.write(to: URL(fileURLWithPath: "\(dir)/\(carried.folder)/\(f.name)"))
        }
        let message = errorMessage { _ = try DatasetRegistry.load(CorpusSpec(name: carried.name), dataDirectory: dir) }
        let last = carried.files[carried.files.count - 1].name
        #expect(message?.hasPrefix("\(dir)/\(carried.folder)/\(last): SHA-256 ") == true, "\(message ?? "")")
        #expect(message?.hasSuffix("is not \(carried.name)'s \(carried.files.last!.sha256) (Datasets/\(carried.folder)/SOURCE.md)") == true)
    }

    /// Every carried folder has its licence and a SOURCE.md naming each file's SHA-256.
    @Test(arguments: CarriedCorpus.all)
    func everyFolderCarriesItsLicenceAndSource(_ carried: CarriedCorpus) throws {
        let folder = try #require(ProjectFiles.locate("Datasets/\(carried.folder)"))
        let listing = try FileManager.default.contentsOfDirectory(atPath: folder)
        #expect(listing.contains { $0.hasPrefix("LICENSE") })
        let source = try String(contentsOfFile: folder + "/SOURCE.md", encoding: .utf8)
        for f in carried.files { #expect(source.contains(f.sha256) && source.contains(f.name), "\(f.name)") }
    }
}

extension CarriedCorpus: CustomTestStringConvertible {
    public var testDescription: String { name }
}
