import Foundation

/// A replay experiment (Experiments/replay.json, `"kind": "replay"`): labeled corpora replayed as
/// journals under several regrouping policies (claims C8, C9). Every field but `kind`, `name` and
/// `journals` has a default.
///
///     {"kind": "replay", "name": "replay", "journals": [{"corpus": {"name": "seed-26"}, "launch": 4, "initial": 6},
///      {"corpus": {"name": "clinc150", "intents": 8, "perIntent": 40, "seed": 3}, "order": "bursts(4)"}],
///      "launch": 25, "thresholds": ["otsu-floored"], "policies": ["always", "never", "app(1.5,0.01)"], "shuffles": 5, "seed": 0}
public struct ReplayPlan: Decodable, Sendable {
    public struct Journal: Codable, Sendable {
        public var corpus: CorpusSpec
        /// `corpus`, `shuffle`, `bursts(b)`, `fading(w)`; default: `corpus` when every item has an order, else `shuffle`.
        public var order: String?
        /// Saves per launch, and saves in the journal at the first launch (defaults: the plan's).
        public var launch: Int?
        public var initial: Int?
        /// A `.npy` of the corpus's vectors in place of the default encoder.
        public var embeddings: String?
    }

    public struct Settings: Codable, Sendable {
        public var launch = 25
        /// Default: one launch.
        public var initial: Int?
        public var thresholds = ["otsu-floored", "kittler-illingworth"]
        public var policies = ReplayPlan.standardPolicies
        /// Orders per seeded journal (its spread and intervals are over these).
        public var shuffles = 5
        public var seed: UInt64 = 0
        /// Timeline points kept per policy in the output (every save is measured; the output keeps every k-th).
        public var points = 50

        public init() {}
    }

    /// Always, never, launch-only and the app's policy over g ∈ {1.25, 1.5, 2} × τ ∈ {0.002, 0.01, 0.05, 2 (off)}.
    public static let standardPolicies =
        ["always", "never", "launch-only"]
        + [1.25, 1.5, 2].flatMap { g in [0.002, 0.01, 0.05, 2].map { "app(\(formatArgument(g)),\(formatArgument($0)))" } }

    /// Every file the replay reads: itself, its journals' corpora and given embeddings.
    public func inputFiles(dataDirectory: String?) throws -> [String] {
        try (file.map { [$0] } ?? [])
            + journals.flatMap { j in
                try DatasetRegistry.load(j.corpus, dataDirectory: dataDirectory).files + (j.embeddings.map { [$0] } ?? [])
            }
    }

    /// The most items a journal may have: the raw similarities take 4·N² bytes and the replay O(N³) steps.
    public static let maxItems = 10_000

    /// The replay's default budget: 30 minutes (`replay --budget-minutes` changes it).
    public static let defaultBudgetSeconds = 1800.0
    /// Seconds of one order of a 3 000-save journal per threshold rule, every policy included (measured: 59.7 s for two
    /// rules on 2 cores, Intel; a fresh regroup at every save makes it O(N³)).
    static let secondsPerRuleAt3000 = 30.0

    /// The replay's predicted wall-clock time: Σ over journals of orders × rules × 30 s × (N / 3 000)³, orders two at a
    /// time where there are two cores.
    public static func estimatedSeconds(journals: [(items: Int, orders: Int)], rules: Int) -> Double {
        let workers = Double(min(2, ProcessInfo.processInfo.activeProcessorCount))
        return journals.reduce(0) { total, j in
            total + Double(j.orders) * Double(rules) * secondsPerRuleAt3000 * pow(Double(j.items) / 3000, 3) / workers
        }
    }

    public var name: String
    public var description: String?
    public var journals: [Journal]
    public var settings: Settings
    public var file: String?

    enum Keys: String, CodingKey, CaseIterable {
        case kind, name, description, journals, launch, initial, thresholds, policies, shuffles, seed, points
    }

