import Foundation
import ThemeLabCore
import ThemeLabCorpus
import ThemeLabEncoder
import ThemeLabMeasures
import ThemeLabMethods
import ThemeLabPairs
import ThemeLabReport
import ThemeLabRun
import ThemeLabStudy

struct ReproduceCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        name: "reproduce", abstract: "Run every Experiments/*.json and write results/ with REPORT.md.",
        discussion: """
            Runs every experiment file in Experiments/ (sorted by name), writes OUT/NAME/ for each, and OUT/REPORT.md: a
            summary of the claims (C1–C9), the recommended rule, the key figures, and links to the rest:
            OUT/claims.{md,csv,json} (one row per claim and corpus), the threshold ablation, the regret tables and the
            paired comparisons. Every corpus is in the repository or in a Debian package bootstrap installs; a missing one
            is an error. Every product runs under the canonical arithmetic (the Haswell kernel; see themelab env), so the
            same inputs give the same bytes on any x86-64 machine with AVX2: only each results file's createdAt and the
            wall-clock files (OUT/timings.csv, OUT/NAME/NAME-timings.csv) change between runs. The experiments that
            layout.json names are run again with every vector moved by one unit in the last place, and the verdicts that
            flip are listed in OUT/fragility.{md,csv} and marked in REPORT.md.

            The checkout's .themelab/cache ($THEMELAB_CACHE) keeps embedded texts and each experiment's results: an
            experiment whose code (the themelab binary and the libraries it runs), inputs (every file it reads, by
            SHA-256), settings and environment (THEMELAB_*, OPENBLAS_*) are those of the run that stored it is copied from
            that run, with that run's createdAt and command line, and says so (docs/determinism.md, "Kept experiments").
            Prints one line per experiment with its time and an estimate of the time left (from the stage times of the
            last run in OUT/timings.csv when there is one).
            """)

    var out: String?
    var dataDirectory: String?
    var only: [String]?
    var replicates: Int?
    var recompute = false
    var cold = false
    var verbose = false

    static var arguments: [Argument<Self>] {
        [
            .resultsRoot(\.out, help: "The output folder."),
            .dataDirectory(\.dataDirectory),
            .option(
                "--only", \.only, .list(.fileName(names: "an experiment"), distinct: false), value: "<NAME,…>",
                help: "Run only these experiments."),
            .option(
                ExperimentPlan.Keys.replicates, \.replicates, value: "<R>", unset: "each file's own",
                help: "Replicates per corpus in the experiments that ask for them; every figure's 95% interval is over these."),
            .flag("--recompute", \.recompute, help: "Run every experiment, also one whose results the cache keeps from an earlier run."),
            .flag(
                "--cold", \.cold,
                help: "Embed every text afresh into a private cache deleted at the end, instead of the checkout's "
                    + ".themelab/cache ($THEMELAB_CACHE), which keeps vectors between runs keyed by weights, configuration, "
                    + "the encoder's arithmetic and layer; the bytes are the same."),
            .flag("--verbose", \.verbose, help: "Also every experiment's own notes (corpora, replicates, embedding)."),
        ]
    }

    func run(_ io: Invocation) throws {
        let start = Date()
        let root = out ?? OldSpelling.defaultResults
        guard let folder = ProjectFiles.locate("Experiments") else {
            throw ThemeLabError.input("Experiments/ not found (run from a checkout)")
        }
        let only = self.only.map(Set.init)
        let inputs = try Reproduction.inputFiles(experiments: folder, only: only, dataDirectory: dataDirectory)
        try CommandPaths(reads: inputs, writes: [(root, .replacedFolder)]).check()
        let output = try ResultsRoot(path: root)
        // Cold: a private cache made afresh (a new folder with an unpredictable name, never one left or planted before).
        let cache =
            cold
            ? try AtomicFile.makeTemporaryFolder(in: NSTemporaryDirectory(), prefix: "themelab-reproduce-")
            : ProcessEnvironment.givenCacheFolder
                ?? URL(fileURLWithPath: folder).deletingLastPathComponent().appendingPathComponent(".themelab/cache").path
        let forget = cold ? Interruption.register { try? FileManager.default.removeItem(atPath: cache) } : nil
        defer {
            if let forget {
                Interruption.remove(forget)
                try? FileManager.default.removeItem(atPath: cache)
            }
        }
        let progress = io.progress("embed")
        let expected = Reproduction.stageSeconds(ofResultsIn: root)
        var summary: Reproduction.Summary?
        // The whole tree at once: a killed run leaves the previous results/ exactly as it was.
        try output.replaceWhole { staging in
            summary = try Reproduction.run(
                experiments: folder, only: only,
                replicates: replicates, root: staging,
                environment: RunEnvironment(
                    dataDirectory: dataDirectory, cacheFolder: cache, command: io.commandLine, startedAt: start,
                    log: { if verbose { io.note($0) } }, progress: progress.update),
                keeping: cold ? .nothing : recompute ? .recompute : .reuse, expectedSeconds: expected,
                announce: { io.note("reproduce: " + $0) })
        }
        progress.finish()
        guard let summary else { return }
        io.note("wrote \(root)/REPORT.md (\(summary.experiments.count) experiments) in \(Int(summary.seconds)) s")
    }
}
