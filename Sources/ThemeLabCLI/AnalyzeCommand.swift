import Foundation
import ThemeLabCore
import ThemeLabCorpus
import ThemeLabEncoder
import ThemeLabMeasures
import ThemeLabMethods
import ThemeLabPairs
import ThemeLabReport
import ThemeLabStudy

struct AnalyzeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        name: "analyze", abstract: "Distribution, separation, every threshold × grouping and its recovery for one corpus.",
        discussion: """
            One table per space: the pair distribution (all, related, unrelated), the separation (AUC, d′, band widths),
            each threshold rule's value, and for each rule × grouping the recovery (ARI, NMI, V-measure, pair precision,
            recall and F1, purity, singleton and largest-group shares); with --show-groups, each label-free cell's groups
            with their words and most central entries. Without labels: the distributions, the thresholds and the group
            counts. docs/method.md says what each space, rule and grouping does.
            """)

    var corpus = ""
    /// The corpus's options; its name and path are `corpus`'s.
    var spec = CorpusSpec(name: DatasetRegistry.file.name)
    var dataDirectory: String?
    var embeddings: String?
    var model: String?
    var layer: Int?
    var settings = AnalysisSettings()
    var json = false
    var out: String?
    var assignments: String?
    var html: String?
    var showGroups = false
    var cache = CacheOption()

    static var arguments: [Argument<Self>] {
        [
            .option(
                "--corpus", \.corpus, .path, value: "<C>", required: true,
                help: "JSONL, CSV or TSV corpus (labels in 'label'), or a registry name (themelab datasets list): "
                    + DatasetRegistry.entries.map(\.name).joined(separator: ", ") + ".")
        ] + corpusOptions + encoderOptions + settingsOptions + [
            .flag("--json", \.json, help: "Print the results JSON instead of Markdown."),
            .option("--out", \.out, .path, value: "<DIR>", help: "Also write DIR/analysis.{json,md,csv}."),
            .option(
                "--assignments", \.assignments, .path, value: "<FILE>",
                help: "Write which entries form each group, one row per item and cell (id, text, label, space, rule, grouping, "
                    + "group, noise, group size, whether central, the group's words): JSON Lines for FILE.jsonl, CSV for "
                    + "FILE.csv, gzip-compressed for FILE.jsonl.gz or FILE.csv.gz."),
            .option(
                "--html", \.html, .path, value: "<FILE.html>",
                help: "Write the threshold explorer: one self-contained page (docs/explorer.md)."),
            .flag(
                "--show-groups", \.showGroups,
                help: "Also list each label-free cell's groups: their words (c-TF-IDF) and most central entries."),
        ] + CacheOption.arguments(\.cache)
    }

    /// The corpus's options, as an experiment file's corpus holds them.
    static var corpusOptions: [Argument<Self>] {
        typealias Field = CorpusSpec.CodingKeys
        return [
            .option(
                Field.idColumn, \.spec.idColumn, value: "<F>", unset: CorpusColumns().id,
                help: "The field (JSONL) or column (CSV, TSV) of ids."),
            .option(Field.textColumn, \.spec.textColumn, value: "<F>", unset: CorpusColumns().text, help: "The field or column of texts."),
            .option(
                Field.labelColumn, \.spec.labelColumn, value: "<F>", unset: CorpusColumns().label,
                help: "The field or column of labels; without ids, items are numbered by line."),
            .dataDirectory(\.dataDirectory),
            .option(Field.split, \.spec.split, value: "<S>", unset: CLINC150.Options().split, help: "CLINC150's split."),
            .option(Field.level, \.spec.level, value: "<L>", unset: CLINC150.Options().level, help: "CLINC150's labels."),
            .option(Field.intents, \.spec.intents, value: "<K>", unset: "all", help: "CLINC150: a seeded subsample of K intents."),
            .option(Field.perIntent, \.spec.perIntent, value: "<M>", unset: "all", help: "CLINC150: M utterances of each intent."),
            .flag(Field.includeOutOfScope, \.spec.includeOutOfScope, help: "CLINC150: keep the out-of-scope utterances."),
            .option(Field.minimumTopicSize, \.spec.minimumTopicSize, value: "<M>", help: "WordNet: the smallest topic kept."),
            .option(Field.maxItems, \.spec.maxItems, value: "<N>", unset: "all", help: "WordNet: a seeded cap on the items."),
            .option(Field.seed, \.spec.seed, value: "<S>", help: "The seed of a subsample or of the generator."),
        ]
    }

    /// Where the vectors come from.
    static var encoderOptions: [Argument<Self>] {
        typealias Field = ExperimentPlan.Encoder.CodingKeys
        return [
            .option(
                Field.embeddings, \.embeddings, value: "<X.npy>", help: "Vectors, one row per item in corpus order (else the encoder runs)."
            ),
            .option(
                Field.model, \.model, value: "<DIR>", unset: "$THEMELAB_MODEL, else the one scripts/bootstrap installed",
                help: "sentence-transformers folder."),
            .option(Field.layers, \.layer, value: "<K>", one: true, unset: "the last", help: "Encoder layer."),
        ]
    }

    /// What is computed: spaces, rules, groupings, shuffles and seed.
    static var settingsOptions: [Argument<Self>] {
        typealias Field = ExperimentPlan.Keys
        return [
            .option(
                Field.spaces, \.settings.spaces, value: "<S,…>", read: readNames(EmbeddingSpace.init(name:)),
                show: { $0.map(\.description).joined(separator: ", ") }, help: "Spaces."),
            .option(
                Field.thresholds, \.settings.rules, value: "<R,…>", read: readNames(thresholdRule(named:)),
                show: { $0.map(\.name).joined(separator: ", ") }, help: "Threshold rules."),
            .option(
                Field.groupings, \.settings.groupings, value: "<G,…>", read: readNames(grouping(named:)),
                show: { $0.map(\.name).joined(separator: ", ") },
                help: "Groupings; the default ones cut at each rule's threshold or at the number of topics, the rest choose "
                    + "their own cuts."),
            .option(Field.shuffles, \.settings.shuffles, value: "<N>", help: "Seeded shuffles for the leader's order spread."),
            .option(Field.seed, \.settings.seed, value: "<S>", help: "Seed for the shuffles and k-means."),
        ]
    }

    func run(_ io: Invocation) throws {
        let plan = try self.plan()
        let files = try outputs(plan)
        let progress = io.progress("embed")
        var environment = RunEnvironment(
            dataDirectory: dataDirectory, cacheFolder: cache.resolved, command: io.commandLine, log: io.note,
            progress: progress.update)
        // Members are kept only to be listed (the Markdown) or written (--assignments).
        (environment.keepsMembers, environment.writesAssignments) = (showGroups && !json, files.assignments != nil)
        environment.keepsExplorer = html != nil
        var result = try SingleAnalysis(plan).run(in: environment)
        progress.finish()
        result.name = "analysis of \(result.analyses.first?.corpus.name ?? corpus)"
        // One set: a failure writing any (an --assignments path that cannot be made) leaves none of them written; the
        // assignments are streamed into their staged file, row by row; an earlier run's analysis files that this one does
        // not write (its regret table) go with the renames.
        typealias Written = (contents: FileContents, path: String)
        let rendered: [Written] = try (out.map { try result.rendered(folder: $0, stem: "analysis") } ?? []).map {
            (FileContents.bytes($0.data), $0.path)
        }
        let assignments: [Written] = files.assignments.map { [(AssignmentsReport.contents(result.analyses, as: $0.format), $0.path)] } ?? []
        let page: [Written] = try html.map { [(FileContents.bytes(Data(try ExplorerPage.html(result).utf8)), $0)] } ?? []
        let written = rendered + assignments + page
        try AtomicFile.write(written, removing: files.analysis)
        if json {
            io.print(try JSONOutput.string(result), terminator: "")
        } else {
            io.print(result.markdown() + AssignmentsReport.listing(result.analyses, shown: showGroups), terminator: "")
        }
    }

    /// The one-corpus plan the options make, checked as an experiment file's is: the corpus's options against the
    /// corpus's declaration, then what reads more than one field.
    func plan() throws -> ExperimentPlan {
        if embeddings != nil && (model != nil || layer != nil) {
            throw ThemeLabError.usage("give --embeddings or --model/--layer, not both")
        }
        let isFile = FileManager.default.fileExists(atPath: corpus) || DatasetRegistry.entry(corpus) == nil
        var spec = self.spec
        (spec.name, spec.path) = (isFile ? DatasetRegistry.file.name : corpus, isFile ? corpus : nil)
        try ExperimentSchema.check(spec, source: .commandLine)
        let encoder = ExperimentPlan.Encoder(model: model, layers: layer.map { [$0] }, embeddings: embeddings)
        let plan = ExperimentPlan(name: "analysis", corpora: [spec], encoders: [encoder], settings: settings)
        try plan.validate(source: .commandLine)
        return plan
    }

    /// The files --out, --assignments and --html name, checked against the inputs before any work.
    func outputs(_ plan: ExperimentPlan) throws -> (analysis: [String], assignments: (path: String, format: AssignmentsReport.Format)?) {
        let assigned = try assignments.map { (path: $0, format: try AssignmentsReport.format(of: $0)) }
        let analysis = out.map { AnalysisResults.files(folder: $0, stem: "analysis") } ?? []
        let writes = analysis + (assigned.map { [$0.path] } ?? []) + (html.map { [$0] } ?? [])
        if !writes.isEmpty {
            try CommandPaths(reads: try plan.inputFiles(dataDirectory: dataDirectory), writes: writes.map { ($0, .file) }).check()
        }
        return (analysis, assigned)
    }
}
