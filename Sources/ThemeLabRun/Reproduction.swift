import Foundation
import ThemeLabCore
import ThemeLabCorpus
import ThemeLabEncoder
import ThemeLabMeasures
import ThemeLabMethods
import ThemeLabPairs
import ThemeLabReport
import ThemeLabStudy

/// `themelab reproduce` (and `make reproduce`): every experiment file in a folder, each into its
/// results folder; the CI baseline from the experiment with a `"gate"`; claim C7 on real vectors;
/// REPORT.md with its plots; and provenance.json.
package enum Reproduction {
    package struct Summary: Sendable {
        package var experiments: [String]
        package var seconds: Double
    }

    /// What a run does with the stages kept in the environment's cache folder (`StageCache`).
    package enum Keeping: Sendable {
        /// Copies a stage whose code, inputs and settings are those of a kept run; stores each one it runs.
        case reuse
        /// Runs every stage and stores it (`--recompute`).
        case recompute
        /// Runs every stage and keeps none (`--cold`, whose private cache is deleted at the end).
        case nothing
    }

    /// Runs the experiments of a folder into a results root, in file-name order, then writes REPORT.md, its files and
    /// provenance.json.
    /// - Parameters:
    ///   - folder: the experiment files, with `report/layout.json`.
    ///   - only: the experiments to run; nil for all.
    ///   - replicates: overrides the count of every experiment that has replicates.
    ///   - root: where each experiment's folder and the report go.
    ///   - environment: where corpora and the cache are, the provenance's command and time, the log.
    ///   - keeping: whether stages are copied from the cache (`StageCache`) and stored in it.
    ///   - expectedSeconds: the last run's stage times, the basis of the estimate of the time left.
    ///   - announce: a line as each stage ends, with its time and that estimate.
    /// - Returns: the experiments run and the seconds the run took.
    package static func run(
        experiments folder: String, only: Set<String>? = nil, replicates: Int? = nil, root: ResultsRoot, environment: RunEnvironment,
        keeping: Keeping = .reuse, expectedSeconds: [String: Double] = [:], announce: @escaping (String) -> Void = { _ in }
    ) throws -> Summary {
        let all = try experimentNames(in: folder, only: only)
        let layout = try ReportLayout.read(path: "\(folder)/report/layout.json")
        let chosen = all.filter { only?.contains($0) ?? true }.sorted { "\($0).json" < "\($1).json" }
        for name in chosen { try root.refuseForeign(name) }
        let (plans, replays) = try readPlans(chosen, in: folder, replicates: replicates)
        let stages = plans.map(\.name) + replays.map(\.name) + ["theme-sums"] + (layout.fragility == nil ? [] : ["fragility"])
        let store = StageCache(cacheFolder: environment.cacheFolder, dataDirectory: environment.dataDirectory, replicates: replicates)
        let cache = try StageReuse(
            cache: keeping == .nothing ? nil : store, reuse: keeping == .reuse, announce: announce, plans: plans, replays: replays,
            layout: layout, folder: folder, environment)
        var timings = WallClock(plan: stages, expected: expectedSeconds.merging(cache.expectedSeconds()) { $1 }, announce: announce)
        let done = try runExperiments(plans, root: root, environment, cache: cache, timings: &timings)
        let replayed = try runReplays(replays, root: root, environment, cache: cache, timings: &timings)
        var report = ReproductionReport(
            experiments: done.map { ($0.plan.name, $0.plan.description ?? "", $0.results) },
            themeSums: try timings.time("theme-sums") { try C7ThemeSumsGiveTheMean.measure(on: layout.themeSums, environment) },
            layout: layout)
        report.replays = replayed
        if let check = layout.fragility {
            let fragility = try timings.time("fragility") {
                if let kept: Fragility = cache.restore(.fragility, file: "fragility.json", into: nil) { return kept }
                let started = Date()
                let fragility = try Self.fragility(
                    check, analyses: done.map(\.results), replays: replayed, plans: plans, replayPlans: replays, environment)
                cache.store(.fragility, files: ["fragility.json": try JSONOutput.encode(fragility)], since: started)
                return fragility
            }
            try AtomicFile.write(fragility.csv(), to: "\(root.path)/fragility.csv")
            try AtomicFile.write("# Verdicts that rest on rounding\n\n" + fragility.markdown(), to: "\(root.path)/fragility.md")
            report.fragility = fragility
        }
        return try write(report, experiments: done.map(\.plan.name) + replayed.map(\.name), timings: timings, root: root, environment)
    }

    /// Every file a run of the `only` experiments of `folder` reads: the experiment files and the report's layout, and
    /// each plan's corpora, embeddings and model files (`CommandPaths` keeps the output folder off all of them).
    package static func inputFiles(experiments folder: String, only: Set<String>?, dataDirectory: String?) throws -> [String] {
        let chosen = try experimentNames(in: folder, only: only).filter { only?.contains($0) ?? true }
        let (plans, replays) = try readPlans(chosen, in: folder, replicates: nil)
        return ["\(folder)/report/layout.json"] + chosen.map { "\(folder)/\($0).json" }
            + (try plans.flatMap { try $0.inputFiles(dataDirectory: dataDirectory) })
            + (try replays.flatMap { try $0.inputFiles(dataDirectory: dataDirectory) })
    }

    /// The experiments of `folder` (its .json files' names), refusing a name in `only` that is not one of them.
    private static func experimentNames(in folder: String, only: Set<String>?) throws -> [String] {
        let all = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".json") }.map {
            String($0.dropLast(5))
        }
        if let unknown = only?.subtracting(all).sorted().first {
            throw ThemeLabError.invalid(
                "--only: no experiment '\(unknown)' in \(folder) (there are \(all.sorted().joined(separator: ", ")))")
        }
        return all
    }

    /// The `chosen` experiment files of `folder`, read and checked: the analysis experiments (`replicates` overriding the
    /// count of each that has replicates, at most one with a "gate") and the replays.
    private static func readPlans(
        _ chosen: [String], in folder: String, replicates: Int?
    ) throws -> (plans: [ExperimentPlan], replays: [ReplayPlan]) {
        let isReplay = Dictionary(uniqueKeysWithValues: chosen.map { ($0, ReplayPlan.isReplay(path: "\(folder)/\($0).json")) })
        let replays = try chosen.filter { isReplay[$0]! }.map { try ReplayPlan.read(path: "\(folder)/\($0).json") }
        let plans = try chosen.filter { !isReplay[$0]! }.map {
            var plan = try ExperimentPlan.read(path: "\(folder)/\($0).json")
            if let replicates, plan.settings.replicates != nil { plan.settings.replicates = replicates }
            return plan
        }
        guard plans.filter({ $0.gate != nil }).count <= 1 else {
            throw ThemeLabError.input("\(folder): more than one experiment has a \"gate\"")
        }
        return (plans, replays)
    }

    /// Runs each analysis experiment into its results folder (or copies it from `cache`), writing the CI baseline from
    /// the one with a "gate".
    private static func runExperiments(
        _ plans: [ExperimentPlan], root: ResultsRoot, _ environment: RunEnvironment, cache: StageReuse, timings: inout WallClock
    ) throws -> [(plan: ExperimentPlan, results: AnalysisResults)] {
        var done: [(plan: ExperimentPlan, results: AnalysisResults)] = []
        for plan in plans {
            var environment = environment
            environment.outputFiles = root.files(of: plan.name, settings: plan.settings)
            let results = try timings.time(plan.name) {
                try cache.keptOrRun(.experiment(plan.name), into: root) {
                    try plan.run(in: environment)
                } write: {
                    try root.write($0, as: plan.name)
                }
            }
            done.append((plan, results))
            if let tolerances = plan.gate {
                let baseline = RegressionCheck.Baseline(tolerances: tolerances, analyses: results.analyses, provenance: results.provenance)
                try AtomicFile.write(try JSONOutput.encode(baseline), to: "\(root.path)/baseline.json")
            }
        }
        return done
    }

    /// Runs each replay into its results folder (or copies it from `cache`).
    private static func runReplays(
        _ replays: [ReplayPlan], root: ResultsRoot, _ environment: RunEnvironment, cache: StageReuse, timings: inout WallClock
    ) throws -> [ReplayResults] {
        var replayed: [ReplayResults] = []
        for plan in replays {
            let results = try timings.time(plan.name) {
                try cache.keptOrRun(.experiment(plan.name), into: root) {
                    try plan.run(in: environment)
                } write: { results in
                    try root.replaceFolder(plan.name) { try ReplayReport.write(results, folder: $0) }
                }
            }
            replayed.append(results)
        }
        return replayed
    }

    /// Writes REPORT.md with its plots and the files it links to (claims.{md,csv,json}, …), provenance.json (naming
    /// `experiments`) and timings.csv; the run's summary.
    private static func write(
        _ report: ReproductionReport, experiments: [String], timings: WallClock, root: ResultsRoot, _ environment: RunEnvironment
    ) throws -> Summary {
        for (path, svg) in report.plots() { try AtomicFile.write(svg, to: "\(root.path)/\(path)") }
        try AtomicFile.write(report.markdown(), to: "\(root.path)/REPORT.md")
        for (path, text) in try report.files() { try AtomicFile.write(text, to: "\(root.path)/\(path)") }
        let seconds = (Date().timeIntervalSince(environment.startedAt) * 10).rounded() / 10
        let provenance = RunProvenance(
            provenance: .current(command: environment.command, inputs: [:], createdAt: environment.startedAt),
            experiments: experiments)
        try AtomicFile.write(try JSONOutput.encode(provenance), to: "\(root.path)/provenance.json")
        try AtomicFile.write(timings.csv(total: seconds), to: "\(root.path)/timings.csv")
        return Summary(experiments: provenance.experiments, seconds: seconds)
    }

    /// The experiments `check` names that this run ran, re-run with perturbed vectors, their verdicts set against the run's.
    package static func fragility(
        _ check: ReportLayout.FragilityCheck, analyses: [AnalysisResults], replays: [ReplayResults], plans: [ExperimentPlan],
        replayPlans: [ReplayPlan], _ environment: RunEnvironment
    ) throws -> Fragility {
        var perturbed = environment
        perturbed.perturbation = LastBitPerturbation(seed: check.seed)
        perturbed.log = { environment.log("fragility: " + $0) }
        var fragility = Fragility(seed: check.seed)
        for name in check.experiments {
            if let plan = plans.first(where: { $0.name == name }), let canonical = analyses.first(where: { $0.name == name }) {
                fragility.compare(canonical, try plan.run(in: perturbed))
            } else if let plan = replayPlans.first(where: { $0.name == name }), let canonical = replays.first(where: { $0.name == name }) {
                fragility.compare(canonical, try plan.run(in: perturbed))
            }
        }
        return fragility
    }

    /// results/provenance.json.
    package struct RunProvenance: Codable {
        package var provenance: Provenance
        package var experiments: [String]
    }

    /// Wall-clock seconds per stage of a run, for results/timings.csv: the one file at the top of results/ that the
    /// byte contract leaves out. As each stage of `plan` ends, `announce` gets one line: its time, the time so far and
    /// an estimate of the time left.
    package struct WallClock {
        package private(set) var stages: [(name: String, seconds: Double)] = []
        package var plan: [String] = []
        /// Seconds per stage in an earlier run, the basis of the estimate.
        package var expected: [String: Double] = [:]
        package var announce: (String) -> Void = { _ in }
        private let started = Date()

        /// `work`'s result, its time recorded and announced (a stage that fails is neither).
        package mutating func time<T>(_ name: String, _ work: () throws -> T) rethrows -> T {
            let started = Date()
            let result = try work()
            stages.append((name, (Date().timeIntervalSince(started) * 10).rounded() / 10))
            announce(progress())
            return result
        }

        /// "[3/11] clinc150: 91.2 s (4 min 2 s so far, about 6 min left)".
        package func progress() -> String {
            let last = stages[stages.count - 1]
            let left = secondsLeft()
            let estimate = left.map { $0 > 0 ? ", about \(Self.duration($0)) left" : "" } ?? ""
            return "[\(stages.count)/\(max(plan.count, stages.count))] \(last.name): \(last.seconds) s "
                + "(\(Self.duration(Date().timeIntervalSince(started))) so far\(estimate))"
        }

        /// The remaining stages' times in the earlier run, scaled by how this run compares with it on the stages done (once
        /// they took 30 s there);
        /// without an earlier time for every stage, the mean stage time so far for each stage left. Nil before any stage.
        package func secondsLeft() -> Double? { Self.secondsLeft(done: stages, plan: plan, expected: expected) }

        package static func secondsLeft(done: [(name: String, seconds: Double)], plan: [String], expected: [String: Double]) -> Double? {
            guard !done.isEmpty else { return nil }
            let left = plan.filter { name in !done.contains { $0.name == name } }
            let spent = done.map(\.seconds).reduce(0, +)
            if done.allSatisfy({ expected[$0.name] != nil }), left.allSatisfy({ expected[$0] != nil }) {
                let before = done.map { expected[$0.name]! }.reduce(0, +)
                // Stages of a few seconds say little about the pace: the last run's times stand until 30 s of them are done.
                let scale = before >= 30 ? spent / before : 1
                return left.map { expected[$0]! }.reduce(0, +) * scale
            }
            return spent / Double(done.count) * Double(left.count)
        }

        /// "45 s", "6 min 10 s".
        package static func duration(_ seconds: Double) -> String {
            let s = Int(seconds.rounded())
            return s < 60 ? "\(s) s" : "\(s / 60) min \(s % 60) s"
        }

        static let csvTable = CSVTable(CSVTable.text("stage") + CSVTable.numbers("seconds"))

        package func csv(total: Double) -> String {
            Self.csvTable.render(stages.map { [$0.name, "\($0.seconds)"] } + [["total", "\(total)"]])
        }

        /// The stage times of a timings.csv (`csv(total:)`), without the total; empty for anything unreadable.
        package static func stageSeconds(csv: String) -> [String: Double] {
            var seconds: [String: Double] = [:]
            for record in (try? DelimitedText.records(csv, delimiter: ",", file: "timings.csv"))?.dropFirst() ?? [] {
                if record.fields.count == 2, record.text(0) != "total", let value = Double(record.fields[1]), value.isFinite, value >= 0 {
                    seconds[record.text(0)] = value
                }
            }
            return seconds
        }
    }

    /// The stage times of the run that wrote `root` (its timings.csv), the basis of a new run's estimate.
    package static func stageSeconds(ofResultsIn root: String) -> [String: Double] {
        guard let text = try? String(contentsOfFile: "\(root)/timings.csv", encoding: .utf8) else { return [:] }
        return WallClock.stageSeconds(csv: text)
    }
}
