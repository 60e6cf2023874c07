import Foundation
import ThemeLabCore
import ThemeLabCorpus
import ThemeLabEncoder
import ThemeLabMeasures
import ThemeLabMethods
import ThemeLabPairs

/// What a grid will cost, estimated before any work, and the stated bounds it is held to. From the declared factors
/// alone: the cells it computes (analyses × spaces × rules × groupings × replicates) and the rule pairs it compares; with
/// the corpora's sizes: its time, the memory it holds and the bytes it writes. `ablate` (and each shard), `analyze`,
/// each experiment of `reproduce`, each task of `slurm ablate` and `gather` pass through it; a grid past a bound is
/// refused naming the factor that drives it (for the sized figures, the one whose halving cuts the figure most).
package struct GridEstimate: Sendable {
    /// The most corpora an experiment lists; the project's own list at most 22 (rules).
    package static let maxCorpora = 1_000
    /// The most cells a grid may declare (an upper bound on the rows it computes); the project's largest declares
    /// 28 440 (rules-tuning: 18 corpora × 20 rules × 79 groupings). A cell is held (about 8 KiB with its report) and
    /// written (about 3 KiB), so a grid at the bound holds about 8 GiB; the memory check refuses more than is available.
    package static let maxCells = 1_000_000.0
    /// The most paired rule comparisons a grid with replicates may declare (analyses × spaces × groupings ×
    /// rules·(rules − 1)/2: they grow with the square of the rules); the project's largest declares 10 890 (rules).
    package static let maxComparisons = 1_000_000.0
    /// The longest one run may be estimated to take (`ablate`, one shard or task, one experiment of `reproduce`):
    /// a day. The project's experiments are each estimated at minutes.
    package static let maxSeconds = 86_400.0
    /// The most bytes one run may write (results, reports, plots, assignments, vectors): 2 GiB, beyond which the
    /// results file could not be read back by `check` and `plot` on this machine. The project's largest writes 11 MB.
    package static let maxOutputBytes = 2.0 * 1_073_741_824
    /// Replicates drawn at once for one vector source (then analysed two at a time, and dropped): a few, not all.
    package static let replicatesAtOnce = 8

    /// Costs measured on this machine (2 cores, a debug build, a cold embedding cache: on the high side for a release run):
    /// seconds per cell and per item of a cell (a grouping's cut and its recovery); seconds per pair of rows of one
    /// space (the report's lookups); seconds per paired comparison (its bootstrap); bytes held per cell of the corpus's
    /// own analysis (with its rendering) and of a replicate's, and per comparison; bytes written per cell, per replicate
    /// of a cell, per comparison, per space of an analysis (its plots' frames); sentences embedded per second per
    /// encoder run (the Slurm requests' figure).
    static let secondsPerCell = 3e-4, secondsPerCellItem = 3e-6, secondsPerRowPair = 3.3e-7, secondsPerComparison = 6e-5
    static let heldPerCell = 8_192.0, heldPerReplicateCell = 2_560.0, heldPerComparison = 2_048.0
    static let writtenPerCell = 3_072.0, writtenPerReplicate = 200.0, writtenPerComparison = 600.0, writtenPerSpace = 40_960.0
    static let sentencesPerSecond = 100.0, encoderBytes = 600.0 * 1_048_576

    /// One corpus as the grid sees it: its field, the analyses it gives, and its size once loaded.
    package struct Corpus: Sendable {
        package var field: String
        package var sources: Double
        package var size: ExperimentPlan.CorpusSize?
        /// Items, halved when the estimate asks what a smaller corpus would cost.
        var items: Double
        /// Bytes of the largest stage of one of its analyses (`Validation.memoryNeeds`).
        var stageBytes = 0.0
    }

    package var corpora: [Corpus]
    package var settings: AnalysisSettings
    package var spaces: Double, rules: Double, thresholdGroupings: Double, otherGroupings: Double
    /// Replicates per corpus; 0 for none.
    package var replicates: Double
    package var encoderRuns: Double
    /// Whether the run keeps each cell's members (`analyze`), and writes every space's vectors (`ablate --vectors`).
    package var keepsMembers = false, writesVectors = false

    /// The grid `plan` declares, before any corpus is loaded.
    package init(_ plan: ExperimentPlan) {
        let s = plan.settings
        corpora = plan.corpora.indices.map { Corpus(field: "corpora[\($0)]", sources: Double(plan.analysesPerCorpus($0)), items: 0) }
        settings = s
        (spaces, rules) = (Double(s.spaces.count), Double(s.rules.count))
        thresholdGroupings = Double(s.groupings.filter { $0.kind == .threshold }.count)
        otherGroupings = Double(s.groupings.count) - thresholdGroupings
        replicates = Double(s.replicates ?? 0)
        encoderRuns = Double(plan.encoderRuns)
    }

    /// The grid `plan` runs on corpora of `sizes` (each naming its index in the plan).
    package init(_ plan: ExperimentPlan, sizes: [ExperimentPlan.CorpusSize]) {
        self.init(plan)
        corpora = sizes.map { s in
            Corpus(field: "corpora[\(s.index)]", sources: Double(plan.analysesPerCorpus(s.index)), size: s, items: Double(s.items))
        }
        for k in corpora.indices { corpora[k].stageBytes = stageBytes(of: corpora[k]) }
    }

    /// The largest stage of one analysis of `c` (`Validation.memoryNeeds`) at its items.
    func stageBytes(of c: Corpus) -> Double {
        guard let size = c.size else { return 0 }
        return Validation.memoryNeeds(settings, items: Int(c.items), dimensions: size.dimensions, corpus: size.name).map(\.bytes).max() ?? 0
    }
}

