import Foundation
import ThemeLab

let reproduceCommand = Command(
    summary: "run the embedded default and write results/",
    help: """
        usage: themelab reproduce [--results DIR]

        Runs the harness's embedded default (no data directory, no network) and writes
        DIR (default results/): the pairwise distribution of a seeded synthetic corpus
        (d = 384, 20 topics of 100 items, raw space) as JSON and Markdown.
          --results DIR   output folder (default results)
        """,
    options: ["results"]
) { args in
    let folder = args.values["results"] ?? "results"
    let generator = SyntheticVectors(dimensions: 384, topicSizes: Array(repeating: 100, count: 20),
                                     anisotropy: 2.0, topicStrength: 1.0, noise: 1.2, seed: 12)
    let (vectors, labels) = generator.generate()
    let engine = PairEngine()
    let distribution = engine.run(vectors, labels: labels)
    let summary = PairsSummary(provenance: .current(command: ["themelab", "reproduce"], inputs: [:]),
                               items: vectors.rows, dimensions: vectors.cols, bins: engine.bins, distribution: distribution)
    try AtomicFile.write(try JSONOutput.encode(summary), to: "\(folder)/pairs/synthetic-default.json")
    let report = """
        # ThemeLab results

        Produced by `make reproduce` (`themelab reproduce`); do not edit by hand.
        BLAS kernel: \(summary.provenance.blas.kernel) (\(summary.provenance.blas.kernelChosenBy)); themelab \(Tool.version).

        ## Pairwise distribution, synthetic default (raw space)
        \(vectors.rows) unit vectors, d = \(vectors.cols), 20 topics of 100; generator: anisotropy 2.0, topic strength 1.0,
        noise 1.2, seed 12. Quantiles: \(summary.quantileMethod).

        \(summary.markdown())
        """
    try AtomicFile.write(report, to: "\(folder)/REPORT.md")
    print("wrote \(folder)/REPORT.md and \(folder)/pairs/synthetic-default.json")
}
