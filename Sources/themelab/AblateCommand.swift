import Foundation
import ThemeLab

let ablateCommand = Command(
    summary: "run an experiment file's grid and write results/NAME/",
    help: """
        usage: themelab ablate Experiments/NAME.json [--results DIR] [--data-dir DIR] [--replicates R]

        Runs every corpus × encoder/layer × space × threshold × grouping the experiment file
        names and writes DIR/NAME/NAME.json (full provenance), NAME.csv (tidy, one row per
        corpus × source × space × rule × grouping), NAME.md and plots/*.svg. Progress on stderr.
          --results DIR    output root (default results)
          --data-dir DIR   folder holding real corpora such as clinc150/ (default $THEMELAB_DATA)
          --replicates R   R replicates of every corpus (2 to 1000), overriding the file's "replicates":
                           every figure gets a 95% interval and rules are compared pairwise

        Experiment file: {"name": …, "corpora": [{"name": "seed-12"}, {"name": "clinc150",
        "intents": 20, "perIntent": 30, "seed": 1}, {"name": "file", "path": "x.jsonl"}],
        "encoders": [{"model": "default", "layers": [6]}], "spaces": […], "thresholds": […],
        "groupings": […], "shuffles": 10, "seed": 0, "replicates": 10,
        "resample": {"scheme": "stratified-subsample", "fraction": 0.8}}
        A sampled corpus (a CLINC150 or WordNet subsample, the generator) is re-drawn per
        replicate with seed + r; a fixed one (the seeds, a whole split, a file) needs "resample"
        (here or on the corpus): each replicate keeps that fraction of every topic.
        """,
    options: ["results", "data-dir", "replicates"],
    positionals: 1...1
) { args in
    var plan = try ExperimentPlan.read(path: args.positional[0])
    if args.values["replicates"] != nil { plan.settings.replicates = try args.int("replicates", default: 0, range: ReplicateCorpus.count) }
    let root = try ResultsRoot(path: args.values["results"] ?? "results")
    let progress = ProgressLine(label: "embed")
    let results = try plan.run(
        in: RunEnvironment(dataDirectory: args.values["data-dir"], log: note, progress: progress.update))
    progress.finish()
    try root.write(results, as: plan.name)
    note("wrote \(root.path)/\(plan.name)/\(plan.name).{json,csv,md} (\(results.analyses.count) analyses)")
}
