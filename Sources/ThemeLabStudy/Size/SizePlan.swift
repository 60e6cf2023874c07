import Foundation
import ThemeLabCore
import ThemeLabCorpus
import ThemeLabMethods

/// A size experiment (Experiments/size.json, `"kind": "size"`): how a method's recovery grows with the number of entries.
/// The corpora of two analysis experiments in the same folder (the tuning one and the study), each subsampled to every
/// size below its own, stratified and seeded, `replicates` times (`stratifiedSample`), and taken whole once; on each, the
/// label-free methods of the study (its rules with `thresholdGroupings`, its groupings that cut themselves, and
/// `groupings`) against average linkage's best threshold, in the study's space; on the tuning corpora also `candidates`,
/// the readings `groupings` were chosen from.
///
///     {"kind": "size", "name": "size", "tuning": "rules-tuning", "study": "rules", "sizes": [8, 12, 16, 24, 32],
///      "replicates": 10, "thresholdGroupings": ["leader", "average"], "groupings": ["spectral-k-average"], "seed": 0}
package struct SizePlan: Decodable, Sendable {
    package var name: String
    package var description: String?
    /// The experiments whose corpora are subsampled: the tuning one (where a size-aware choice is made) and the study.
    package var tuning: String
    package var study: String
    /// The sizes below full, ascending.
    package var sizes: [Int]
    /// Draws per size below a corpus's own: for sizes from `fewerFrom` on, `fewer` (the intervals narrow as N grows).
    package var replicates: Int
    package var fewer: Int?
    package var fewerFrom: Int?
    /// The threshold groupings cut at each of the study's label-free rules.
    package var thresholdGroupings: [Grouping]
    /// Groupings that cut themselves, beside the study's.
    package var groupings: [Grouping]
    /// Groupings that cut themselves run on the tuning corpora only: the candidates `groupings` were chosen from.
    package var candidates: [Grouping]
    package var seed: UInt64
    package var file: String?

    package enum Keys: String, CodingKey, CaseIterable {
        case kind, name, description, tuning, study, sizes, replicates, fewer, fewerFrom, thresholdGroupings, groupings, candidates, seed
    }

    package init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: Keys.self)
        name = try c.decode(String.self, forKey: .name)
        description = try c.decodeIfPresent(String.self, forKey: .description)
        (tuning, study) = (try c.decode(String.self, forKey: .tuning), try c.decode(String.self, forKey: .study))
        sizes = try c.decode([Int].self, forKey: .sizes)
        replicates = try c.decode(Int.self, forKey: .replicates)
        (fewer, fewerFrom) = (try c.decodeIfPresent(Int.self, forKey: .fewer), try c.decodeIfPresent(Int.self, forKey: .fewerFrom))
        thresholdGroupings = try c.values(.thresholdGroupings, grouping(named:)) ?? [LeaderGrouping(), AverageLinkageCut()]
        groupings = try c.values(.groupings, grouping(named:)) ?? []
        candidates = try c.values(.candidates, grouping(named:)) ?? []
        seed = try c.decodeIfPresent(UInt64.self, forKey: .seed) ?? 0
    }

    /// The most items a size may ask for: average linkage holds N² similarities.
    package static let largestSize = 20_000

    /// Whether the experiment file at `path` is a size experiment (`"kind": "size"`).
    package static func isSize(path: String) -> Bool {
        guard let (_, object) = try? ExperimentSchema.object(at: path) else { return false }
        return object["kind"] as? String == "size"
    }

    /// Reads and checks a size file and the two experiments it names; every refusal names the file and the field.
    package static func read(path: String) throws -> SizePlan {
        let (data, object) = try ExperimentSchema.object(at: path)
        let source = ParameterSource.experiment(path)
        guard object["kind"] as? String == "size" else { throw source.error("kind", "must be \"size\" in a size experiment") }
        var plan = try ExperimentSchema.decode(SizePlan.self, data, object, path: path, keys: Keys.self, topLevel: "a size experiment")
        plan.file = path
        try plan.validate(source: source)
        return plan
    }

    /// The bounds that read more than one field (each field's own are its declaration's, checked as the file is read).
    package func validate(source: ParameterSource) throws {
        for i in sizes.indices.dropFirst() where sizes[i] <= sizes[i - 1] {
            throw source.error("sizes[\(i)]", "is \(sizes[i]); the sizes must ascend")
        }
        guard (fewer == nil) == (fewerFrom == nil) else {
            throw source.error(fewer == nil ? "fewerFrom" : "fewer", "needs \(fewer == nil ? "fewer" : "fewerFrom") beside it")
        }
        for (i, g) in thresholdGroupings.enumerated() where g.kind != .threshold {
            throw source.error("thresholdGroupings[\(i)]", "is \(g.name), which does not cut at a threshold")
        }
        for (field, list) in [("groupings", groupings), ("candidates", candidates)] {
            for (i, g) in list.enumerated() where g.kind != .cutsItself {
                throw source.error("\(field)[\(i)]", "is \(g.name), which does not choose its own cuts")
            }
        }
    }

    /// The draws at `size` items of a corpus of `items`: one when it is the corpus itself.
    package func draws(size: Int, items: Int) -> Int {
        size >= items ? 1 : (fewerFrom.map { size >= $0 } == true ? fewer! : replicates)
    }

    /// The sizes a corpus of `items` items in `topics` topics is measured at: those of the grid below it and above its
    /// number of topics (at or below it, a stratified sample gives every entry a topic of its own and there is nothing to
    /// group), then its own.
    package func sizes(items: Int, topics: Int) -> [Int] { sizes.filter { topics < $0 && $0 < items } + [items] }

    /// The experiment files it reads besides itself: the tuning and study experiments beside it.
    package func experimentPaths() -> (tuning: String, study: String) {
        let folder = ExperimentSchema.folder(of: file ?? ".")
        return ("\(folder)/\(tuning).json", "\(folder)/\(study).json")
    }
}

extension SizePlan.Keys: SchemaKey {
    package var setting: Setting? {
        switch self {
        case .kind: Setting(.oneOf(["size"]))
        case .name: Setting(.fileName(names: "the results folder"))
        case .description: Setting(.text)
        case .tuning, .study: Setting(.fileName(names: "an experiment file beside this one"))
        case .sizes: Setting(.list(.count(3...SizePlan.largestSize), distinct: true))
        case .replicates, .fewer: Setting(.count(ReplicateCorpus.count))
        case .fewerFrom: Setting(.count(3...SizePlan.largestSize))
        case .thresholdGroupings, .groupings, .candidates: Setting(.entries(kind: "grouping", forms: groupingRegistry.forms))
        case .seed: Setting(.seed)
        }
    }
}
