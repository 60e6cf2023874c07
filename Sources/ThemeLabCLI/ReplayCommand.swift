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

struct ReplayCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        name: "replay", abstract: "Replay labeled corpora as journals under regrouping policies (C8, C9).",
        discussion: """
            Replays each journal of a replay experiment save by save. At every save each policy shows a grouping (a regroup
            from scratch, or the last one extended by incremental assignment), recorded against the labels (ARI), against a
            fresh regroup at that save (staleness ARI), with its largest-group share, regroups so far and cumulative work
            (similarities computed). Writes OUT/NAME/NAME.json (provenance, timelines, estimates, C8 and C9 figures),
            NAME.csv (one row per journal × rule × policy), NAME-timeline.csv, NAME.md, plots/*.svg, and the wall-clock
            seconds in NAME-timings.csv (outside the byte contract).

            Replay file: {"kind": "replay", "name": …, "journals": [{"corpus": {"name": "clinc150", "intents": 8,
            "perIntent": 40, "seed": 3}, "order": "bursts(4)", "launch": 25, "initial": 25}], "launch": 25, "initial": 25,
            "thresholds": ["otsu-floored", "kittler-illingworth"], "policies": ["always", "never", "launch-only",
            "app(1.5,0.01)"], "shuffles": 5, "seed": 0, "points": 100}
            Orders: corpus (the corpus's 'order' field), shuffle, bursts(b), fading(w). Policies: always, never,
            launch-only, app(g,τ) = regroup at launch and when N ≥ g·N_last or cos(μ_now, μ_last) < 1 − τ (g > 1, τ in
            [0, 2]). Rules: fixed, noise-floor, otsu, otsu-floored, kittler-illingworth. docs/commands.md lists every
            field's values.
            """)

    var experiment = ""
    var out: String?
    var dataDirectory: String?
    var shuffles: Int?
    var budgetMinutes = Int(ReplayPlan.defaultBudgetSeconds / 60)
    var cache = CacheOption()

    static var arguments: [Argument<Self>] {
        [
            .argument("<experiment>", \.experiment, help: "The replay file (Experiments/replay.json)."),
            .resultsRoot(\.out, help: "The output root."),
            .dataDirectory(\.dataDirectory),
            .option(ReplayPlan.Keys.shuffles, \.shuffles, value: "<R>", help: "Orders per seeded journal, in place of the file's."),
            .option(
                "--budget-minutes", \.budgetMinutes, .count(1...100_000), value: "<M>",
                help: "Refuse a replay estimated to take longer: a fresh regroup at every save makes a journal's cost grow with N³."),
        ] + CacheOption.arguments(\.cache)
    }

    func run(_ io: Invocation) throws {
        var plan = try ReplayPlan.read(path: experiment)
        if let shuffles { plan.settings.shuffles = shuffles }
        let root = try ResultsRoot(path: out ?? OldSpelling.defaultResults)
        try root.prepare(plan.name, reading: try plan.inputFiles(dataDirectory: dataDirectory))
        let progress = io.progress("embed")
        var environment = RunEnvironment(
            dataDirectory: dataDirectory, cacheFolder: cache.resolved, command: io.commandLine, log: io.note,
            progress: progress.update)
        environment.replayBudgetSeconds = Double(budgetMinutes) * 60
        let results = try plan.run(in: environment)
        progress.finish()
        try root.replaceFolder(plan.name) { try ReplayReport.write(results, folder: $0) }
        io.note("wrote \(root.path)/\(plan.name)/\(plan.name).{json,csv,md} (\(results.journals.count) journals)")
    }
}