// MARK: - The declared grid

extension GridEstimate {
    /// Refuses more than `maxCorpora` corpora, as a file's list is read (before a corpus is decoded).
    package static func check(corpora count: Int, source: ParameterSource) throws {
        guard count <= maxCorpora else {
            throw source.error("corpora", "lists \(count) corpora; an experiment takes at most \(maxCorpora)")
        }
    }

    /// A declared factor: its count, its field, and its words for one and for several.
    private typealias Factor = (count: Double, field: String, words: (String, String))

    /// The declared factors, each with its field, as the refusals spell them: corpora, vector sources, spaces,
    /// thresholds, groupings, replicates (a factor of one left out, but the corpora).
    private var factors: [Factor] {
        let sources = corpora.map(\.sources)
        var list: [Factor] =
            Set(sources).count == 1
            ? [
                (Double(corpora.count), "corpora", ("corpus", "corpora")),
                (sources.first ?? 1, "encoders", ("vector source", "vector sources")),
            ]
            : [(sources.reduce(0, +), "encoders", ("analysis (corpus × vector source)", "analyses (corpora × vector sources)"))]
        list += [(spaces, "spaces", ("space", "spaces")), (rules, "thresholds", ("threshold", "thresholds"))]
        list.append((thresholdGroupings + otherGroupings, "groupings", ("grouping", "groupings")))
        if replicates > 0 { list.append((replicates, "replicates", ("replicate", "replicates"))) }
        return list.enumerated().filter { $0.offset == 0 || $0.element.count != 1 }.map(\.element)
    }

    /// Refuses a grid whose declared cells (every factor multiplied: an upper bound on the rows computed) or paired
    /// rule comparisons pass their bound, naming the largest factor: before any corpus is loaded.
    package func checkDeclared(source: ParameterSource) throws {
        try Self.refuse(factors, beyond: Self.maxCells, "the grid is", "cells", source: source)
        guard replicates > 0 else { return }
        let pairs: Factor = (rules * (rules - 1) / 2, "thresholds", ("pair of thresholds", "pairs of thresholds"))
        let compared = factors.filter { !["thresholds", "replicates"].contains($0.field) } + [pairs]
        try Self.refuse(compared, beyond: Self.maxComparisons, "the paired rule comparisons are", "comparisons", source: source)
    }

