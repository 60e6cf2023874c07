import Foundation
import ThemeLab

let plotCommand = Command(
    summary: "regenerate SVG plots from a results file, without recomputing",
    help: """
        usage: themelab plot --results R.json [--out DIR]

        Writes, for every corpus × source × space in R.json: the similarity histogram
        (related vs unrelated, each normalised to its class, with a dashed line per threshold
        rule) and the threshold ablation (ARI and pair F1 per rule and grouping); and, when a corpus was
        pooled at several layers, anisotropy by layer. Default DIR: a plots/ folder beside R.json.
        """,
    options: ["results", "out"]
) { args in
    let path = try args.required("results")
    guard let data = FileManager.default.contents(atPath: path) else { throw ThemeLabError.input("\(path): cannot read") }
    let results: AnalysisResults
    do { results = try JSONOutput.decode(AnalysisResults.self, from: data) } catch {
        throw ThemeLabError.input("\(path): not a ThemeLab results file")
    }
    let out = args.values["out"] ?? URL(fileURLWithPath: path).deletingLastPathComponent().appendingPathComponent("plots").path
    let written = try SVGPlot.writeAll(results, folder: out)
    note("wrote \(written.count) plots to \(out)")
}
