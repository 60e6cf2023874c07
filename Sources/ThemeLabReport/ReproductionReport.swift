import Foundation
import ThemeLabCore
import ThemeLabCorpus
import ThemeLabEncoder
import ThemeLabMeasures
import ThemeLabMethods
import ThemeLabPairs
import ThemeLabStudy

/// results/REPORT.md: what `themelab reproduce` found, claim by claim.
package struct ReproductionReport {
    package var experiments: [(name: String, description: String, results: AnalysisResults)]
    package var themeSums: ThemeSumsResult
    package var layout: ReportLayout
    /// Replay experiments (claims C8, C9).
    package var replays: [ReplayResults] = []
    /// Which verdicts flip when every vector moves by one unit in the last place (nil: not checked).
    package var fragility: Fragility?
    /// Size experiments (how many entries before the groups can be trusted).
    package var sizes: [SizeResults] = []

    package init(experiments: [(String, String, AnalysisResults)], themeSums: ThemeSumsResult, layout: ReportLayout) {
        self.experiments = experiments.map { (name: $0.0, description: $0.1, results: $0.2) }
        self.themeSums = themeSums
        self.layout = layout
    }

    /// One table per threshold grouping of the layout, then one per grouping that cuts itself (`ReportLayout.Regret.tables`).
    package func regretTables(_ experiment: String) -> [RegretTable] {
        layout.regret.tables(experiments.first { $0.name == experiment }?.results)
    }

    package static func plotPath(_ study: String, _ table: RegretTable) -> String {
        "\(study)/plots/regret-vs-topics-\(SVGPlot.slug(table.grouping.name)).svg"
    }

    /// results/STUDY/plots/regret-vs-topics-GROUPING.svg, one per grouping.
    package func plots() -> [(path: String, svg: String)] {
        let study = layout.regret.study
        return regretTables(study).map { (Self.plotPath(study, $0), $0.plot()) }
    }

    /// Every label-free rule against each grouping's best threshold (results/regret.md), one table per grouping.
    package func regretTablesMarkdown() -> String {
        let study = layout.regret.study
        let tables = regretTables(study)
        guard !tables.isEmpty else { return "" }
        return "# Regret of each threshold rule, per grouping\n" + Self.regretIntroduction
            + tables.map { regretSubsection($0, study: study) }.joined() + rerunSection(study)
    }

    /// How far the study's order- and seed-dependent groupings agree with their reruns (centred space).
    private func rerunSection(_ study: String) -> String {
        guard let e = experiments.first(where: { $0.name == study }),
            let table = RerunSummary(e.results.analyses, settings: e.results.settings, space: .centred).markdown()
        else { return "" }
        return "\n## Run to run (centred space)\n\n" + table
    }

    /// The recommendation procedure over the study's tables (the grouping × rule with the smallest worst-case relative regret).
    package var regretRecommendation: Recommendation {
        Recommendation(study: regretTables(layout.regret.study), tuning: regretTables(layout.regret.tuning), subset: layout.regret.includes)
    }

    /// REPORT.md's recommendation section; nothing without tables.
    package func recommendation() -> String { regretRecommendation.markdown() }

    /// results/recommendation.json: the suggested default as the names `analyze` takes; nil without tables.
    package func recommendationFile() -> RecommendationFile? { regretRecommendation.file(study: layout.regret.study) }

    /// The suggested default as a size experiment's method.
    var suggestedMethod: SizeMethod? { recommendationFile().map(SizeMethod.init(suggested:)) }

    /// REPORT.md's regret section: how regret is measured, where the tables are, and the plots.
    package func regretSection() -> String {
        let study = layout.regret.study
        let tables = regretTables(study)
        guard !tables.isEmpty else { return "" }
        return Self.regretIntroduction
            + "\nThe table per grouping (every corpus, every rule, the worst cases) is in [regret.md](regret.md).\n\n"
            + tables.map { "![regret vs topics, \($0.grouping)](\(Self.plotPath(study, $0)))\n" }.joined()
    }

    /// The regret section's heading and how regret, the ceilings and the worst case are defined.
    private static let regretIntroduction = """

        ## Threshold rules and groupings that choose their own cuts, against the best threshold (centred space)

        Regret = the best ARI any threshold gives that grouping † − the rule's ARI, never below 0. The best threshold
        is found over every cut for components (the maximum spanning forest) and average linkage (the dendrogram), and
        for leader, on a corpus of at most \(LeaderGrouping.exactItems) entries, over every threshold at which its partition
        changes where there are at most \(LeaderGrouping.exactLimit), else over \(LeaderGrouping.gridSearch):
        thresholds fixed by each corpus alone, never by the rules asked for.
        A rule with no threshold counts as ARI 0. Groupings that
        choose their own cuts (HDBSCAN, Leiden, and those whose neighbourhood follows the corpus size, k = round(c·√N):
        leiden-sqrt and average-modularity) are measured against average linkage's best threshold, and again against
        their own best parameter. The neighbour rules' k and those groupings' parameters were chosen on `rules-tuning`
        only (the generator, CLINC150's train split, SNIPS, HINT3 curekart, Web Applications and Chatbot); the corpora
        below were not used for any choice. \
        Cells: the mean regret over replicates [95% interval] (own draw); bold: the smallest own-draw regret in the row.
        The worst case is relative to the ceiling and leaves out corpora whose ceiling ARI is below 0.1 (no threshold
        recovers their topics). CLINC150's domain
        level labels 15 intents as one topic, coarser than the clusters the vectors form, so the worst case is given
        with and without it.

        """

    /// Writes one regret table under its heading (a grouping that cuts itself: against its own best parameter), then its plot.
    private func regretSubsection(_ table: RegretTable, study: String) -> String {
        var out: String
        if table.ownCuts.contains(table.grouping) {
            out =
                "\n### \(table.grouping) against its own best parameter\n\nThe second ceiling: the best ARI over its "
                + "own parameter at the same k (\(table.rows.map(\.ceiling.search).max { $0.count < $1.count } ?? ""), the values "
                + "up to N on smaller corpora).\n\n"
                + table.markdown(subset: (label: layout.regret.subset.label, include: layout.regret.includes))
        } else {
            out = "\n### \(table.grouping)\n\n"
            if !table.ownCuts.isEmpty {
                out +=
                    "Last columns: groupings that choose their own cuts ("
                    + "\(table.ownCuts.sorted().map(\.name).joined(separator: ", "))), against "
                    + "the same best threshold for \(table.grouping); their noise items count as groups of one.\n\n"
            }
            out += table.markdown(subset: (label: layout.regret.subset.label, include: layout.regret.includes))
        }
        return out + "\n![regret vs topics, \(table.grouping)](\(Self.plotPath(study, table)))\n"
    }

    /// The study's paired rule comparisons, summarised per grouping (the full tables are
    /// in STUDY/STUDY-comparisons.md), and the largest differences confirmed or left indistinguishable.
    package func comparisonSection() -> String {
        let study = layout.regret.study
        guard let e = experiments.first(where: { $0.name == study }) else { return "" }
        let families = RuleComparisonFamily.all(e.results).filter { $0.space == .centred }
        guard let replicates = e.results.settings.replicates, !families.isEmpty else { return "" }
        let out = """

            ## Paired rule comparisons (\(study), centred space, \(replicates) replicates per corpus)

            For each grouping and corpus, every pair of label-free rules on the same replicates: the mean ARI difference with its
            95% interval, a paired t-test and Holm's correction over the pairs of that corpus and grouping. Below, the largest
            differences; per pair of rules, on how many corpora rule a is better, worse or indistinguishable is in
            [comparison-pairs.md](comparison-pairs.md), and every comparison with its interval and p-values in
            [\(study)-comparisons.md](\(study)/\(study)-comparisons.md) (CSV and JSON beside it).

            """
        let all: [FoundComparison] = families.flatMap { f in f.comparisons.map { (f, $0) } }
        return out + largestDifferences(all, study: study)
    }

    /// Per grouping, the collapsed table of rule pairs (results/comparison-pairs.md); nothing without comparisons.
    package func comparisonDetailsMarkdown() -> String {
        let study = layout.regret.study
        guard let e = experiments.first(where: { $0.name == study }) else { return "" }
        let all: [FoundComparison] = RuleComparisonFamily.all(e.results).filter { $0.space == .centred }
            .flatMap { f in f.comparisons.map { (f, $0) } }
        guard !all.isEmpty else { return "" }
        return "# Paired rule comparisons per pair of rules (\(study), centred space)\n\n"
            + "Per grouping and pair, on how many corpora rule a is better, worse or indistinguishable, and the largest difference "
            + "of each kind (mean over replicates with its 95% interval). Every comparison: "
            + "[\(study)-comparisons.md](\(study)/\(study)-comparisons.md).\n"
            + layout.regret.groupings.map { g in comparisonDetails(g, all.filter { $0.family.grouping == g }, study: study) }.joined()
    }

    /// One paired comparison with the family it belongs to.
    private typealias FoundComparison = (family: RuleComparisonFamily, comparison: PairedComparison)

    /// Whether the comparison's verdict flips under the last-bit check (false when not checked).
    private func flips(_ x: FoundComparison, study: String) -> Bool {
        fragility?.flips(study, .comparison, Fragility.key(x.family, x.comparison)) ?? false
    }

    /// Writes one comparison: the difference with its interval, where it was found, Holm's p and whether it flips.
    private func describe(_ x: FoundComparison, study: String) -> String {
        let c = x.comparison
        return "\(c.a) − \(c.b) = \(formatShort(c.difference.mean)) \(formatInterval(c.difference)) (\(x.family.grouping), "
            + "\(x.family.corpus), Holm p \(formatP(c.pHolm)))" + (flips(x, study: study) ? " — flips under the last-bit check" : "")
    }

    /// Writes the five largest differences confirmed and the five largest left indistinguishable, as lists.
    private func largestDifferences(_ all: [FoundComparison], study: String) -> String {
        let bySize = all.sorted { abs($0.comparison.difference.mean) > abs($1.comparison.difference.mean) }
        var out = "\nLargest differences confirmed:\n\n"
        out += bySize.filter { $0.comparison.verdict != .indistinguishable }.prefix(5).map { "- " + describe($0, study: study) + "\n" }
            .joined()
        out += "\nLargest differences left indistinguishable:\n\n"
        out += bySize.filter { $0.comparison.verdict == .indistinguishable }.prefix(5).map { "- " + describe($0, study: study) + "\n" }
            .joined()
        return out
    }

    /// Writes a grouping's collapsed table of rule pairs (one row per pair, in the order first met), or nothing without any.
    private func comparisonDetails(_ grouping: GroupingKey, _ found: [FoundComparison], study: String) -> String {
        guard !found.isEmpty else { return "" }
        var pairs: [String] = []
        var byPair: [String: [FoundComparison]] = [:]
        for x in found {
            let key = "| \(x.comparison.a) | \(x.comparison.b) |"
            if byPair[key] == nil { pairs.append(key) }
            byPair[key, default: []].append(x)
        }
        let corpora = Set(found.map(\.family.corpus)).count
        var out =
            "\n<details><summary>\(grouping): \(pairs.count) pairs of rules on \(corpora) corpora</summary>\n\n"
            + "| a | b | a better on | a worse on | indistinguishable on | largest confirmed | largest indistinguishable | "
            + "flip under the last-bit check |\n|---|---|---|---|---|---|---|---|\n"
        for key in pairs { out += comparisonRow(key, byPair[key]!, study: study) }
        return out + "\n</details>\n"
    }

    /// Writes one rule pair's row: verdict counts over the corpora, the largest differences, and how many flip.
    private func comparisonRow(_ key: String, _ xs: [FoundComparison], study: String) -> String {
        func count(_ v: PairedComparison.Verdict) -> Int { xs.filter { $0.comparison.verdict == v }.count }
        func largest(_ keep: (PairedComparison.Verdict) -> Bool) -> String {
            xs.filter { keep($0.comparison.verdict) }.max {
                abs($0.comparison.difference.mean) < abs($1.comparison.difference.mean)
            }
            .map { "\(formatShort($0.comparison.difference.mean)) \(formatInterval($0.comparison.difference)) \($0.family.corpus)" }
                ?? ""
        }
        return
            "\(key) \(count(.better)) | \(count(.worse)) | \(count(.indistinguishable)) | "
            + "\(largest { $0 != .indistinguishable }) | \(largest { $0 == .indistinguishable }) | "
            + "\(fragility?.checked(study) == true ? String(xs.filter { flips($0, study: study) }.count) : "not checked") |\n"
    }

    package func markdown() -> String {
        var out = header() + summary() + "\n## Recommendation\n" + recommendation() + keyFigures()
        out += layerSweep() + seedPicture()
        out += "\n## Threshold ablation\n\nAverage linkage's ARI per rule, one row per experiment × corpus × space: "
        out += "[ablation.md](ablation.md).\n"
        out += regretSection()
        out += comparisonSection()
        for r in sizes where layout.sizes?.contains(r.name) == true {
            out += "\n" + SizeReport.section(r, suggested: suggestedMethod, folder: r.name)
        }
        for r in replays {
            out += "\n" + ReplayReport.section(r, plotFolder: "\(r.name)/plots", fragility: fragility, frontiers: "\(r.name)/\(r.name).md")
        }
        if let fragility { out += "\n## Verdicts that rest on rounding\n\n" + fragility.markdown(limit: 10) }
        out += experimentList()
        return out
    }

    /// The claims rows of every tabulated experiment, then C7's.
    package var claimsRows: [ClaimsReport.Row] { ClaimsReport.rows(tabulated.map(\.results)) + [C7ThemeSumsGiveTheMean.row(themeSums)] }

    /// The files beside REPORT.md that hold what it links to: the claims rows, the ablation, the regret tables and the
    /// comparisons per pair of rules.
    package func files() throws -> [(path: String, text: String)] {
        let rows = claimsRows
        let json = String(decoding: try JSONOutput.encode(rows), as: UTF8.self)
        return [
            ("claims.md", "# Claims, per corpus\n\n" + Self.claimsReading + ClaimsReport.markdown(rows)),
            ("claims.csv", ClaimsReport.csv(rows)), ("claims.json", json),
            ("ablation.md", "# Threshold ablation\n" + thresholdAblation()), ("regret.md", regretTablesMarkdown()),
            ("comparison-pairs.md", comparisonDetailsMarkdown()),
            ("recommendation.json", try recommendationFile().map { String(decoding: try JSONOutput.encode($0), as: UTF8.self) } ?? ""),
        ].filter { !$0.1.isEmpty }
    }

    /// How the claims rows read.
    package static let claimsReading = """
        Quantities: the mean over the experiment's replicates with its 95% percentile bootstrap interval, then the corpus's \
        own figure ("own draw"); without replicates, the own figure alone. The verdict is taken at the own figures and reads \
        "inconclusive" when it changes anywhere inside the intervals. Also as [claims.csv](claims.csv) and \
        [claims.json](claims.json).


        """

    /// What a bracket is, and what the replicates of a fixed corpus measure and what they do not.
    package static let replicatesReading = """
        A figure followed by a bracket is the mean over the experiment's replicates and its 95% interval; the corpus's own \
        figure, where shown, is labelled "own draw". On a fixed corpus (the seeds, CLINC150, WordNet) the replicates are \
        stratified subsamples of 80% of it: they measure how much a figure varies between corpora of 80% its size drawn \
        from it, not between draws from the population of journals, so a bracket can exclude the full corpus's own figure \
        for reasons of size alone. Synthetic corpora are re-drawn from their generator.

        """

    /// Writes the summary: one row per claim, how to read it, and where the per-corpus rows are.
    private func summary() -> String {
        "\n## Summary\n\nEach claim's verdicts counted over the rows of [claims.md](claims.md) (one per experiment × corpus × "
            + "vector source; [CSV](claims.csv), [JSON](claims.json)) and, for C8 and C9, over the replay's journals × rules. A "
            + "verdict is taken at the corpus's own figures and reads \"inconclusive\" when it changes inside the intervals. "
            + "The key figure is the row at the median of the replicate means, with its 95% interval, then the range of the "
            + "rows' own draws (C8, C9: means over orders and their intervals).\n\n"
            + ClaimsSummary.markdown(claimsRows, replays: replays) + "\n" + Self.replicatesReading
    }

    /// The experiments in the claims and ablation tables: the layer sweep has its own table; ci-gate repeats corpora of
    /// seeds and synthetic.
    private var tabulated: [(name: String, description: String, results: AnalysisResults)] {
        experiments.filter { !layout.notTabulated.contains($0.name) }
    }

    /// Writes the title, the opening lines, what produced the report, with which arithmetic, and where the full tables are.
    private func header() -> String {
        let first = experiments.first?.results.provenance
        let opening = openingLines().enumerated().map { "\($0.offset + 1). \($0.element)\n" }.joined()
        return """
            # ThemeLab: does the journal method find the topics people return to?

            \(opening)
            Produced by `make reproduce` (`themelab reproduce`); never edited by hand. themelab \(Tool.version),
            OpenBLAS kernel \(first?.blas.kernel ?? "?"), \(first?.blas.arithmetic?.rawValue ?? "unrecorded") arithmetic,
            \(first?.blas.config ?? "").
            Each experiment's full tables (JSON with provenance and input checksums, tidy CSV, Markdown) are in
            `results/NAME/`; the run's timestamp is in `results/provenance.json`, its wall-clock times in `results/timings.csv`.
            † marks label-informed figures, never a method: the oracle threshold maximises the pair F1 of
            "similarity ≥ t" against the labels (so a grouping's ARI can beat it), and k-means gets k = topics.
            Contents: [summary](#summary), [recommendation](#recommendation), [key figures](#key-figures), then the layer
            sweep, the regret of each rule, paired comparisons, the replay (C8, C9), rounding and the experiments.

            """
    }

    /// Writes the key figures: the layout's histograms, then the anisotropy-by-layer plot if the sweep ran.
    private func keyFigures() -> String {
        var out = "\n## Key figures\n\n"
        for (experiment, corpus, space) in layout.keyFigures.map({ ($0.experiment, $0.corpus, $0.space) }) {
            guard let e = experiments.first(where: { $0.name == experiment }),
                let a = e.results.analyses.first(where: { $0.corpus.name == corpus })
            else { continue }
            out +=
                "![\(corpus), \(space) "
                + "space](\(experiment)/plots/\(SVGPlot.stem(corpus: corpus, source: a.source, space: space.description))-histogram.svg)\n"
        }
        let layers = layout.layers
        if experiments.contains(where: { $0.name == layers.experiment }) {
            out += "![anisotropy by layer](\(layers.experiment)/plots/\(SVGPlot.slug(layers.corpus))-layers.svg)\n"
        }
        return out
    }

    /// Writes the anisotropy-by-layer table, one row per layer, or nothing if the sweep did not run.
    private func layerSweep() -> String {
        let layers = layout.layers
        guard let sweep = experiments.first(where: { $0.name == layers.experiment }) else { return "" }
        var out =
            "\n## Anisotropy by layer (\(layers.corpus))\n\n| source | raw unrelated median | raw band (p99 − p1) | "
            + "centred "
            + "unrelated median | centred band | Otsu (centred) | average ARI at Otsu (centred) |\n|---|---|---|---|---|---|---|\n"
        for a in sweep.results.analyses { out += layerRow(a) }
        return out
    }

    /// The seed's anisotropy picture point by point (C1, C2 and C6 as reported) on every encoder and corpus of the
    /// layout's `seedPicture` experiment.
    private func seedPicture() -> String {
        guard let name = layout.seedPicture, let e = experiments.first(where: { $0.name == name }) else { return "" }
        var out =
            "\n## The seed's picture, per encoder\n\nThe seed reports, on a pooled encoder not trained for sentence similarity: "
            + "C1 \(C1NarrowRawBand.reported); C2 \(C2CentringSpreads.reported); C6 \(C6OtsuFindsTheValley.reported). The same "
            + "figures here, on each encoder of [`\(name)`](\(name)/\(name).md) (a masked-LM encoder is the kind the seed measured; "
            + "docs/encoders.md):\n\n"
            + "| corpus | source | raw unrelated p1 to p99 (band) | raw unrelated median | centred unrelated median | "
            + "centred related p99 | Otsu (centred) | related pairs above Otsu | components at Otsu: groups, ARI |\n"
            + "|---|---|---|---|---|---|---|---|---|\n"
        for a in e.results.analyses { out += seedPictureRow(a) }
        return out
    }

    /// One corpus × encoder of the seed's picture.
    private func seedPictureRow(_ a: CorpusAnalysis) -> String {
        let (r, c, otsu) = (a.space(.raw), a.space(.centred), C6OtsuFindsTheValley.rule)
        let (ru, cu, cr) = (r?.statistics[.unrelated], c?.statistics[.unrelated], c?.statistics[.related])
        let (t, row) = (c?.threshold(otsu), c?.outcome(rule: otsu, grouping: SingleLinkageComponents()))
        let above = t?.relatedAbove.map { "\($0) of \(cr.map { String($0.count) } ?? "n/a") (\(t?.pairsAbove ?? 0) pairs above)" }
        return
            "| \(a.corpus.name) | \(a.source) | \(formatShort(ru?.p1)) to \(formatShort(ru?.p99)) "
            + "(\(formatShort(ru.map { $0.p99 - $0.p1 }, r?.replicateSeparation?[.bandWidth]))) | "
            + "\(formatShort(ru?.median, r?.replicateStatistics?[.unrelated]?[.median])) | "
            + "\(formatShort(cu?.median, c?.replicateStatistics?[.unrelated]?[.median])) | "
            + "\(formatShort(cr?.p99, c?.replicateStatistics?[.related]?[.p99])) | \(formatShort(t?.value, t?.replicates)) | "
            + "\(above ?? "n/a") | \(row?.groups.map(String.init) ?? "n/a"), "
            + "ARI \(formatShort(row?.recovery?.ari, row?.replicates?[.ari])) |\n"
    }

    /// Writes one layer's row: raw and centred unrelated median and band, centred Otsu and average linkage's ARI there.
    private func layerRow(_ a: CorpusAnalysis) -> String {
        let (r, c, otsu) = (a.space(.raw), a.space(.centred), OtsuThreshold(bins: 256))
        let (ru, cu) = (r?.statistics[.unrelated], c?.statistics[.unrelated])
        let row = c?.outcome(rule: otsu, grouping: AverageLinkageCut())
        return
            "| \(a.source) | \(formatShort(ru?.median, r?.replicateStatistics?[.unrelated]?[.median])) | "
            + "\(formatShort(ru.map { $0.p99 - $0.p1 }, r?.replicateSeparation?[.bandWidth])) | "
            + "\(formatShort(cu?.median, c?.replicateStatistics?[.unrelated]?[.median])) | "
            + "\(formatShort(cu.map { $0.p99 - $0.p1 }, c?.replicateSeparation?[.bandWidth])) | "
            + "\(formatShort(c?.threshold(otsu)?.value, c?.threshold(otsu)?.replicates)) | "
            + "\(formatShort(row?.recovery?.ari, row?.replicates?[.ari])) |\n"
    }

    /// The threshold ablation (results/ablation.md): average linkage's ARI per standard rule, one row per experiment ×
    /// corpus × space.
    package func thresholdAblation() -> String {
        var out = "\nAverage linkage's ARI per rule; the best label-free rule at the corpus's own draw in bold.\n\n"
        out +=
            "Each cell: for experiments run with replicates, the mean ARI over them with its 95% percentile bootstrap interval, "
            + "then the corpus's own ARI (\"own draw\"); without replicates, the own ARI alone. How each corpus was replicated "
            + "is in its experiment's tables.\n\n"
        let rules = standardThresholdRules
        out +=
            "| experiment | corpus | source | space | topics | related share | "
            + rules.map { $0.isLabelInformed ? "\($0.name) †" : $0.name }.joined(separator: " | ") + " | k-means k=topics † |\n"
        out += "|---|---|---|---|---|---|" + String(repeating: "---|", count: rules.count + 1) + "\n"
        for e in tabulated {
            for a in e.results.analyses {
                for s in a.spaces { out += ablationRow(e.name, a, s, rules: rules) }
            }
        }
        return out
    }

    /// Writes one ablation row: the corpus, then each rule's ARI (the best label-free one in bold) and k-means at k = topics.
    private func ablationRow(_ experiment: String, _ a: CorpusAnalysis, _ s: SpaceAnalysis, rules: [ThresholdRule]) -> String {
        let rows = rules.map { s.outcome(rule: $0, grouping: AverageLinkageCut()) }
        let aris = rows.map { $0?.recovery?.ari }
        let best = zip(rules, aris).filter { !$0.0.isLabelInformed }.compactMap(\.1).max()
        let cells = zip(rules, rows).map { r, row -> String in
            guard let v = row?.recovery?.ari else { return "n/a" }
            return withInterval(
                !r.isLabelInformed && v == best ? "**\(formatShort(v))**" : formatShort(v), row?.replicates?[.ari])
        }
        let kmeansRow = s.outcome(rule: nil, grouping: SphericalKMeansReference())
        let kmeans = formatShort(kmeansRow?.recovery?.ari, kmeansRow?.replicates?[.ari])
        return
            "| \(experiment) | \(a.corpus.name) | \(a.source) | \(s.space) | \(a.corpus.topics.map(String.init) ?? "n/a") | "
            + "\(a.corpus.relatedPairShare.map { String(format: "%.2f%%", 100 * $0) } ?? "n/a") | "
            + cells.joined(separator: " | ") + " | \(kmeans) |\n"
    }

    /// Writes the list of experiments and replays, each with its description and inputs.
    private func experimentList() -> String {
        var out = "\n## Experiments\n\n"
        for e in experiments {
            out += "- [`\(e.name)`](\(e.name)/\(e.name).md): \(e.description) Inputs: \(Self.inputs(e.results.provenance)).\n"
        }
        for r in replays {
            out += "- [`\(r.name)`](\(r.name)/\(r.name).md): \(r.description ?? "") Inputs: \(Self.inputs(r.provenance)).\n"
        }
        for r in sizes {
            out += "- [`\(r.name)`](\(r.name)/\(r.name).md): \(r.description ?? "") Inputs: \(Self.inputs(r.provenance)).\n"
        }
        return out
    }

    /// An experiment's input files and model, each with the start of its checksum.
    package static func inputs(_ p: Provenance) -> String {
        p.inputs.sorted { $0.key < $1.key }.map { "`\(URL(fileURLWithPath: $0.key).lastPathComponent)` \($0.value.prefix(12))" }
            .joined(separator: ", ") + (p.model.map { "; model \($0.prefix(12))" } ?? "")
    }
}

