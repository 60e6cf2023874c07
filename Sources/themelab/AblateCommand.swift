import Foundation
import ThemeLab

let ablateCommand = Command(
    summary: "run an experiment file's grid and write results/NAME/",
    help: """
        usage: themelab ablate Experiments/NAME.json [--results DIR] [--data-dir DIR]

        Runs every corpus × encoder/layer × space × threshold × grouping the experiment file
        names and writes DIR/NAME/NAME.json (full provenance), NAME.csv (tidy, one row per
        corpus × source × space × rule × grouping), NAME.md and plots/*.svg. Progress on stderr.
          --results DIR    output root (default results)
          --data-dir DIR   folder holding real corpora such as clinc150/ (default $THEMELAB_DATA)

        Experiment file: {"name": …, "corpora": [{"name": "seed-12"}, {"name": "clinc150",
        "intents": 20, "perIntent": 30, "seed": 1}, {"name": "file", "path": "x.jsonl"}],
        "encoders": [{"model": "default", "layers": [6]}], "spaces": […], "thresholds": […],
        "groupings": […], "shuffles": 10, "seed": 0}
        """,
    options: ["results", "data-dir"],
    positionals: 1...1
) { args in
    let plan = try ExperimentPlan.read(path: args.positional[0])
    let root = try ResultsRoot(path: args.values["results"] ?? "results")
    let progress = ProgressLine(label: "embed")
    let results = try plan.run(
        in: RunEnvironment(dataDirectory: args.values["data-dir"], log: note, progress: progress.update))
    progress.finish()
    try root.write(results, as: plan.name)
    note("wrote \(root.path)/\(plan.name)/\(plan.name).{json,csv,md} (\(results.analyses.count) analyses)")
}
