import Foundation
import ThemeLabCore
import ThemeLabCorpus
import ThemeLabEncoder
import ThemeLabMeasures
import ThemeLabMethods
import ThemeLabPairs
import ThemeLabReport
import ThemeLabStudy

let analyzeCommand = Command(
    summary: "distribution, separation, every threshold × grouping and its recovery for one corpus",
    help: """
        usage: themelab analyze --corpus C.jsonl|NAME [--embeddings X.npy | --model DIR [--layer K]]
                                [--space raw,centred] [--thresholds R,…] [--groupings G,…]
                                [--shuffles 10] [--seed 0] [--json] [--out DIR] [--assignments FILE]
                                [--html FILE.html] [--show-groups]

        One table per space: pair distribution (all / related / unrelated), separation (AUC, d′,
        band widths), each threshold rule's value, and for each rule × grouping the recovery
        metrics (ARI, NMI, V-measure, pair precision/recall/F1, purity, singleton and
        largest-group shares). Without labels: distributions, thresholds and group counts.
          --corpus C        JSONL, CSV or TSV corpus (labels in 'label'), or a registry name
                            (themelab datasets list): \(wrappedList(DatasetRegistry.entries.map(\.name), indent: 20, used: 26))
          --id-column F, --text-column F, --label-column F
                            the file's fields (JSONL) or columns (CSV, TSV) holding each item's
                            id, text and label (default id, text, label); without ids, items
                            are numbered by line
          --data-dir DIR    folder holding real corpora (default $THEMELAB_DATA)
          --split S, --level L, --intents K, --per-intent M, --max-items N, --corpus-seed S
                            registry options (CLINC150 split/level/subsample; WordNet cap)
          --embeddings X    vectors, one row per item in corpus order (else the encoder runs)
          --model DIR       sentence-transformers folder (default: the bootstrap one)
          --layer K         encoder layer (default: last)
          --space S,…       \(EmbeddingSpace.registry.wrappedForms(indent: 20, suffix: " (default raw,centred)"))
          --thresholds R,…  \(thresholdRuleRegistry.wrappedForms(indent: 20, suffix: " (default: the first seven"))
                            and oracle; see docs/method.md for what each does)
          --groupings G,…   \(groupingRegistry.wrappedForms(indent: 20))
                            (default: the first five, which cut at each rule's threshold
                            or at the number of topics; the rest choose their own cuts)
          --shuffles N      seeded shuffles for the leader's order spread (default 10)
          --seed S          seed for shuffles and k-means (default 0)
          --json            print the results JSON instead of Markdown
          --out DIR         also write DIR/analysis.{json,md,csv}
          --assignments F   write which entries form each group, one row per item and cell
                            (id, text, label, space, rule, grouping, group, noise, group size,
                            whether central, the group's words): JSON Lines for F.jsonl, CSV for
                            F.csv, gzip-compressed for F.jsonl.gz or F.csv.gz
          --html F.html     write the threshold explorer: one self-contained page (docs/explorer.md)
          \(Arguments.cacheHelp(indent: 20))
          --show-groups     also list each label-free cell's groups: their words (c-TF-IDF) and
                            most central entries
        """,
    options: [
        "corpus", "embeddings", "model", "layer", "space", "thresholds", "groupings", "shuffles", "seed", "out", "assignments", "html",
        "data-dir", "id-column", "text-column", "label-column", "split", "level", "intents", "per-intent", "max-items", "corpus-seed",
        "cache",
    ],
    switches: ["json", "show-groups"]
) { args, io in
    let corpusPath = try args.required("corpus")
    if args["embeddings"] != nil && (args["model"] != nil || args["layer"] != nil) {
        throw ThemeLabError.usage("give --embeddings or --model/--layer, not both")
    }
    var settings = AnalysisSettings()
    let source = ParameterSource.commandLine
    if let s = args.names("space") { settings.spaces = try source.values(s, "spaces", EmbeddingSpace.init(name:)) }
    if let s = args.names("thresholds") { settings.rules = try source.values(s, "thresholds", thresholdRule(named:)) }
    if let s = args.names("groupings") { settings.groupings = try source.values(s, "groupings", grouping(named:)) }
    settings.shuffles = try args.int("shuffles", default: 10, range: Validation.shuffles)
    settings.seed = UInt64(try args.int("seed", default: 0, range: 0...Int.max))
    try Validation.check(settings, source: .commandLine)

    let isFile = FileManager.default.fileExists(atPath: corpusPath) || DatasetRegistry.entry(corpusPath) == nil
    var spec = CorpusSpec(name: isFile ? "file" : corpusPath)
    spec.path = isFile ? corpusPath : nil
    // Every corpus option goes into the spec, so the plan's validator refuses one the corpus does not take (and checks
    // the values of those it does), as it does in an experiment file.
    (spec.idColumn, spec.textColumn, spec.labelColumn) = (args["id-column"], args["text-column"], args["label-column"])
    (spec.split, spec.level) = (args["split"], args["level"])
    (spec.intents, spec.perIntent, spec.maxItems) = (
        try args.wholeNumber("intents"), try args.wholeNumber("per-intent"), try args.wholeNumber("max-items")
    )
    spec.seed = try args["corpus-seed"].map { _ in UInt64(try args.int("corpus-seed", default: 0, range: 0...Int.max)) }
    let layer = try args["layer"].map { _ in try args.int("layer", default: 0, range: Validation.layer) }
    let encoder = ExperimentPlan.Encoder(model: args["model"], layers: layer.map { [$0] }, embeddings: args["embeddings"])
    // The one validator of a plan, as an experiment file's is checked; refusals name the options.
    let plan = ExperimentPlan(name: "analysis", corpora: [spec], encoders: [encoder], settings: settings)
    try plan.validate(source: .commandLine)
    let assignments = try args["assignments"].map { ($0, try AssignmentsReport.format(of: $0)) }
    let writes =
        (args["out"].map { AnalysisResults.files(folder: $0, stem: "analysis") } ?? []) + (assignments.map { [$0.0] } ?? [])
        + (args["html"].map { [$0] } ?? [])
    if !writes.isEmpty {
        try CommandPaths(reads: try plan.inputFiles(dataDirectory: args["data-dir"]), writes: writes.map { ($0, .file) }).check()
    }
    let progress = io.progress("embed")
    var environment = RunEnvironment(
        dataDirectory: args["data-dir"], cacheFolder: try args.cacheFolder(), command: io.commandLine, log: io.note,
        progress: progress.update)
    // Members are kept only to be listed (the Markdown) or written (--assignments).
    (environment.keepsMembers, environment.writesAssignments) = (args.flag("show-groups") && !args.flag("json"), assignments != nil)
    environment.keepsExplorer = args["html"] != nil
    var result = try SingleAnalysis(plan).run(in: environment)
    progress.finish()
    result.name = "analysis of \(result.analyses.first?.corpus.name ?? corpusPath)"
    // One set: a failure writing any (an --assignments path that cannot be made) leaves none of them written; the
    // assignments are streamed into their staged file, row by row; an earlier run's analysis files that this one does
    // not write (its regret table) go with the renames.
    let files: [(contents: FileContents, path: String)] =
        try (args["out"].map { try result.rendered(folder: $0, stem: "analysis") } ?? []).map { (.bytes($0.data), $0.path) }
        + (assignments.map { [(AssignmentsReport.contents(result.analyses, as: $0.1), $0.0)] } ?? [])
        + (try args["html"].map { [(.bytes(Data(try ExplorerPage.html(result).utf8)), $0)] } ?? [])
    try AtomicFile.write(files, removing: args["out"].map { AnalysisResults.files(folder: $0, stem: "analysis") } ?? [])
    if args.flag("json") {
        io.print(try JSONOutput.string(result), terminator: "")
    } else {
        io.print(result.markdown() + AssignmentsReport.listing(result.analyses, shown: args.flag("show-groups")), terminator: "")
    }
}
