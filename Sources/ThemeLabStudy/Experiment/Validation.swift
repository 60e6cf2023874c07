import Foundation
import ThemeLabCore
import ThemeLabCorpus
import ThemeLabEncoder
import ThemeLabMeasures
import ThemeLabMethods
import ThemeLabPairs

/// Where a parameter came from, so one check gives one message for both ways of setting it:
/// "Experiments/x.json: 'corpora[1].intents' must be …" or "--intents must be …".
package struct ParameterSource: Sendable {
    /// The experiment file; nil for a command line.
    package var file: String?

    package static let commandLine = ParameterSource(file: nil)
    package static func experiment(_ file: String) -> ParameterSource { ParameterSource(file: file) }

    /// The field as its source spells it: the JSON path in a file, the option on a command line (`ExperimentSchema`).
    package func name(_ path: String) -> String {
        guard file == nil else { return "'\(path)'" }
        let key = path.split(separator: ".").last.map { String($0.prefix { $0 != "[" }) } ?? path
        return ExperimentSchema.option(of: path, from: ExperimentPlan.Keys.self) ?? "--\(key)"
    }

    /// A refusal naming the field: an input error in a file, a usage error on a command line.
    package func error(_ path: String, _ message: String) -> ThemeLabError { refusal("\(name(path)) \(message)") }

    /// A refusal of the whole: "x.json: message" from a file, a usage error on a command line.
    package func refusal(_ message: String) -> ThemeLabError { file.map { .input("\($0): \(message)") } ?? .invalid(message) }
}

/// The checks of settings that read more than one field or need the input (a corpus's path, the generator's item
/// count, D below the dimension, every stage's memory against what is available), after each field has passed its
/// declared constraint (`ExperimentSchema.check`). All of it runs before any corpus is embedded or any pass starts. (A
/// neighbour rule whose k is not below a corpus's size is not refused, since a grid spans corpora of many sizes:
/// `Analysis` reports its cells N/A with a note.)
package enum Validation {
    package static let layer = 0...1000
    package static let dimensions = 1...65_536
    package static let topicSize = 1...10_000_000
    package static let generatedItems = 2...10_000_000
    /// Generator weights: a, σₐ, b, s.
    package static let weight = 0.0...1e6

    /// A file corpus's path, given and present, and the generator's checks.
    package static func check(_ spec: CorpusSpec, at path: String, source: ParameterSource) throws {
        if spec.name == "file" && spec.path == nil { throw source.error("\(path).path", "is missing (corpus 'file' needs a path)") }
        if let file = spec.path, !FileManager.default.fileExists(atPath: file) {
            let read = source.file == nil ? "" : " (relative paths are read from the experiment file's folder)"
            throw source.error("\(path).path", "names no file: \(file)\(read)")
        }
        if let g = spec.generator { try check(g, at: "\(path).generator", source: source) }
    }

    /// The generator's item count, that it makes no zero vectors, and the memory its vectors take.
    package static func check(_ g: SyntheticVectors, at path: String, source: ParameterSource) throws {
        let n = g.topicSizes.reduce(0) { $0 &+ $1 }
        guard generatedItems.contains(n) else {
            throw source.error(
                "\(path).topicSizes",
                "add up to \(n) items; the generator makes \(generatedItems.lowerBound) to \(generatedItems.upperBound)")
        }
        guard g.topicStrength > 0 || g.noise > 0 || (g.anisotropy > 0 && g.anisotropySpread == 0) else {
            throw source.error("\(path)", "would make zero vectors: give topicStrength or noise above 0")
        }
        try MemoryBudget.require(
            bytes: Double(n) * Double(g.dimensions) * 12, for: "generating \(n) × \(g.dimensions) vectors", source: source, path)
    }

    /// What needs the corpus and the vectors' dimension: directions below d, and every stage's memory
    /// (`memoryNeeds`) within what is available.
    package static func check(_ settings: AnalysisSettings, items n: Int, dimensions d: Int, corpus: String, source: ParameterSource) throws
    {
        for (i, space) in settings.spaces.enumerated() {
            switch space {
            case .allButTheTop(let directions?) where directions >= d:
                throw source.error("spaces[\(i)]", "\(space): D must be below the dimension \(d)")
            case .whiten(let k?) where k > d:
                throw source.error("spaces[\(i)]", "\(space): k must be at most the dimension \(d)")
            default: break
            }
        }
        for need in memoryNeeds(settings, items: n, dimensions: d, corpus: corpus) {
            try MemoryBudget.require(bytes: need.bytes, for: need.what, source: source, need.field)
        }
    }

    /// The bytes each stage of one corpus's analysis holds at its peak, what it is and the experiment field that asks
    /// for it: whitening's d×d covariance, what each rule and grouping asks the pass to gather (`PassNeeds.memory`), the
    /// pairwise pass (the cost model).
    package static func memoryNeeds(
        _ settings: AnalysisSettings, items n: Int, dimensions d: Int, corpus: String
    ) -> [(bytes: Double, what: String, field: String)] {
        var needs: [(bytes: Double, what: String, field: String)] = []
        for (i, space) in settings.spaces.enumerated() {
            if let bytes = space.memory(dimensions: d) { needs.append((bytes, "\(space)'s \(d)×\(d) covariance", "spaces[\(i)]")) }
        }
        // What each rule and grouping asks the pass to gather (its declared needs).
        let asked =
            settings.rules.enumerated().map { ($1.name, $1.passNeeds(items: n), "thresholds[\($0)]") }
            + settings.groupings.enumerated().map { ($1.name, $1.needs(items: n), "groupings[\($0)]") }
        for (name, need, field) in asked {
            if let m = need.memory(items: n) { needs.append((m.bytes, "\(name)'s \(m.what)", field)) }
        }
        needs.append((MemoryBudget.pass(items: n, dimensions: d), "the pairwise pass over \(n) × \(d) vectors of '\(corpus)'", "corpora"))
        return needs
    }
}