// MARK: The opening lines

extension ReproductionReport {
    /// The journal method as the registries name it: its rule and grouping, in the regret tables' centred space.
    package static let journalMethod: (rule: RuleKey, grouping: GroupingKey) = ("otsu-floored", "leader")

    /// The lines REPORT.md opens with, each a finding a reader can quote, computed from the results: how the journal
    /// method fares against the best threshold, the recommendation, the claims' verdicts, its regrouping policy (C9)
    /// and what a figure is. A line whose results are missing is left out.
    package func openingLines() -> [String] {
        [journalMethodLine(), recommendationLine(), claimsLine(), regroupingLine(), figuresLine()].compactMap { $0 }
    }

    /// The journal method's relative regret in the study: on how many corpora it is within the target, and its worst case.
    private func journalMethodLine() -> String? {
        let (rule, grouping) = (RegretTable.Column.rule(Self.journalMethod.rule), Self.journalMethod.grouping)
        guard let table = regretTables(layout.regret.study).first(where: { $0.grouping == grouping && !$0.ownCuts.contains(grouping) }),
            let worst = table.worst(rule)
        else { return nil }
        let scored = table.rows.filter { $0.ceiling.ari >= RegretTable.meaningfulCeiling }
        let close = scored.filter { row in row.regret[rule].map { $0 / row.ceiling.ari <= RecommendationFile.target } ?? false }
        return "**[The journal method](../docs/glossary.md#the-journal-method)** (centred vectors, `\(rule)` with `\(grouping)`) "
            + "comes within \(formatPercent(RecommendationFile.target)) of the [ceiling](../docs/glossary.md#ceiling) on "
            + "\(close.count) of the \(scored.count) study corpora whose ceiling is ARI \(formatShort(RegretTable.meaningfulCeiling)) "
            + "or more; at worst it loses \(formatPercent(worst.relative)) of the ceiling's ARI at the own draws\(formatBounds(worst)), "
            + "on \(worst.corpus)."
    }

