import Foundation
import ThemeLabCore
import ThemeLabCorpus
import ThemeLabEncoder
import ThemeLabMeasures
import ThemeLabMethods
import ThemeLabPairs
import ThemeLabReport
import ThemeLabStudy

let checkCommand = Command(
    summary: "fail when recovery falls below a baseline (for CI)",
    help: """
        usage: themelab check --results R.json --baseline B.json [--sources NEW=OLD;…] [--allow-native]
               themelab check --results R.json --write-baseline B.json [--tolerance METRIC=VALUE,…]

        Compares every row (corpus × source × space × rule × grouping) of the baseline with
        the results: exits 1 and lists each metric that fell by more than its tolerance, each
        threshold that moved by more than its tolerance, and each missing row; exits 0 when
        all hold. The baseline must cover the results: a results row it lacks, or a figure a
        tolerance names that the results row has and its row lacks, fails too, unless the
        baseline's "ungated" list names the row. The last line counts the rows and figures
        compared. The baseline is a results file with a "tolerances" object (metric → allowed
        drop; "threshold" → allowed move). --write-baseline makes one from results, refusing
        results with a row twice: every tolerance starts at 1e-6 (ari, nmi, v_measure, pair_f1,
        threshold) and --tolerance changes or adds ari, nmi, homogeneity, completeness,
        v_measure, pair_precision, pair_recall, pair_f1, purity or threshold, each from 0 to 0.5
        (the note lists them all, defaults marked). A baseline without an ari tolerance, with no
        rows, or none with an ARI, is refused. A failed check also lists the inputs whose
        checksums differ from the baseline's. Rows are keyed corpus | source | space | rule |
        grouping, the rule "k=topics" for a label-informed reference and "own cuts" for a
        grouping that chooses its own cuts.
        When the encoder or layer changed (the results hold one vector source the baseline
        lacks and the baseline one the results lack), rows are compared by corpus | space |
        rule | grouping across the two, and the output says so first ("compared layer 4
        against layer 6"); --sources 'NEW=OLD;…' pairs them when several are left over. The
        figures that moved most lead the list of failures.
        A baseline made under the canonical arithmetic refuses results made under another
        kernel (THEMELAB_KERNEL=native) unless --allow-native is given.
        """,
    options: ["results", "baseline", "write-baseline", "tolerance", "sources"],
    switches: ["allow-native"]
) { args, io in
    let resultsPath = try args.required("results")
    if let out = args["write-baseline"] { try CommandPaths(reads: [resultsPath], writes: [(out, .file)]).check() }
    let results = try RegressionCheck.readBaseline(path: resultsPath)
    if let out = args["write-baseline"] {
        var tolerances = RegressionCheck.defaultTolerances
        for pair in (args["tolerance"] ?? "").split(separator: ",") {
            let parts = pair.split(separator: "=")
            guard parts.count == 2, let v = Double(parts[1]) else {
                throw ThemeLabError.usage("--tolerance takes METRIC=VALUE pairs, got '\(pair)'")
            }
            tolerances[String(parts[0])] = v
        }
        do { try RegressionCheck.validate(tolerances: tolerances, file: "--tolerance") } catch let ThemeLabError.input(message) {
            throw ThemeLabError.usage(message)
        }
        // A baseline with a row twice could never be checked: refused here, not at the next check.
        _ = try RegressionCheck.rows(results.analyses, file: resultsPath)
        try AtomicFile.write(
            try JSONOutput.encode(
                RegressionCheck.Baseline(tolerances: tolerances, analyses: results.analyses, provenance: results.provenance)), to: out)
        let given = Set((args["tolerance"] ?? "").split(separator: ",").compactMap { $0.split(separator: "=").first.map(String.init) })
        let listed = tolerances.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)\(given.contains($0.key) ? "" : " (default)")" }
        io.note("wrote baseline \(out) (tolerances: \(listed.joined(separator: ", ")))")
        return
    }
    let baselinePath = try args.required("baseline")
    let baseline = try RegressionCheck.readBaseline(path: baselinePath)
    try RegressionCheck.checkArithmetic(
        results: results, baseline: baseline, resultsFile: resultsPath, allowNative: args.flag("allow-native"))
    let outcome = try RegressionCheck.compare(
        results: results.analyses, baseline: baseline, resultsFile: resultsPath, baselineFile: baselinePath,
        sources: try args["sources"].map(SourcePairing.parse))
    let compared = "\(outcome.rows) rows, \(outcome.figures) figures compared"
    for line in outcome.pairing { io.print(line) }
    if outcome.failures.isEmpty {
        io.print("check passed: \(resultsPath) holds every baseline row within tolerance (\(compared))")
        return
    }
    for f in outcome.failures { io.print("  " + f) }
    io.print("check failed: \(outcome.failures.count) regression(s) in \(resultsPath) (\(compared))")
    let changed = RegressionCheck.changedInputs(results: results.provenance, baseline: baseline.provenance)
    if !changed.isEmpty {
        io.print("inputs that differ from the baseline's (a likely cause):")
        for line in changed { io.print("  " + line) }
    }
    throw ExitStatus(status: 1)
}