/// Memory a stage will need, checked against what the machine has before it starts.
package enum MemoryBudget {
    /// Peak bytes of the pairwise pass (`CostModel.reference`), holding `rows` of the vectors (all by default).
    package static func pass(items n: Int, dimensions d: Int, rows: Int? = nil) -> Double {
        CostModel.reference.peakMiB(n: n, d: d, rows: rows) * 1_048_576
    }

    /// Bytes available to this process: MemAvailable, or the cgroup's limit when lower.
    package static func available() -> Double? {
        var best: Double?
        if let text = try? String(contentsOfFile: "/proc/meminfo", encoding: .utf8),
            let line = text.split(separator: "\n").first(where: { $0.hasPrefix("MemAvailable:") }),
            let kib = line.split(separator: " ").dropFirst().first.flatMap({ Double($0) })
        {
            best = kib * 1024
        }
        if let text = try? String(contentsOfFile: "/sys/fs/cgroup/memory.max", encoding: .utf8),
            let limit = Double(text.trimmingCharacters(in: .whitespacesAndNewlines))
        {
            best = min(best ?? limit, limit)
        }
        return best
    }

    /// Workers to run side by side: two when the machine has two cores and more than `bytes` (what two at once hold)
    /// is available, else one.
    package static func sideBySide(needing bytes: Double) -> Int {
        ProcessInfo.processInfo.activeProcessorCount >= 2 && (available() ?? 0) > bytes ? 2 : 1
    }

    /// Refuses, naming the field, when `bytes` exceed what is available.
    package static func require(bytes: Double, for what: String, source: ParameterSource, _ path: String) throws {
        guard let free = available(), bytes > free else { return }
        throw source.error(
            path,
            String(
                format: "asks for %@, which needs about %.1f GiB; %.1f GiB is available", what, bytes / 1_073_741_824, free / 1_073_741_824)
        )
    }
}
