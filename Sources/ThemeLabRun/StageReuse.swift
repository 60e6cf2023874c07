import Foundation
import ThemeLabCore
import ThemeLabReport
import ThemeLabStudy

/// `StageCache` as one `reproduce` uses it: every stage's key made before the first runs (so the estimate of the time
/// left knows which stages will be kept), then each stage copied or stored. Without a cache every stage runs; without
/// `reuse` every stage runs and is stored.
final class StageReuse {
    /// A stage the cache keeps. An experiment's name is any file's, so the fragility check's entry has a name none of
    /// theirs can have.
    enum Stage: Hashable {
        case experiment(String)
        case fragility

        var name: String {
            switch self {
            case .experiment(let name): name
            case .fragility: "fragility"
            }
        }
        var cacheName: String {
            switch self {
            case .experiment(let name): "experiment-" + name
            case .fragility: "check-fragility"
            }
        }
    }

    let cache: StageCache?
    let reuse: Bool
    let announce: (String) -> Void
    private var keys: [Stage: String] = [:]

    /// Keys every experiment of `plans` and `replays` by the files it reads, and the fragility check of `layout` by
    /// `folder`'s report/layout.json and the keys of the experiments it re-runs.
    init(
        cache: StageCache?, reuse: Bool, announce: @escaping (String) -> Void, plans: [ExperimentPlan], replays: [ReplayPlan],
        layout: ReportLayout, folder: String, _ environment: RunEnvironment
    ) throws {
        (self.cache, self.reuse, self.announce) = (cache, reuse, announce)
        for plan in plans { try prepare(.experiment(plan.name), reading: try plan.inputFiles(dataDirectory: environment.dataDirectory)) }
        for plan in replays { try prepare(.experiment(plan.name), reading: try plan.inputFiles(dataDirectory: environment.dataDirectory)) }
        if let check = layout.fragility {
            try prepare(.fragility, reading: ["\(folder)/report/layout.json"], after: check.experiments.map(Stage.experiment))
        }
    }

    /// The key of `stage`, from the files it reads and the keys of the stages `earlier` that this run has.
    private func prepare(_ stage: Stage, reading files: [String], after earlier: [Stage] = []) throws {
        guard let cache else { return }
        let after = earlier.compactMap { e in keys[e].map { "\(e.cacheName) \($0)" } }
        keys[stage] = try cache.key(stage.cacheName, reading: files, after: after)
    }

    /// The seconds each stage is expected to take, by name: none for one that will be kept, else the time it took to
    /// compute when it was stored (no entry where it never was).
    func expectedSeconds() -> [String: Double] {
        guard let cache else { return [:] }
        var expected: [String: Double] = [:]
        for (stage, key) in keys {
            expected[stage.name] = reuse && cache.has(stage.cacheName, key: key) ? 0 : cache.seconds(of: stage.cacheName)
        }
        return expected
    }

    /// The stage's results decoded from its kept `file`, its kept files written as `root`'s folder of the stage's name
    /// (none where `root` is nil); nil when nothing is kept or it cannot be used.
    func restore<T: Decodable>(_ stage: Stage, file: String, into root: ResultsRoot?) -> T? {
        guard reuse, let cache, let key = keys[stage], let files = cache.restore(stage.cacheName, key: key), let data = files[file],
            let value = try? JSONOutput.decode(T.self, from: data)
        else { return nil }
        if let root { guard (try? root.replaceFolder(stage.name) { try StageCache.write(files, into: $0) }) != nil else { return nil } }
        announce("\(stage.name): kept from an earlier run with the same code, inputs and settings (--recompute runs it again)")
        return value
    }

    /// The experiment's results: the kept ones (from its kept NAME.json, its kept files written as `root`'s folder NAME),
    /// else `run`'s, which `write` puts into that folder and which are then stored.
    func keptOrRun<T: Decodable>(_ stage: Stage, into root: ResultsRoot, run: () throws -> T, write: (T) throws -> Void) throws -> T {
        if let kept: T = restore(stage, file: "\(stage.name).json", into: root) { return kept }
        let started = Date()
        let results = try run()
        try write(results)
        if let files = try? StageCache.files(in: "\(root.path)/\(stage.name)") { store(stage, files: files, since: started) }
        return results
    }

    func store(_ stage: Stage, files: [String: Data], since started: Date) {
        let seconds = (Date().timeIntervalSince(started) * 10).rounded() / 10
        if let key = keys[stage] { cache?.store(stage.cacheName, key: key, files: files, seconds: seconds) }
    }
}
