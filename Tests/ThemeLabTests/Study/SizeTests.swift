import Foundation
import Testing
import ThemeLabCore
import ThemeLabCorpus
import ThemeLabMeasures
import ThemeLabMethods
import ThemeLabReport
import ThemeLabRun
import ThemeLabStudy

/// The size experiment: its stratified samples by hand, the smallest size and the size-aware choice on figures made by
/// hand, its file's refusals, and one small run end to end (twice, the same bytes).
@Suite struct SizeTests {
    /// Topics of 5, 3 and 2 items, 4 kept: quotas 2, 1.2 and 0.8, so 2, 1 and 0 by the floor, and the one left goes to
    /// the largest remainder, the third topic's (0.8): 2, 1, 1. Four topics of one, 3 kept: equal remainders, a seeded
    /// choice of three topics.
    @Test func stratifiedSamplesApportionByLargestRemainder() {
        let labels: [Int32] = [0, 1, 0, 2, 0, 1, 0, 2, 1, 0]
        for seed in 0..<20 {
            let kept = stratifiedSample(labels: labels, count: 4, seed: UInt64(seed))
            #expect(kept == kept.sorted() && Set(kept).count == 4)
            #expect([0, 1, 2].map { t in kept.filter { labels[$0] == t }.count } == [2, 1, 1], "seed \(seed): \(kept)")
        }
        let chosen = Set((0..<20).map { stratifiedSample(labels: [0, 1, 2, 3], count: 3, seed: UInt64($0)) })
        #expect(chosen.allSatisfy { $0.count == 3 } && chosen.count > 1, "\(chosen)")
        #expect(stratifiedSample(labels: labels, count: 10, seed: 1) == Array(0..<10))
        #expect(stratifiedSample(labels: labels, count: 4, seed: 3) == stratifiedSample(labels: labels, count: 4, seed: 3))
    }

