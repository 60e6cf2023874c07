import Foundation
import ThemeLabCore
import ThemeLabReport
import ThemeLabRun
import ThemeLabStudy

/// `themelab ablate SIZE.json`: a size experiment (`"kind": "size"`) into DIR/NAME/; its pages name the suggested default
/// when DIR holds the results of the study and tuning experiments the report's layout names.
func ablateSize(_ args: Arguments, _ io: Invocation, path: String) throws {
    guard args["shard"] == nil, args["vectors"] == nil, args["replicates"] == nil, !args.flag("html") else {
        throw ThemeLabError.usage("\(path) is a size experiment: --shard, --vectors, --replicates and --html do not apply to it")
    }
    let run = try SizeRun(try SizePlan.read(path: path))
    let root = try ResultsRoot(path: args["out"] ?? "results")
    try root.prepare(run.plan.name, reading: try run.inputFiles(dataDirectory: args["data-dir"]))
    let progress = io.progress("embed")
    let results = try run.run(
        in: RunEnvironment(dataDirectory: args["data-dir"], command: io.commandLine, log: io.note, progress: progress.update))
    progress.finish()
    let layout = try ReportLayout.read(path: "\(ExperimentSchema.folder(of: path))/report/layout.json")
    let suggested = Reproduction.suggested(layout) { name in
        try? JSONOutput.read(AnalysisResults.self, path: "\(root.path)/\(name)/\(name).json", expected: "ThemeLab results file")
    }
    try root.replaceFolder(run.plan.name) { try SizeReport.write(results, folder: $0, suggested: suggested) }
    io.note("wrote \(root.path)/\(run.plan.name)/\(run.plan.name).{json,csv,md} (\(results.curves.count) corpora)")
}