    public init(name: String, journals: [Journal], settings: Settings = Settings()) {
        self.name = name
        self.journals = journals
        self.settings = settings
    }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: Keys.self)
        name = try c.decode(String.self, forKey: .name)
        description = try c.decodeIfPresent(String.self, forKey: .description)
        journals = try c.decode([Journal].self, forKey: .journals)
        settings = Settings()
        if let v = try c.decodeIfPresent(Int.self, forKey: .launch) { settings.launch = v }
        settings.initial = try c.decodeIfPresent(Int.self, forKey: .initial)
        if let v = try c.decodeIfPresent([String].self, forKey: .thresholds) { settings.thresholds = v }
        if let v = try c.decodeIfPresent([String].self, forKey: .policies) { settings.policies = v }
        if let v = try c.decodeIfPresent(Int.self, forKey: .shuffles) { settings.shuffles = v }
        if let v = try c.decodeIfPresent(UInt64.self, forKey: .seed) { settings.seed = v }
        if let v = try c.decodeIfPresent(Int.self, forKey: .points) { settings.points = v }
    }

    /// Whether the experiment file at `path` is a replay (`"kind": "replay"`) rather than an analysis grid.
    public static func isReplay(path: String) -> Bool {
        guard let data = FileManager.default.contents(atPath: path),
            let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
        else { return false }
        return object["kind"] as? String == "replay"
    }

    /// Reads and checks a replay file; every refusal names the file and the field.
    public static func read(path: String) throws -> ReplayPlan {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ThemeLabError.input("\(path): cannot read experiment file")
        }
        let source = ParameterSource.experiment(path)
        guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw ThemeLabError.input("\(path): not a JSON object")
        }
        guard object["kind"] as? String == "replay" else { throw source.error("kind", "must be \"replay\" in a replay experiment") }
        try refuseUnknownFields(object, source: source)
        var plan: ReplayPlan
        do { plan = try JSONDecoder().decode(ReplayPlan.self, from: data) } catch {
            try ExperimentPlan.refuseFractionalCounts(object, source: source)
            throw ThemeLabError.input("\(path): \(JSONOutput.describe(error))")
        }
        plan.file = path
        try plan.validate(source: source)
        return plan
    }

    static func refuseUnknownFields(_ object: [String: Any], source: ParameterSource) throws {
        func refuse(_ fields: [String: Any], _ known: Set<String>, at path: String) throws {
            try ExperimentPlan.refuse(fields, known, at: path, topLevel: "a replay experiment", source: source)
        }
        try refuse(object, Set(Keys.allCases.map(\.rawValue)), at: "")
        for (i, journal) in ((object["journals"] as? [Any]) ?? []).enumerated() {
            guard let journal = journal as? [String: Any] else { continue }
            try refuse(journal, ["corpus", "order", "launch", "initial", "embeddings"], at: "journals[\(i)]")
            if let corpus = journal["corpus"] as? [String: Any] {
                try ExperimentPlan.refuseUnknownFields(["corpora": [corpus]], source: source)
            }
        }
    }

    /// Every bound that needs no input.
    func validate(source: ParameterSource) throws {
        try ExperimentPlan.checkName(name, source: source)
        guard !journals.isEmpty else { throw source.error("journals", "is empty: nothing would be replayed") }
        try checkLaunch(settings.launch, "launch", source: source)
        if let initial = settings.initial { try checkInitial(initial, "initial", source: source) }
        try source.check(settings.shuffles, in: 1...1000, "shuffles")
        try source.check(settings.points, in: 2...100_000, "points")
        guard !settings.thresholds.isEmpty else { throw source.error("thresholds", "is empty: nothing would be replayed") }
        for (i, text) in settings.thresholds.enumerated() {
            let rule: ThresholdRule
            do { rule = try thresholdRule(named: text) } catch ThemeLabError.usage(let message) {
                throw source.error("thresholds[\(i)]", message)
            }
            guard FreshRegroup.histogramRules.contains(try RuleName(rule.name).base) else {
                throw source.error(
                    "thresholds[\(i)]",
                    "is \(text); a replay recomputes the rule at every save and takes those read from the pair histogram: "
                        + FreshRegroup.histogramRules.sorted().joined(separator: ", "))
            }
        }
        guard !settings.policies.isEmpty else { throw source.error("policies", "is empty: nothing would be replayed") }
        for (i, text) in settings.policies.enumerated() {
            do { _ = try regroupPolicy(named: text) } catch ThemeLabError.usage(let message) {
                throw source.error("policies[\(i)]", message)
            }
        }
        for (i, journal) in journals.enumerated() {
            try Validation.check(journal.corpus, at: "journals[\(i)].corpus", source: source)
            if let order = journal.order {
                do { _ = try JournalOrder(named: order) } catch ThemeLabError.usage(let message) {
                    throw source.error("journals[\(i)].order", message)
                }
            }
            if let launch = journal.launch { try checkLaunch(launch, "journals[\(i)].launch", source: source) }
            if let initial = journal.initial { try checkInitial(initial, "journals[\(i)].initial", source: source) }
            if journal.embeddings != nil && journal.corpus.generator != nil {
                throw source.error("journals[\(i)].embeddings", "replaces an encoder; the generator brings its own vectors")
            }
        }
    }

    private func checkLaunch(_ v: Int, _ field: String, source: ParameterSource) throws {
        guard v >= 1 else { throw source.error(field, "must be at least 1 save per launch, got \(v)") }
        guard v <= Self.maxItems else { throw source.error(field, "is \(v); a journal has at most \(Self.maxItems) saves") }
    }

    private func checkInitial(_ v: Int, _ field: String, source: ParameterSource) throws {
        guard v >= 2 else { throw source.error(field, "must be at least 2 (the first regroup needs a pair), got \(v)") }
        guard v <= Self.maxItems else { throw source.error(field, "is \(v); a journal has at most \(Self.maxItems) saves") }
    }
}