    /// Whether any rule and grouping meets the target, and the suggested default's worst case.
    private func recommendationLine() -> String? {
        let r = regretRecommendation
        guard let best = r.best else { return nil }
        let target = "(within \(formatPercent(RecommendationFile.target)) of the ceiling on every study corpus)"
        let others = r.alongside(best, \.all).count
        let verdict = r.targetMet ? "**\(r.name(best)) meets the target**" : "**No rule and grouping tried meets the target**"
        return "\(verdict) \(target). The suggested default, \(r.name(best)), loses at worst "
            + "\(formatPercent(best.all.relative)) of the ceiling's ARI at the own draws\(formatBounds(best.all)); "
            + "\(others) more \(others == 1 ? "is" : "are") indistinguishable from it ([recommendation](#recommendation))."
    }

    /// Each claim under the verdict its rows (or the replay's journals × rules) give most often.
    private func claimsLine() -> String? {
        let order: [Verdict] = [.holds, .partly, .inPart, .doesNotHold, .inconclusive]
        var claims: [Verdict: [String]] = [:]
        for claim in ClaimsSummary.claims {
            let verdicts = ClaimsSummary.replayLine(claim, replays)?.verdicts ?? claimsRows.filter { $0.claim == claim.id }.map(\.verdict)
            let counts = order.map { v in verdicts.filter { $0 == v }.count }
            guard let most = counts.max(), most > 0, let k = counts.firstIndex(of: most) else { continue }
            claims[order[k], default: []].append(claim.id)
        }
        guard !claims.isEmpty else { return nil }
        return "**[The claims](../docs/glossary.md#the-claims-c1c9) by the verdict their rows give most often:** "
            + order.compactMap { v in claims[v].map { "\(v) \($0.joined(separator: ", "))" } }.joined(separator: "; ")
            + " ([summary](#summary))."
    }

