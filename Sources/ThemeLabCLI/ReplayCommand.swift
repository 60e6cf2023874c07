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

let replayCommand = Command(
    summary: "replay labeled corpora as journals under regrouping policies (C8, C9)",
    help: """
        usage: themelab replay Experiments/replay.json [--out DIR] [--data-dir DIR] [--shuffles R]
                                                      [--budget-minutes M] [--cache DIR]

        Replays each journal of a replay experiment save by save. At every save each policy shows
        a grouping (a regroup from scratch, or the last one extended by incremental assignment),
        recorded against the labels (ARI), against a fresh regroup at that save (staleness ARI),
        with its largest-group share, regroups so far and cumulative work (similarities computed).
        Writes DIR/NAME/NAME.json (provenance, timelines, estimates, C8/C9 figures), NAME.csv
        (one row per journal × rule × policy), NAME-timeline.csv, NAME.md, plots/*.svg, and the
        wall-clock seconds in NAME-timings.csv (outside the byte contract).
          --out DIR        output root (default results; --results DIR, its old spelling, is deprecated)
          --data-dir DIR   folder holding real corpora such as clinc150/ (default $THEMELAB_DATA)
          --shuffles R     orders per seeded journal (1 to 1000), overriding the file's "shuffles"
          --budget-minutes M  refuse a replay estimated to take longer (default 30; 1 to 100000): a
                           fresh regroup at every save makes a journal's cost grow with N³
          \(Arguments.cacheHelp(indent: 19))

        Replay file: {"kind": "replay", "name": …, "journals": [{"corpus": {"name": "clinc150",
        "intents": 8, "perIntent": 40, "seed": 3}, "order": "bursts(4)", "launch": 25, "initial": 25}],
        "launch": 25, "initial": 25, "thresholds": ["otsu-floored", "kittler-illingworth"],
        "policies": ["always", "never", "launch-only", "app(1.5,0.01)"], "shuffles": 5, "seed": 0, "points": 100}
        Orders: corpus (the corpus's 'order' field), shuffle, bursts(b), fading(w). Policies:
        always, never, launch-only, app(g,τ) = regroup at launch and when N ≥ g·N_last or
        cos(μ_now, μ_last) < 1 − τ (g > 1, τ in [0, 2]). Rules: fixed, noise-floor, otsu,
        otsu-floored, kittler-illingworth.
        """,
    options: ["out", "data-dir", "shuffles", "budget-minutes", "cache"],
    renamed: ["results": "out"],
    positionals: 1...1
) { args, io in
    var plan = try ReplayPlan.read(path: args.positional[0])
    if args["shuffles"] != nil { plan.settings.shuffles = try args.int("shuffles", default: 0, range: 1...1000) }
    let root = try ResultsRoot(path: args["out"] ?? "results")
    try root.prepare(plan.name, reading: try plan.inputFiles(dataDirectory: args["data-dir"]))
    let progress = io.progress("embed")
    var environment = RunEnvironment(
        dataDirectory: args["data-dir"], cacheFolder: try args.cacheFolder(), command: io.commandLine, log: io.note,
        progress: progress.update)
    environment.replayBudgetSeconds = Double(try args.int("budget-minutes", default: 30, range: 1...100_000)) * 60
    let results = try plan.run(in: environment)
    progress.finish()
    try root.replaceFolder(plan.name) { try ReplayReport.write(results, folder: $0) }
    io.note("wrote \(root.path)/\(plan.name)/\(plan.name).{json,csv,md} (\(results.journals.count) journals)")
}