    /// Refuses, naming the largest factor, when `factors` multiply past `bound`: "the grid is 50 corpora × 5000
    /// thresholds × 8 groupings × 1000 replicates = 2.0e9 cells, above the bound of 1.0e6 cells; reduce 'thresholds'".
    private static func refuse(
        _ factors: [Factor], beyond bound: Double, _ opening: String, _ unit: String, source: ParameterSource
    ) throws {
        let product = factors.map(\.count).reduce(1, *)
        guard product > bound, let largest = factors.max(by: { $0.count < $1.count }) else { return }
        let spelled = factors.map { "\(formatCount($0.count)) \($0.count == 1 ? $0.words.0 : $0.words.1)" }.joined(separator: " × ")
        throw source.refusal(
            "\(opening) \(spelled) = \(scientific(product)) \(unit), above the bound of \(scientific(bound)) \(unit); "
                + "reduce \(source.name(largest.field))")
    }

    /// "2.0e9": one decimal and the power of ten.
    static func scientific(_ x: Double) -> String {
        let exponent = x > 0 ? Int(log10(x).rounded(.down)) : 0
        var mantissa = (x / pow(10, Double(exponent)) * 10).rounded() / 10
        var power = exponent
        if mantissa >= 10 { (mantissa, power) = (mantissa / 10, power + 1) }
        return String(format: "%.1fe%d", mantissa, power)
    }
}

// MARK: - The sized grid

extension GridEstimate {
    /// What the grid will take: seconds, peak bytes held (the largest stage side by side, the results held, the
    /// outputs rendered) and bytes written.
    package struct Figures: Sendable {
        package var seconds = 0.0, stageBytes = 0.0, heldBytes = 0.0, writtenBytes = 0.0
        package var peakBytes: Double { stageBytes + heldBytes + writtenBytes }
    }

    /// Cells per space of one analysis: a row per rule for each threshold grouping, one for each other grouping.
    private var rows: Double { thresholdGroupings * rules + otherGroupings }

    /// The figures of the loaded corpora; times on `cpus` cores of `model`'s machine (passes and embedding scale
    /// with them; the cost model was fitted on 2).
    package func figures(cpus: Int = 2, model: CostModel = .reference) -> Figures {
        var f = Figures()
        let draws = 1 + replicates
        let scale = 2 / Double(cpus)
        for c in corpora {
            guard let size = c.size else { continue }
            let (n, d, a) = (c.items, size.dimensions, c.sources)
            let own = a * spaces * rows
            let compared = replicates > 0 ? a * spaces * thresholdGroupings * rules * (rules - 1) / 2 : 0
            let embedded = size.needsEncoder ? n * encoderRuns * (size.isSample ? draws : 1) / Self.sentencesPerSecond : 0
            f.seconds += (embedded + a * spaces * draws * 2 * model.seconds(n: Int(n), d: d)) * scale
            f.seconds += own * draws * (Self.secondsPerCell + Self.secondsPerCellItem * n)
            f.seconds += a * spaces * rows * rows * Self.secondsPerRowPair + compared * Self.secondsPerComparison
            let replicateVectors = replicates > 0 ? Double(Self.replicatesAtOnce) * n * Double(d) * 4 : 0
            f.stageBytes = max(f.stageBytes, 2 * c.stageBytes + replicateVectors + (size.needsEncoder ? Self.encoderBytes : 0))
            f.heldBytes += own * (Self.heldPerCell + replicates * Self.heldPerReplicateCell) + compared * Self.heldPerComparison
            f.heldBytes += keepsMembers ? own * n * 8 : 0
            f.writtenBytes += a * spaces * (Self.writtenPerSpace + rows * (Self.writtenPerCell + replicates * Self.writtenPerReplicate))
            f.writtenBytes += compared * Self.writtenPerComparison + (writesVectors ? a * spaces * n * Double(d) * 4 : 0)
            // Assignments: a row per item per cell, in JSON Lines and in CSV.
            let perItem = 80 + Double(size.textBytes) / max(Double(size.items), 1)
            f.writtenBytes += settings.assignments == true ? 2 * own * n * perItem : 0
        }
        return f
    }

