import Foundation
import Testing

@testable import ThemeLabCore
@testable import ThemeLabCorpus
@testable import ThemeLabMeasures
@testable import ThemeLabMethods
@testable import ThemeLabPairs
@testable import ThemeLabReport
@testable import ThemeLabStudy

/// The replay (claims C8, C9): regroup moments and recorded figures on a hand-worked timeline, the
/// Gram-form regroup against direct centring and `LeaderAlgorithm`, running sums against recomputation.
@Suite struct ReplayTests {
    /// Eight saves in d = 3: topic A = e1, B = e2, C = e3, saved A B A B C A C B. Same-topic centred
    /// vectors are identical (similarity 1) and cross-topic ones score ≤ 0 under every mean that
    /// occurs, so with fixed(0.5) every grouping shown is the topics (ARI 1, staleness 1).
    static let journal: (vectors: Matrix, topics: [Int32]) = {
        let topics: [Int32] = [0, 1, 0, 1, 2, 0, 2, 1]
        var m = Matrix(rows: 8, cols: 3)
        for (i, t) in topics.enumerated() { m[i, Int(t)] = 1 }
        return (m, topics)
    }()

    static func replay(_ policies: [String]) throws -> [JournalReplay.Timeline] {
        let replay = JournalReplay(
            launch: 3, initial: 2, rules: [try thresholdRule(named: "fixed(0.5)")], policies: try policies.map(regroupPolicy(named:)))
        return try replay.run(journal.vectors, topics: journal.topics, order: Array(0..<8))[0]
    }

    /// Records at N = 2 … 8. Launches start at saves 2 and 5. Regroup cost at N items = N(N−1)/2 pairs plus the
    /// leader's comparisons Σ_a (groups before item a) = 1, 3, 5, 7, 10, 13, 16: 2, 6, 11, 17, 25, 34, 44.
    /// An incremental step costs one comparison per group (2 until C arrives at save 4, then 3).
    @Test func everyPolicyRegroupsWhenWorkedOutByHand() throws {
        let timelines = try Self.replay(["always", "never", "launch-only", "app(1.5,2)", "app(2,0.04)"])
        let expected: [(regroups: [Double], work: [Double])] = [
            ([1, 2, 3, 4, 5, 6, 7], [2, 8, 19, 36, 61, 95, 139]),  // every save
            ([1, 1, 1, 1, 1, 1, 1], [2, 4, 6, 8, 11, 14, 17]),  // incremental only
            // the launch at save 2 finds its regroup current; the one at save 5 regroups the 5 items before it
            ([1, 1, 1, 1, 2, 2, 2], [2, 4, 6, 8, 28, 31, 34]),
            // growth: N = 3 ≥ 1.5·2, N = 5 ≥ 1.5·3, N = 8 ≥ 1.5·5
            ([1, 2, 2, 3, 3, 3, 4], [2, 8, 10, 27, 30, 33, 77]),
            // drift: cos(μ_now, μ_last) = 0.949, 0.949, 0.943 < 0.96 at N = 3, 4, 5; then 0.980, 0.970, 0.995
            ([1, 2, 3, 4, 4, 4, 4], [2, 8, 19, 36, 39, 42, 45]),
        ]
        let shares: [Double] = [1.0 / 2, 2.0 / 3, 2.0 / 4, 2.0 / 5, 3.0 / 6, 3.0 / 7, 3.0 / 8]
        for (t, e) in zip(timelines, expected) {
            #expect(t.regroups == e.regroups)
            #expect(t.work == e.work)
            #expect(t.ari == Array(repeating: 1, count: 7))
            #expect(t.staleness == Array(repeating: 1, count: 7))
            #expect(t.groups == [2, 2, 2, 3, 3, 3, 3])
            #expect(t.largestShare == shares)
            #expect(zip(t.seconds, t.seconds.dropFirst()).allSatisfy { $0 <= $1 })
        }
    }

    @Test func journalMethodPolicyTestsGrowthAndDrift() throws {
        let journalMethod = try regroupPolicy(named: "app(1.5,0.01)")
        func context(_ n: Int, _ last: Int, _ cosine: Double) -> SaveContext {
            SaveContext(items: n, itemsAtLastRegroup: last, meanCosine: { cosine })
        }
        #expect(journalMethod.regroups(after: context(15, 10, 1)))
        #expect(!journalMethod.regroups(after: context(14, 10, 0.995)))
        #expect(journalMethod.regroups(after: context(14, 10, 0.985)))
        let defaults = try regroupPolicy(named: "app")
        #expect(journalMethod.name == "app(1.5,0.01)" && defaults.name == "app(1.5,0.01)")
    }

