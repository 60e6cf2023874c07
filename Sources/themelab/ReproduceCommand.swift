import Foundation
import ThemeLab

let reproduceCommand = Command(
    summary: "run every Experiments/*.json and write results/ with REPORT.md",
    help: """
        usage: themelab reproduce [--results DIR] [--data-dir DIR] [--only NAME,…]

        Runs every experiment file in Experiments/ (sorted by name), writes DIR/NAME/ for each,
        and DIR/REPORT.md: the claims table (C1–C7 against the app's reported figures), the
        threshold ablation, how rules move with the number of topics, and provenance. Every
        corpus is in the repository or in a Debian package bootstrap installs; a missing one is
        an error. A text's vector does not depend on the cache or on which texts it is embedded
        with, so the same inputs give the same bytes; the only fields that change between runs
        are the timestamp (and run time) in DIR/provenance.json and each results file's createdAt.
          --results DIR    output folder (default results)
          --data-dir DIR   folder holding real corpora (default $THEMELAB_DATA)
          --only N,…       run only these experiments
        """,
    options: ["results", "data-dir", "only"]
) { args in
    let start = Date()
    let root = args.values["results"] ?? "results"
    guard let folder = ProjectFiles.locate("Experiments") else { throw ThemeLabError.input("Experiments/ not found (run from a checkout)") }
    var files = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".json") }.sorted()
    if let only = args.values["only"] {
        let names = Set(only.split(separator: ",").map { "\($0).json" })
        files = files.filter(names.contains)
    }
    let output = try ResultsRoot(path: root)
    // A private cache made afresh (a new folder with an unpredictable name, never one left or planted before).
    let cache = try AtomicFile.makeTemporaryFolder(in: NSTemporaryDirectory(), prefix: "themelab-reproduce-")
    setenv("THEMELAB_CACHE", cache, 1)
    setenv("THEMELAB_TIMESTAMP", ISO8601DateFormatter().string(from: start), 1)
    defer { try? FileManager.default.removeItem(atPath: cache) }

    var all: [(plan: ExperimentPlan, results: AnalysisResults)] = []
    let plans = try files.map { file in try ExperimentPlan.read(path: "\(folder)/\(file)") }
    guard plans.filter({ $0.gate != nil }).count <= 1 else { throw ThemeLabError.input("\(folder): more than one experiment has a \"gate\"") }
    for plan in plans {
        let outcome = try runExperiment(plan, root: output, dataDirectory: args.values["data-dir"])
        all.append((plan, outcome))
        if let tolerances = plan.gate {
            try AtomicFile.write(try JSONOutput.encode(RegressionCheck.Baseline(tolerances: tolerances, analyses: outcome.analyses)),
                                 to: "\(root)/baseline.json")
        }
    }
    let c7 = try themeSumsCheck()
    let report = ReproductionReport(experiments: all.map { ($0.plan.name, $0.plan.description ?? "", $0.results) }, c7: c7)
    for (path, svg) in report.plots() { try AtomicFile.write(svg, to: "\(root)/\(path)") }
    try AtomicFile.write(report.markdown(), to: "\(root)/REPORT.md")
    let provenance = Provenance.current(command: CommandLine.arguments, inputs: [:])
    try AtomicFile.write(try JSONOutput.encode(ReproduceProvenance(provenance: provenance, runSeconds: (Date().timeIntervalSince(start) * 10).rounded() / 10,
                                                                   experiments: all.map(\.plan.name))),
                         to: "\(root)/provenance.json")
    note("wrote \(root)/REPORT.md (\(all.count) experiments) in \(Int(Date().timeIntervalSince(start))) s")
    withExtendedLifetime(output) {}  // the lock is held until everything is written
}

struct ReproduceProvenance: Codable {
    var provenance: Provenance
    var runSeconds: Double
    var experiments: [String]
}

/// Claim C7 on real vectors: seed-26's MiniLM vectors (unit), summed per theme in Float64 and
/// then across themes, against the plain sentence mean.
func themeSumsCheck() throws -> ReproductionReport.ThemeSumsResult {
    let corpus = try DatasetRegistry.load(CorpusSpec(name: "seed-26")).corpus
    let v = try VectorSource.model(folder: nil, layer: nil).vectors(for: corpus)
    let x = try unitRows(v.matrix)
    let labels = corpus.labelIndices()!
    var sums = ThemeSums(dimensions: x.cols)
    var direct = [Double](repeating: 0, count: x.cols)
    for i in 0..<x.rows {
        sums.add(x.row(i), to: Int(labels[i]))
        for k in 0..<x.cols { direct[k] += Double(x[i, k]) }
    }
    let mean = direct.map { $0 / Double(x.rows) }
    let worst = zip(sums.mean, mean).map { abs($0 - $1) }.max() ?? 0
    return .init(corpus: corpus.name, source: v.description, identicalBits: sums.mean == mean, maxAbsDifference: worst)
}