    /// The factors a grid's figure may be cut by, each halved: the declared ones (those above one) and each corpus's items.
    private var halvings: [(name: String, grid: GridEstimate)] {
        func halved(_ change: (inout GridEstimate) -> Void) -> GridEstimate {
            var g = self
            change(&g)
            return g
        }
        var list: [(String, GridEstimate)] = []
        if corpora.count > 1 {
            list.append(("corpora", halved { $0.corpora = $0.corpora.enumerated().filter { $0.offset % 2 == 0 }.map(\.element) }))
        }
        if corpora.contains(where: { $0.sources > 1 }) {
            list.append(("encoders", halved { g in for k in g.corpora.indices { g.corpora[k].sources /= 2 } }))
        }
        if spaces > 1 { list.append(("spaces", halved { $0.spaces /= 2 })) }
        if rules > 1 { list.append(("thresholds", halved { $0.rules /= 2 })) }
        if thresholdGroupings + otherGroupings > 1 {
            list.append(
                ("groupings", halved { g in (g.thresholdGroupings, g.otherGroupings) = (g.thresholdGroupings / 2, g.otherGroupings / 2) }))
        }
        if replicates > 1 { list.append(("replicates", halved { $0.replicates /= 2 })) }
        for (k, c) in corpora.enumerated() where c.items >= 4 { list.append((c.field, halved { $0.halveItems(of: k) })) }
        return list
    }

    /// Corpus `k` with half its items, its largest stage priced again.
    private mutating func halveItems(of k: Int) {
        corpora[k].items /= 2
        corpora[k].stageBytes = stageBytes(of: corpora[k])
    }

    /// The factor whose halving cuts `figure` most, as a refusal names it: "'thresholds'", or "the items of
    /// 'corpora[3]' (22500)".
    private func driver(of figure: (Figures) -> Double, source: ParameterSource) -> String {
        let cut = halvings.map { (name: $0.name, figure: figure($0.grid.figures())) }
        guard let best = cut.min(by: { $0.figure < $1.figure }) else { return "the corpora" }
        guard let c = corpora.first(where: { $0.field == best.name }) else { return source.name(best.name) }
        return "the items of \(source.name(best.name)) (\(formatCount(c.items)))"
    }

    /// Refuses a grid whose estimated memory (above what is available, `MemoryBudget.available`, when `memory`) or output
    /// (above `maxOutputBytes`) passes its bound, naming the factor that drives it; returns the figures, whose time
    /// the caller checks as a `TimeEstimate` (`timeRefusal`).
    package func checkSized(
        source: ParameterSource, memory: Bool = true, cpus: Int = 2, model: CostModel = .reference
    ) throws -> Figures {
        let f = figures(cpus: cpus, model: model)
        if memory, let free = MemoryBudget.available(), f.peakBytes > free {
            throw source.refusal(
                String(format: "the grid would hold about %.1f GiB at its peak; %.1f GiB is available; ", f.peakBytes / gib, free / gib)
                    + "reduce \(driver(of: \.peakBytes, source: source))")
        }
        if f.writtenBytes > Self.maxOutputBytes {
            throw source.refusal(
                String(
                    format: "the grid would write about %.1f GiB, above the bound of %.0f GiB; ", f.writtenBytes / gib,
                    Self.maxOutputBytes / gib)
                    + "reduce \(driver(of: \.writtenBytes, source: source))")
        }
        return f
    }

    /// The refusal of a grid estimated (`f`) to take longer than `maxSeconds`, naming the factor that drives it.
    package func timeRefusal(_ f: Figures, source: ParameterSource) -> ThemeLabError {
        source.refusal(
            String(
                format: "the grid would take about %.0f hours, above the bound of %.0f hours; ", f.seconds / 3600, Self.maxSeconds / 3600)
                + "reduce \(driver(of: \.seconds, source: source))")
    }
}

private let gib = 1_073_741_824.0
