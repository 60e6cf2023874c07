import Foundation
import ThemeLabCore
import ThemeLabReport
import ThemeLabRun
import ThemeLabStudy

extension AblateCommand {
    /// `themelab ablate SIZE.json`: a size experiment (`"kind": "size"`) into DIR/NAME/; its pages name the suggested default
    /// when DIR holds the results of the study and tuning experiments the report's layout names.
    func runSize(_ io: Invocation) throws {
        guard shard == nil, vectors == nil, replicates == nil, html != true else {
            throw ThemeLabError.usage("\(experiment) is a size experiment: --shard, --vectors, --replicates and --html do not apply to it")
        }
        let path = experiment
        let run = try SizeRun(try SizePlan.read(path: path))
        let root = try ResultsRoot(path: out ?? OldSpelling.defaultResults)
        try root.prepare(run.plan.name, reading: try run.inputFiles(dataDirectory: dataDirectory))
        let progress = io.progress("embed")
        let results = try run.run(
            in: RunEnvironment(dataDirectory: dataDirectory, command: io.commandLine, log: io.note, progress: progress.update))
        progress.finish()
        let layout = try ReportLayout.read(path: "\(ExperimentSchema.folder(of: path))/report/layout.json")
        let suggested = Reproduction.suggested(layout) { name in
            try? JSONOutput.read(AnalysisResults.self, path: "\(root.path)/\(name)/\(name).json", expected: "ThemeLab results file")
        }
        try root.replaceFolder(run.plan.name) { try SizeReport.write(results, folder: $0, suggested: suggested) }
        io.note("wrote \(root.path)/\(run.plan.name)/\(run.plan.name).{json,csv,md} (\(results.curves.count) corpora)")
    }
}