    /// The journal method's regrouping policy (C9): on how many journals × rules it holds, and what it costs there.
    private func regroupingLine() -> String? {
        let c9 = replays.flatMap { $0.journals.flatMap { $0.rules.compactMap(\.c9) } }
        guard let policy = c9.first?.policy else { return nil }
        let held = c9.filter { $0.verdict == .holds }
        let opening = "**The journal method's regrouping policy** (`\(policy)`, C9) holds on \(held.count) of \(c9.count) journals × rules"
        let (staleness, work) = (held.map(\.meanStaleness.mean).sorted(), held.map(\.workShare.mean).sorted())
        guard let low = staleness.first, let high = staleness.last, let least = work.first, let most = work.last else {
            return opening + "."
        }
        return opening + ": there the groups it shows keep a mean [staleness](../docs/glossary.md#staleness) ARI of "
            + "\(formatShort(low)) to \(formatShort(high)) against a fresh regroup, for \(formatPercent(least)) to \(formatPercent(most)) "
            + "of the work of regrouping at every save."
    }

    /// What a figure with a bracket is, and how many corpora the study has.
    private func figuresLine() -> String? {
        guard let study = experiments.first(where: { $0.name == layout.regret.study })?.results else { return nil }
        let corpora = Set(study.analyses.map(\.corpus.name)).count
        let figure =
            study.settings.replicates.map {
                "A figure with a bracket is the mean over \($0) [replicates](../docs/glossary.md#replicate) and its 95% "
                    + "[interval](../docs/glossary.md#interval)"
            } ?? "Each figure is one run's"
        return figure + "; the study has \(corpora) corpora, and every parameter was chosen on `\(layout.regret.tuning)` only."
    }
}
