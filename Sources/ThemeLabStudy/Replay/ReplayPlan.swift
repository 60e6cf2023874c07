import Foundation
import ThemeLabCore
import ThemeLabCorpus
import ThemeLabEncoder
import ThemeLabMeasures
import ThemeLabMethods
import ThemeLabPairs

/// A replay experiment (Experiments/replay.json, `"kind": "replay"`): labeled corpora replayed as
/// journals under several regrouping policies (claims C8, C9). Every field but `kind`, `name` and
/// `journals` has a default.
///
///     {"kind": "replay", "name": "replay", "journals": [{"corpus": {"name": "seed-26"}, "launch": 4, "initial": 6},
///      {"corpus": {"name": "clinc150", "intents": 8, "perIntent": 40, "seed": 3}, "order": "bursts(4)"}],
///      "launch": 25, "thresholds": ["otsu-floored"], "policies": ["always", "never", "app(1.5,0.01)"], "shuffles": 5, "seed": 0}
package struct ReplayPlan: Decodable, Sendable {
    package struct Journal: Decodable, Sendable {
        package var corpus: CorpusSpec
        /// Default: `corpus` when every item has an order, else `shuffle`.
        package var order: JournalOrder?
        /// Saves per launch, and saves in the journal at the first launch (defaults: the plan's).
        package var launch: Int?
        package var initial: Int?
        /// A `.npy` of the corpus's vectors in place of the default encoder.
        package var embeddings: String?

        package init(corpus: CorpusSpec, order: JournalOrder? = nil, launch: Int? = nil, initial: Int? = nil, embeddings: String? = nil) {
            (self.corpus, self.order, self.launch, self.initial, self.embeddings) = (corpus, order, launch, initial, embeddings)
        }

        package enum CodingKeys: String, CodingKey, CaseIterable { case corpus, order, launch, initial, embeddings }

        package init(from decoder: Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            corpus = try c.decode(CorpusSpec.self, forKey: .corpus)
            order = try c.value(.order, JournalOrder.init(named:))
            launch = try c.decodeIfPresent(Int.self, forKey: .launch)
            initial = try c.decodeIfPresent(Int.self, forKey: .initial)
            embeddings = try c.decodeIfPresent(String.self, forKey: .embeddings)
        }
    }

    /// What every journal is replayed with, as values (names read once, when decoded; written back as names).
    package struct Settings: Codable, Sendable {
        package var launch = 25
        /// Default: one launch.
        package var initial: Int?
        /// The threshold rules recomputed at every regroup (the field `thresholds`).
        package var rules: [ThresholdRule] = [OtsuFlooredThreshold(bins: 256), KittlerIllingworthThreshold(bins: 256)]
        package var policies: [RegroupPolicy] = ReplayPlan.standardPolicies
        /// Orders per seeded journal (its spread and intervals are over these).
        package var shuffles = 5
        package var seed: UInt64 = 0
        /// Timeline points kept per policy in the output (every save is measured; the output keeps every k-th).
        package var points = 50

        package init() {}

        package enum CodingKeys: String, CodingKey { case launch, initial, thresholds, policies, shuffles, seed, points }

        /// Defaults for what `decoder` leaves out (a replay file), every field from a results file.
        package init(from decoder: Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            launch = try c.decodeIfPresent(Int.self, forKey: .launch) ?? launch
            initial = try c.decodeIfPresent(Int.self, forKey: .initial)
            rules = try c.values(.thresholds, thresholdRule(named:)) ?? rules
            policies = try c.values(.policies, regroupPolicy(named:)) ?? policies
            shuffles = try c.decodeIfPresent(Int.self, forKey: .shuffles) ?? shuffles
            seed = try c.decodeIfPresent(UInt64.self, forKey: .seed) ?? seed
            points = try c.decodeIfPresent(Int.self, forKey: .points) ?? points
        }

        package func encode(to encoder: Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(launch, forKey: .launch)
            try c.encodeIfPresent(initial, forKey: .initial)
            try c.encode(rules.map(\.name), forKey: .thresholds)
            try c.encode(policies.map(\.name), forKey: .policies)
            try c.encode(shuffles, forKey: .shuffles)
            try c.encode(seed, forKey: .seed)
            try c.encode(points, forKey: .points)
        }
    }

    /// Always, never, launch-only and the journal method's policy over g ∈ {1.25, 1.5, 2} × τ ∈ {0.002, 0.01, 0.05, 2 (off)}.
    package static let standardPolicies: [RegroupPolicy] =
        [AlwaysRegroup(), NeverRegroup(), LaunchRegroup()]
        + [1.25, 1.5, 2].flatMap { g in [0.002, 0.01, 0.05, 2].map { JournalMethodPolicy(growth: g, drift: $0) } }

    /// Every file the replay reads: itself, its journals' corpora and given embeddings, and the default model's files
    /// when a journal is embedded here.
    package func inputFiles(dataDirectory: String?) throws -> [String] {
        let embedded = journals.contains { $0.embeddings == nil && !DatasetRegistry.bringsOwnVectors($0.corpus) }
        return try (file.map { [$0] } ?? [])
            + journals.flatMap { j in
                try DatasetRegistry.files(j.corpus, dataDirectory: dataDirectory) + (j.embeddings.map { [$0] } ?? [])
            }
            + (embedded ? try ModelFolder.locate(explicit: nil).files() : [])
    }

    /// The most items a journal may have: the raw similarities take 4·N² bytes and the replay O(N³) steps.
    package static let maxItems = 10_000
    /// Saves per launch, and saves in the journal at the first launch (the first regroup needs a pair).
    package static let launches = 1...maxItems
    package static let initialSaves = 2...maxItems

    /// The replay's default budget: 30 minutes (`replay --budget-minutes` changes it).
    package static let defaultBudgetSeconds = 1800.0
    /// Seconds of one order of a 3 000-save journal per threshold rule, every policy included (measured: 59.7 s for two
    /// rules on 2 cores, Intel; a fresh regroup at every save makes it O(N³)).
    package static let secondsPerRuleAt3000 = 30.0

    /// The replay's predicted wall-clock time: Σ over journals of orders × rules × 30 s × (N / 3 000)³, orders two at a
    /// time where there are two cores.
    package static func estimatedSeconds(journals: [(items: Int, orders: Int)], rules: Int) -> Double {
        let workers = Double(min(2, ProcessInfo.processInfo.activeProcessorCount))
        return journals.reduce(0) { total, j in
            total + Double(j.orders) * Double(rules) * secondsPerRuleAt3000 * pow(Double(j.items) / 3000, 3) / workers
        }
    }

    package var name: String
    package var description: String?
    package var journals: [Journal]
    package var settings: Settings
    package var file: String?

    package enum Keys: String, CodingKey, CaseIterable {
        case kind, name, description, journals, launch, initial, thresholds, policies, shuffles, seed, points
    }

    package init(name: String, journals: [Journal], settings: Settings = Settings()) {
        self.name = name
        self.journals = journals
        self.settings = settings
    }

    package init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: Keys.self)
        name = try c.decode(String.self, forKey: .name)
        description = try c.decodeIfPresent(String.self, forKey: .description)
        journals = try c.decode([Journal].self, forKey: .journals)
        settings = try Settings(from: decoder)
    }

    /// Whether the experiment file at `path` is a replay (`"kind": "replay"`) rather than an analysis grid.
    package static func isReplay(path: String) -> Bool {
        guard let (_, object) = try? ExperimentSchema.object(at: path) else { return false }
        return object["kind"] as? String == "replay"
    }

    /// Reads and checks a replay file; every refusal names the file and the field.
    package static func read(path: String) throws -> ReplayPlan {
        let (data, object) = try ExperimentSchema.object(at: path)
        guard object["kind"] as? String == "replay" else {
            throw ParameterSource.experiment(path).error("kind", "must be \"replay\" in a replay experiment")
        }
        var plan = try ExperimentSchema.decode(ReplayPlan.self, data, object, path: path, keys: Keys.self, topLevel: "a replay experiment")
        plan.file = path
        let folder = ExperimentSchema.folder(of: path)
        plan.journals = plan.journals.map { j in
            var j = j
            (j.corpus, j.embeddings) = (j.corpus.resolved(against: folder), j.embeddings.map { resolve($0, against: folder) })
            return j
        }
        try plan.validate(source: .experiment(path))
        return plan
    }

    /// The checks that read more than one field, once each field has passed its declared constraint
    /// (`ExperimentSchema.check`).
    package func validate(source: ParameterSource) throws {
        for (i, rule) in settings.rules.enumerated() where !rule.readsOnlyThePairHistogram {
            throw source.error(
                "thresholds[\(i)]",
                "is \(rule.name); a replay recomputes the rule at every save and takes those read from the pair histogram: "
                    + standardThresholdRules.filter(\.readsOnlyThePairHistogram).map(\.name).joined(separator: ", "))
        }
        for (i, journal) in journals.enumerated() {
            try Validation.check(journal.corpus, at: "journals[\(i)].corpus", source: source)
            if journal.embeddings != nil && journal.corpus.generator != nil {
                throw source.error("journals[\(i)].embeddings", "replaces an encoder; the generator brings its own vectors")
            }
        }
    }
}
