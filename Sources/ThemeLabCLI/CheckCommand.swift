import Foundation
import ThemeLabCore
import ThemeLabCorpus
import ThemeLabEncoder
import ThemeLabMeasures
import ThemeLabMethods
import ThemeLabPairs
import ThemeLabReport
import ThemeLabStudy

struct CheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        name: "check", abstract: "Fail when recovery falls below a baseline (for CI).",
        discussion: """
            Compares every row (corpus × source × space × rule × grouping) of the baseline with the results: exits 1 and
            lists each metric that fell by more than its tolerance, each threshold that moved by more than its tolerance,
            and each missing row; exits 0 when all hold. The baseline must cover the results: a results row it lacks, or a
            figure a tolerance names that the results row has and its row lacks, fails too, unless the baseline's
            "ungated" list names the row. The last line counts the rows and figures compared. The baseline is a results
            file with a "tolerances" object (metric → allowed drop; "threshold" → allowed move). --write-baseline makes
            one from results, refusing results with a row twice: every tolerance starts at 1e-6 (ari, nmi, v_measure,
            pair_f1, threshold) and --tolerance changes or adds some (the note lists them all, defaults marked). A baseline
            without an ari tolerance, with no rows, or none with an ARI, is refused. A failed check also lists the inputs
            whose checksums differ from the baseline's. Rows are keyed corpus | source | space | rule | grouping, the rule
            "k=topics" for a label-informed reference and "own cuts" for a grouping that chooses its own cuts. When the
            encoder or layer changed (the results hold one vector source the baseline lacks and the baseline one the results
            lack), rows are compared by corpus | space | rule | grouping across the two, and the output says so first
            ("compared layer 4 against layer 6"); --sources 'NEW=OLD;…' pairs them when several are left over. The figures
            that moved most lead the list of failures. A baseline
            made under the canonical arithmetic refuses results made under another kernel (THEMELAB_KERNEL=native) unless
            --allow-native is given.
            """)

    var results = ""
    var baseline: String?
    var writeBaseline: String?
    var tolerances: [String: Double]?
    var allowNative = false
    var sources: String?

    static var arguments: [Argument<Self>] {
        [
            .option("--results", \.results, .path, value: "<R.json>", required: true, help: "The results file to check."),
            .option("--baseline", \.baseline, .path, value: "<B.json>", help: "The baseline to check it against."),
            .option("--write-baseline", \.writeBaseline, .path, value: "<B.json>", help: "Make a baseline from the results instead."),
            .option(
                "--tolerance", \.tolerances, RegressionCheck.toleranceConstraint, value: "<METRIC=VALUE,…>",
                help: "With --write-baseline: tolerances in place of the defaults."),
            .flag("--allow-native", \.allowNative, help: "Take results made under another kernel than the baseline's canonical one."),
            .option(
                "--sources", \.sources, .text, value: "<NEW=OLD;…>",
                help: "Pairs each vector source of the results with the baseline's it is compared against."),
        ]
    }

    func run(_ io: Invocation) throws {
        if let out = writeBaseline { try CommandPaths(reads: [results], writes: [(out, .file)]).check() }
        let read = try RegressionCheck.readBaseline(path: results)
        if let out = writeBaseline { return try write(read, to: out, io) }
        guard let baselinePath = baseline else { throw ThemeLabError.usage("missing --baseline") }
        let baseline = try RegressionCheck.readBaseline(path: baselinePath)
        try RegressionCheck.checkArithmetic(results: read, baseline: baseline, resultsFile: results, allowNative: allowNative)
        let outcome = try RegressionCheck.compare(
            results: read.analyses, baseline: baseline, resultsFile: results, baselineFile: baselinePath,
            sources: try sources.map(SourcePairing.parse))
        let compared = "\(outcome.rows) rows, \(outcome.figures) figures compared"
        for line in outcome.pairing { io.print(line) }
        if outcome.failures.isEmpty {
            io.print("check passed: \(results) holds every baseline row within tolerance (\(compared))")
            return
        }
        for f in outcome.failures { io.print("  " + f) }
        io.print("check failed: \(outcome.failures.count) regression(s) in \(results) (\(compared))")
        let changed = RegressionCheck.changedInputs(results: read.provenance, baseline: baseline.provenance)
        if !changed.isEmpty {
            io.print("inputs that differ from the baseline's (a likely cause):")
            for line in changed { io.print("  " + line) }
        }
        throw ExitStatus(status: 1)
    }

    /// `--write-baseline`: the results with the default tolerances, changed by --tolerance.
    func write(_ read: RegressionCheck.Baseline, to out: String, _ io: Invocation) throws {
        let all = RegressionCheck.defaultTolerances.merging(tolerances ?? [:]) { $1 }
        // A baseline with a row twice could never be checked: refused here, not at the next check.
        _ = try RegressionCheck.rows(read.analyses, file: results)
        try AtomicFile.write(
            try JSONOutput.encode(RegressionCheck.Baseline(tolerances: all, analyses: read.analyses, provenance: read.provenance)), to: out)
        let listed = all.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)\(tolerances?[$0.key] == nil ? " (default)" : "")" }
        io.note("wrote baseline \(out) (tolerances: \(listed.joined(separator: ", ")))")
    }
}