    /// The centred similarities from stored raw values equal centring the vectors directly (Float64).
    @Test func gramCentringEqualsDirectCentring() throws {
        let u = try unitRows(randomMatrix(rows: 40, cols: 16, seed: 3))
        let order = SeededRandom.permutation(count: 40, seed: 9)
        let gram = JournalGram(u, order: order)
        var s = [Double](repeating: 0, count: 40 * 39 / 2)
        for n in [2, 17, 40] {
            while gram.count < n { gram.addSave() }
            _ = s.withUnsafeMutableBufferPointer { gram.centredPairs(into: $0.baseAddress!) }
            let mu = gram.mean(of: n)
            let c = (0..<n).map { a -> [Double] in
                let v = (0..<16).map { Double(u[order[a], $0]) - mu[$0] }
                let length = v.reduce(0) { $0 + $1 * $1 }.squareRoot()
                return v.map { $0 / length }
            }
            for a in 1..<n {
                for b in 0..<a {
                    let direct = zip(c[a], c[b]).reduce(0) { $0 + $1.0 * $1.1 }
                    #expect(s[a * (a - 1) / 2 + b].isApproximatelyEqual(to: direct, absoluteTolerance: 1e-12))
                }
            }
        }
        let then = gram.mean(of: 17)
        let now = gram.mean(of: 40)
        let cosine = zip(then, now).reduce(0) { $0 + $1.0 * $1.1 } / (then.norm * now.norm)
        let square17 = then.reduce(0) { $0 + $1 * $1 }
        #expect(gram.meanCosine(then: 17, meanSquareThen: square17).isApproximatelyEqual(to: cosine, absoluteTolerance: 1e-12))
    }

    /// Every path of the centring kernel gives the same bits, extremes included, on rows of every length around the
    /// vector widths; the extremes are those of the values written.
    @Test func centredPairsAreTheSameOnEveryPath() throws {
        let u = try unitRows(randomMatrix(rows: 37, cols: 8, seed: 4))
        let gram = JournalGram(u, order: SeededRandom.permutation(count: 37, seed: 2))
        while gram.count < 37 { gram.addSave() }
        let pairs = 37 * 36 / 2
        let scalar = [Double](unsafeUninitializedCapacity: pairs) { s, count in
            let (lo, hi) = gram.centredPairs(into: s.baseAddress!, path: .scalar)
            count = pairs
            #expect(lo == s.min() && hi == s.max() && lo < -0.1 && hi > 0.1)
        }
        for path in KernelPath.available {
            var extremes = (0.0, 0.0)
            let s = [Double](unsafeUninitializedCapacity: pairs) { s, count in
                extremes = gram.centredPairs(into: s.baseAddress!, path: path)
                count = pairs
            }
            #expect(s.map(\.bitPattern) == scalar.map(\.bitPattern), "\(path)")
            #expect(extremes == (scalar.min()!, scalar.max()!), "\(path)")
        }
    }

