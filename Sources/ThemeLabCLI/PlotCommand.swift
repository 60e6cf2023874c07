import Foundation
import ThemeLabCore
import ThemeLabCorpus
import ThemeLabEncoder
import ThemeLabMeasures
import ThemeLabMethods
import ThemeLabPairs
import ThemeLabReport
import ThemeLabStudy

let plotCommand = Command(
    summary: "regenerate SVG plots from a results file, without recomputing",
    help: """
        usage: themelab plot --results R.json [--out DIR]
               themelab plot --bench SCALE.jsonl [--out FILE.svg]

        Writes, for every corpus × source × space in R.json: the similarity histogram
        (related vs unrelated, each normalised to its class, with a dashed line per threshold
        rule) and the threshold ablation (ARI and pair F1 per rule and grouping); and, when a corpus was
        pooled at several layers, anisotropy by layer. Default DIR: a plots/ folder beside R.json.

        With --bench: fits the cost model (time and peak memory as functions of N and d) to the
        `themelab bench pairs --mode full` lines in SCALE.jsonl, prints the formulas and a table
        of measured against predicted, and writes the log–log plot of time vs N (default:
        SCALE.svg beside the file). Experiments/bench/scale does both.
        """,
    options: ["results", "bench", "out"]
) { args, io in
    if let bench = args["bench"] {
        let points = try CostModel.Point.read(path: bench)
        let model = try CostModel(fitting: points)
        io.print(model.markdown(points), terminator: "")
        let out = args["out"] ?? URL(fileURLWithPath: bench).deletingPathExtension().appendingPathExtension("svg").path
        try CommandPaths(reads: [bench], writes: [(out, .file)]).check()
        try AtomicFile.write(model.plot(points), to: out)
        io.note("wrote \(out)")
        return
    }
    let path = try args.required("results")
    let results = try JSONOutput.read(AnalysisResults.self, path: path, expected: "ThemeLab results file")
    let out = args["out"] ?? URL(fileURLWithPath: path).deletingLastPathComponent().appendingPathComponent("plots").path
    let written = try SVGPlot.writeAll(results, folder: out)
    io.note("wrote \(written.count) plots to \(out)")
}