    /// Experiments/bench/peer_size.py draws the same items in Python (its SplitMix64 and apportionment): these are its
    /// draws, so BERTopic there runs on the entries ThemeLab measured.
    @Test func theBenchsPythonReplicaDrawsTheSameItems() {
        let labels = (0..<50).map { Int32($0 % 7) } + [Int32](repeating: 7, count: 13)
        #expect(stratifiedSample(labels: labels, count: 12, seed: 5) == [0, 2, 9, 22, 31, 33, 39, 41, 42, 57, 58, 59])
        #expect(
            stratifiedSample(labels: labels, count: 40, seed: 123_456_789) == [
                0, 1, 2, 3, 4, 5, 6, 10, 11, 12, 14, 15, 16, 17, 18, 20, 21, 22, 23, 24, 26, 34, 36, 37, 39, 40, 42, 43, 46, 47, 48, 49,
                50, 52, 53, 54, 56, 57, 58, 61,
            ])
        #expect(SeededRandom.permutation(count: 10, seed: 42) == [0, 9, 5, 8, 6, 4, 7, 2, 1, 3])
    }

    /// Two corpora, two methods, figures by hand: method 0 is at 0.9 of the ceiling from 16 on but 0.5 at the second
    /// corpus's own size (24), so it is within 10% from 32 on (the first corpus alone has 32); method 1 is everywhere.
    static func handMade() -> SizeResults {
        func point(_ n: Int, _ a: [Double], _ b: [Double]) -> SizePoint {
            SizePoint(items: n, ceiling: a.map { _ in 1 }, ari: [a, b], groups: [a.map { _ in 2 }, b.map { _ in 2 }], fallbacks: [0, 0])
        }
        let first = SizeCurve(
            corpus: "first", role: .study, items: 64, topics: 4,
            points: [point(8, [0.2, 0.2], [1, 1]), point(16, [0.9, 0.9], [1, 1]), point(32, [1, 1], [1, 1]), point(64, [1], [0.95])])
        let second = SizeCurve(
            corpus: "second", role: .study, items: 24, topics: 4, points: [point(8, [0.9, 0.9], [0.5, 0.5]), point(16, [1, 1], [1, 1])])
        var withOwn = second
        withOwn.points.append(point(24, [0.5], [1]))
        let tuning = SizeCurve(
            corpus: "tune", role: .tuning, items: 32, topics: 2,
            points: [point(8, [0.5, 0.5], [0.9, 0.9]), point(16, [1, 1], [0.2, 0.2])])
        return SizeResults(
            name: "size", description: nil, provenance: .current(command: [], inputs: [:]), space: .centred, seed: 0,
            methods: [
                SizeMethod(grouping: "average", rule: "otsu", family: "average"),
                SizeMethod(grouping: "leiden-silhouette", family: SizeMethod.ownCuts),
            ],
            curves: [first, withOwn, tuning])
    }

    @Test func smallestSizeAndWorstCases() {
        let r = Self.handMade()
        #expect(r.gridSizes(.study) == [8, 16, 32])
        #expect(r.smallestSize(0, role: .study) == 32)
        // Method 1 is at 0.5 on the second corpus at 8 entries (and 0.95 at the first's own size): from 16 on.
        #expect(r.smallestSize(1, role: .study) == 16)
        let worst = r.worstOver(1, role: .study, where: SizeResults.at(8))
        #expect(worst?.ratio.value == 0.5 && worst?.corpus == "second" && worst?.items == 8)
        #expect(r.worstOver(0, role: .study, where: SizeResults.at(nil))?.ratio.value == 0.5)
        #expect(r.ratio([0.4, nil], ceiling: [0.5, 0.5])?.value == 0.4 && r.ratio([1], ceiling: [0.05]) == nil)
        // The tuning corpus: method 1 (0.9) below 16, method 0 (1.0) from 16 on.
        let rule = SizeRule(choosingOn: r)
        #expect(rule.bands.map(\.method) == [1, 0] && rule.bands.map(\.from) == [0, 16] && rule.method(at: 200) == 0)
    }

    @Test(arguments: [
        (#""sizes": [8, 8]"#, "'sizes[1]' repeats sizes[0], 8"),
        (#""sizes": [12, 8]"#, "'sizes[1]' is 8; the sizes must ascend"),
        (#""sizes": [2]"#, "'sizes[0]' must be a whole number from 3 to 20000, got 2"),
        (#""replicates": 1"#, "'replicates' must be a whole number from 2 to 1000"),
        (#""groupings": ["average"]"#, "'groupings[0]' is average, which does not choose its own cuts"),
        (#""thresholdGroupings": ["leiden-silhouette"]"#, "'thresholdGroupings[0]' is leiden-silhouette, which does not cut"),
        (#""fewer": 3"#, "'fewer' needs fewerFrom beside it"),
        (#""corpora": []"#, "'corpora' is not a field of a size experiment"),
    ])
    func badSizeFilesAreRefusedNamingTheField(_ field: String, _ message: String) throws {
        let folder = temporaryFolder()
        var fields = [
            (#""kind""#, #""size""#), (#""name""#, #""size""#), (#""tuning""#, #""t""#), (#""study""#, #""s""#), (#""sizes""#, "[8, 16]"),
            (#""replicates""#, "3"), (#""seed""#, "0"),
        ]
        let key = String(field.prefix { $0 != ":" })
        fields.removeAll { $0.0 == key }
        fields.append((key, String(field.dropFirst(key.count + 1))))
        let text = "{" + fields.map { "\($0.0): \($0.1)" }.joined(separator: ", ") + "}"
        try AtomicFile.write(text, to: folder + "/size.json")
        let error = errorMessage { _ = try SizePlan.read(path: folder + "/size.json") } ?? "no error"
        #expect(error.contains(message) && !error.contains("\n"), "\(error)")
    }

    /// A folder of experiments on the generator's corpora (no text to embed): a tuning and a study experiment of one
    /// corpus each, the report's layout and a size experiment at 12, 24 and 48 entries.
    static func experiments() throws -> String {
        let folder = temporaryFolder()
        let root = ReproducibilityTests.root
        try FileManager.default.createDirectory(atPath: folder + "/report", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: root + "/Experiments/report/layout.json", toPath: folder + "/report/layout.json")
        func corpus(_ seed: Int) -> String {
            #"{"name": "synthetic", "generator": {"dimensions": 32, "topicSizes": [12, 8, 5, 3, 12, 8], "anisotropy": 1, "#
                + #""anisotropySpread": 0.3, "topicStrength": 0.5, "noise": 1.0, "seed": \#(seed)}}"#
        }
        for (name, seed) in [("rules-tuning", 11), ("rules", 21)] {
            try AtomicFile.write(
                #"{"name": "\#(name)", "corpora": [\#(corpus(seed))], "spaces": ["centred"], "thresholds": ["otsu", "percentile(90)"], "#
                    + #""groupings": ["average", "leader", "leiden-silhouette"]}"#, to: "\(folder)/\(name).json")
        }
        try AtomicFile.write(
            #"{"kind": "size", "name": "size", "tuning": "rules-tuning", "study": "rules", "sizes": [12, 24, 48], "replicates": 3, "#
                + #""groupings": ["spectral-k-average", "average-cohesion"], "seed": 0}"#, to: folder + "/size.json")
        return folder
    }

    /// Run twice into two folders: the same bytes in every file but the run's time stamps; the pages hold the answer, the
    /// table and a figure per family.
    @Test func aSmallSizeExperimentRunsTheSameTwice() throws {
        let folder = try Self.experiments()
        let started = Date(timeIntervalSince1970: 1_700_000_000)
        var pages: [String: Data] = [:]
        var out = ""
        for run in ["a", "b"] {
            out = temporaryFolder() + "/out-\(run)"
            _ = try Reproduction.run(
                experiments: folder, only: ["size"], root: try ResultsRoot(path: out),
                environment: RunEnvironment(cacheFolder: temporaryFolder(), startedAt: started), keeping: .nothing)
            for file in ["size.csv", "size.md", "plots/size-average.svg", "plots/size-added.svg"] {
                let data = try Data(contentsOf: URL(fileURLWithPath: "\(out)/size/\(file)"))
                if let first = pages[file] { #expect(first == data, "\(file) differs between runs") } else { pages[file] = data }
            }
        }
        let page = String(decoding: pages["size.md"]!, as: UTF8.self)
        // The layout's "sizes" names it, so REPORT.md has its section.
        let report = try String(contentsOfFile: out + "/REPORT.md", encoding: .utf8)
        #expect(report.contains("## How many entries before the groups can be trusted (`size`)"))
        #expect(page.contains("## After how many entries is a theme list worth showing?"))
        #expect(
            page.contains("| spectral-k-average | ") && page.contains("| average + otsu | ")
                && page.contains("![added](plots/size-added.svg)"))
        let results = try JSONOutput.decode(SizeResults.self, from: try Data(contentsOf: URL(fileURLWithPath: out + "/size/size.json")))
        // 48 items in 6 topics: 12 and 24 of the grid (above 6, below 48), then the whole corpus once.
        #expect(results.curves.map(\.role) == [.tuning, .study])
        #expect(results.curves[1].points.map(\.items) == [12, 24, 48] && results.curves[1].points.map(\.draws) == [3, 3, 1])
        #expect(results.methods.count == 2 * 2 + 1 + 2)
    }
}