    /// The Gram-form leader gives `LeaderAlgorithm`'s labels on the directly centred vectors.
    @Test func freshRegroupEqualsLeaderOnCentredVectors() throws {
        let g = SyntheticVectors(dimensions: 32, topicSizes: [9, 7, 6, 5], anisotropy: 1, topicStrength: 1, noise: 0.6, seed: 4)
        let (corpus, x) = g.corpus(name: "g")
        let u = try unitRows(x)
        let order = SeededRandom.permutation(count: corpus.count, seed: 2)
        let gram = JournalGram(u, order: order)
        while gram.count < corpus.count { gram.addSave() }
        let r = FreshRegroup(rules: [try thresholdRule(named: "fixed(0.3)"), try thresholdRule(named: "otsu-floored")]).regroups(gram)
        let centred = try EmbeddingSpace.centred.transform(u.rows(order))
        for regroup in r {
            #expect(regroup.labels == (try LeaderAlgorithm.group(centred, threshold: regroup.threshold!)))
            #expect(Set(regroup.labels).count > 1 && Set(regroup.labels).count < corpus.count)
        }
        // Otsu-floored from the replay's histogram equals the analysis pipeline's on the same centred vectors.
        let pass = PassPlan(needs: PassNeeds(), exactHistogramPairLimit: 1 << 20).run(centred, labels: nil, engine: PairEngine())
        let context = ThresholdContext(distribution: pass.distribution, dimensions: 32)
        #expect(
            r[1].threshold!.isApproximatelyEqual(
                to: try thresholdRule(named: "otsu-floored").threshold(in: context)!, absoluteTolerance: 1e-6))
    }

    /// Incremental assignment with running sums keeps exactly (bit for bit) the sums a direct recomputation of each
    /// group's members gives, and the labels of assigning against centroids recomputed from scratch at every step.
    @Test func runningSumsEqualRecomputedCentroids() throws {
        let u = try unitRows(randomMatrix(rows: 60, cols: 8, seed: 5))
        let gram = JournalGram(u, order: Array(0..<60))
        for _ in 0..<60 { gram.addSave() }
        let mean = gram.mean(of: 10)
        let start = Regroup(labels: Array(0..<10).map { Int32($0 % 3) }, threshold: 0.2, sizes: [4, 3, 3], work: 0, seconds: 0)
        var groups = IncrementalGroups(regroup: start, mean: mean, vectors: gram.vectors)
        var naive = start.labels
        for a in 10..<60 {
            _ = groups.assign(gram.vectors, row: a)
            // Naive: each centroid recomputed from its members, in member order.
            let c = groups.centred(gram.vectors, row: a)
            let count = Int(naive.max()!) + 1
            var best = -1
            var bestSimilarity = -Double.infinity
            for g in 0..<count {
                var sum = [Double](repeating: 0, count: 8)
                for (b, l) in naive.enumerated() where l == g {
                    let m = groups.centred(gram.vectors, row: b)
                    for k in 0..<8 { sum[k] += m[k] }
                }
                let similarity = sum.norm > 0 ? zip(sum, c).reduce(0) { $0 + $1.0 * $1.1 } / sum.norm : 0
                if similarity > bestSimilarity { (best, bestSimilarity) = (g, similarity) }
            }
            naive.append(bestSimilarity >= 0.2 ? Int32(best) : Int32(count))
        }
        #expect(groups.labels == naive)
        for g in 0..<groups.sizes.count {
            var sum = [Double](repeating: 0, count: 8)
            for (b, l) in groups.labels.enumerated() where l == g {
                let m = groups.centred(gram.vectors, row: b)
                for k in 0..<8 { sum[k] += m[k] }
            }
            #expect(Array(groups.sums[(g * 8)..<((g + 1) * 8)]) == sum)
        }
    }

    @Test func denseAdjustedRandIndexEqualsContingencyForm() {
        var rng = SeededRandom(seed: 8)
        for n in [1, 2, 7, 300] {
            let a = (0..<n).map { _ in Int32(rng.next() % 5) }
            let b = (0..<n).map { _ in Int32(rng.next() % 11) }
            let dense = adjustedRandIndex(PairConfusion(denseClasses: a, clusters: b))
            #expect(dense.isApproximatelyEqual(to: Recovery(topics: a, groups: b).ari, absoluteTolerance: 1e-12))
            #expect(adjustedRandIndex(PairConfusion(denseClasses: a, clusters: a)) == 1)
        }
    }

    @Test func ordersKeepEveryItemOnceAndTheirShape() throws {
        let topics: [Int32] = (0..<40).map { Int32($0 % 4) }
        let corpus = Corpus(name: "c", items: topics.indices.map { CorpusItem(id: "\($0)", label: "\(topics[$0])", order: 100 - $0) })
        #expect(try JournalOrder.corpus.saves(of: corpus, topics: topics, seed: 0) == Array((0..<40).reversed()))
        for text in ["shuffle", "bursts(3)", "fading(0.2)"] {
            let saves = try JournalOrder(named: text).saves(of: corpus, topics: topics, seed: 1)
            #expect(saves.sorted() == Array(0..<40))
        }
        // Bursts: runs of 3 (the last of each topic shorter) — 4 topics of 10 give 16 runs, so at most 15 topic changes.
        let bursts = try JournalOrder(named: "bursts(3)").saves(of: corpus, topics: topics, seed: 1).map { topics[$0] }
        #expect(zip(bursts, bursts.dropFirst()).filter { $0 != $1 }.count <= 15)
        // Fading: each topic's saves span at most its window (w = 0.2 of the timeline) plus the other topics interleaved.
        let unordered = Corpus(name: "u", items: corpus.items.map { CorpusItem(id: $0.id, label: $0.label) })
        #expect(
            errorMessage { _ = try JournalOrder.corpus.saves(of: unordered, topics: topics, seed: 0) }?.contains("item '0' has none")
                == true)
    }

    @Test(arguments: [
        (#""launch": 0"#, "'launch' must be a whole number from 1 to 10000, got 0"),
        (#""initial": 1"#, "'initial' must be a whole number from 2 to 10000, got 1"),
        (#""policies": ["always", "app(1,0.01)"]"#, "'policies[1]' app(1,0.01): growth g must be above 1 and at most 1000"),
        (#""policies": ["app(1.5,2.5)"]"#, "'policies[0]' app(1.5,2.5): drift τ must be a number from 0 to 2, got 2.5"),
        (#""policies": ["app(1.5,-0.1)"]"#, "drift τ must be a number from 0 to 2, got -0.1"),
        (#""thresholds": ["percentile(90)"]"#, "'thresholds[0]' is percentile(90); a replay recomputes the rule"),
        (#""launch": 2.5"#, "'launch' must be a whole number from 1 to 10000, got 2.5"),
        (#""shuffle": 3"#, "'shuffle' is not a field of a replay experiment"),
        (
            #""journals": [{"corpus": {"name": "seed-12"}, "order": "bursts(0)"}]"#,
            "'journals[0].order' bursts(0): b must be a whole number"
        ),
    ])
    func badReplayFilesAreNamed(_ field: String, _ message: String) {
        let path = temporaryFolder() + "/replay.json"
        let text =
            field.hasPrefix(#""journals""#)
            ? "{\"kind\": \"replay\", \"name\": \"r\", \(field)}"
            : "{\"kind\": \"replay\", \"name\": \"r\", \"journals\": [{\"corpus\": {\"name\": \"seed-12\"}}], \(field)}"
        _ = FileManager.default.createFile(atPath: path, contents: Data(text.utf8))
        let error = errorMessage { _ = try ReplayPlan.read(path: path) }
        #expect(error?.hasPrefix(path) == true)
        #expect(error?.contains(message) == true, "\(error ?? "no error")")
    }

    /// The corpus's order field: missing on some rows, not a number, or repeated — each named by file and line.
    @Test(arguments: [
        ("{\"id\":\"a\",\"label\":\"x\",\"order\":1}\n{\"id\":\"b\",\"label\":\"x\"}\n", ":2: missing field 'order' (line 1 has one"),
        ("{\"id\":\"a\",\"label\":\"x\"}\n{\"id\":\"b\",\"label\":\"x\",\"order\":1}\n", ":2: missing field 'order' (line 1 lacks one"),
        ("{\"id\":\"a\",\"label\":\"x\",\"order\":\"soon\"}\n", ":1: field 'order' must be an integer"),
        ("{\"id\":\"a\",\"label\":\"x\",\"order\":1.5}\n", ":1: field 'order' must be an integer"),
        ("{\"id\":\"a\",\"label\":\"x\",\"order\":true}\n", ":1: field 'order' must be an integer"),
        ("{\"id\":\"a\",\"label\":\"x\",\"order\":\"7\"}\n", ":1: field 'order' must be an integer"),
        ("{\"id\":\"a\",\"label\":\"x\",\"order\":4}\n{\"id\":\"b\",\"label\":\"x\",\"order\":4}\n", ":2: order 4 repeats line 1's"),
    ])
    func badOrderFieldsAreNamed(_ text: String, _ message: String) {
        let path = temporaryFolder() + "/journal.jsonl"
        _ = FileManager.default.createFile(atPath: path, contents: Data(text.utf8))
        let error = errorMessage { _ = try CorpusReader.read(path: path) }
        #expect(error?.hasPrefix(path + message) == true, "\(error ?? "no error")")
    }

    /// The documented maximum of 10 000 saves is estimated before any work and refused above the budget.
    @Test func aReplayAboveItsBudgetIsRefusedBeforeAnyWork() throws {
        let folder = temporaryFolder()
        let plan = """
            {"kind": "replay", "name": "big", "journals": [{"corpus": {"name": "synthetic", "generator": {"dimensions": 4,
             "topicSizes": [5000, 5000], "anisotropy": 1, "anisotropySpread": 0, "topicStrength": 1, "noise": 0.5, "seed": 1}},
             "order": "shuffle"}], "launch": 25, "shuffles": 2, "policies": ["never"]}
            """
        try AtomicFile.write(plan, to: folder + "/r.json")
        let started = Date()
        let r = CLI.run(["replay", folder + "/r.json", "--out", folder + "/out"])
        #expect(r.status == 1 && r.stderr.contains("'journals' would take about 37 minutes"), "\(r.stderr)")
        #expect(Date().timeIntervalSince(started) < 30)
        #expect(
            abs(
                ReplayPlan.estimatedSeconds(journals: [(3000, 5)], rules: 2) - 150 * 2
                    / Double(min(2, ProcessInfo.processInfo.activeProcessorCount))) < 1e-9)
    }

    /// A journal of identical vectors, or all but one identical, replays to an answer instead of trapping.
    @Test(arguments: [false, true]) func identicalVectorsReplayWithoutATrap(_ oneDiffers: Bool) throws {
        let folder = temporaryFolder()
        var x = Matrix(rows: 30, cols: 8, repeating: 1)
        if oneDiffers { x[0, 0] = 2 }
        try NPY.write(x, to: folder + "/x.npy")
        try AtomicFile.write((0..<30).map { "{\"id\":\"i\($0)\",\"label\":\"t\($0 % 3)\"}\n" }.joined(), to: folder + "/c.jsonl")
        let plan = """
            {"kind": "replay", "name": "same", "journals": [{"corpus": {"name": "file", "path": "\(folder)/c.jsonl"},
             "embeddings": "\(folder)/x.npy", "order": "shuffle"}], "launch": 5, "initial": 6, "shuffles": 2}
            """
        try AtomicFile.write(plan, to: folder + "/r.json")
        let r = CLI.run(["replay", folder + "/r.json", "--out", folder + "/out"])
        #expect(r.status == 0 && FileManager.default.fileExists(atPath: folder + "/out/same/same.csv"), "\(r.stderr.suffix(300))")
    }

    /// A whole replay through the command: files written, verdict fields present, the same numbers on a second run.
    @Test func replayCommandWritesResultsAndRepeats() throws {
        let folder = temporaryFolder()
        let plan = folder + "/r.json"
        let text = """
            {"kind": "replay", "name": "r", "journals": [{"corpus": {"name": "synthetic", "generator": {"dimensions": 24,
             "topicSizes": [12, 10, 8], "anisotropy": 1, "anisotropySpread": 0, "topicStrength": 1, "noise": 0.7,
             "seed": 3}}, "order": "fading(0.5)"}],
             "launch": 5, "initial": 6, "policies": ["always", "never", "launch-only", "app(1.5,0.01)"], "shuffles": 3}
            """
        _ = FileManager.default.createFile(atPath: plan, contents: Data(text.utf8))
        let results = try ReplayPlan.read(path: plan).run(in: RunEnvironment())
        let again = try ReplayPlan.read(path: plan).run(in: RunEnvironment())
        let rule = results.journals[0].rules[0]
        #expect(results.journals[0].orders == 3 && rule.policies.count == 4 && rule.c8 != nil && rule.c9 != nil)
        #expect(rule.policies[0].summary.meanStaleness.mean == 1 && rule.policies[0].summary.workShare?.mean == 1)
        #expect(
            zip(rule.policies, again.journals[0].rules[0].policies).allSatisfy {
                $0.timeline.ari?.mean == $1.timeline.ari?.mean && $0.timeline.work?.mean == $1.timeline.work?.mean
            })
        try ReplayReport.write(results, folder: folder)
        let csv = try String(contentsOfFile: folder + "/r.csv", encoding: .utf8)
        #expect(csv.split(separator: "\n").count == 1 + 2 * 4)
        #expect(FileManager.default.fileExists(atPath: folder + "/plots/frontier-\(ReplayReport.slug(results.journals[0])).svg"))
    }
}

extension Array where Element == Double {
    fileprivate var norm: Double { reduce(0) { $0 + $1 * $1 }.squareRoot() }
}
