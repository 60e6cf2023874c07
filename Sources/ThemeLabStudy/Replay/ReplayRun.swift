import Foundation
import ThemeLabCore
import ThemeLabCorpus
import ThemeLabEncoder
import ThemeLabMeasures
import ThemeLabMethods
import ThemeLabPairs

extension ReplayPlan {
    /// Replays every journal: corpora read and checked first, then vectors, then the orders of each
    /// journal side by side on up to two workers.
    package func run(in environment: RunEnvironment) throws -> ReplayResults {
        let source = file.map(ParameterSource.experiment) ?? .commandLine
        let loaded = try journals.map { try DatasetRegistry.load($0.corpus, dataDirectory: environment.dataDirectory) }
        try checkCorpora(loaded, source: source)
        let schemes = try loaded.indices.map { try order(of: $0, loaded[$0].corpus) }
        environment.log(try checkedEstimate(loaded, schemes: schemes, environment, source: source).line)
        var files: [String] = []
        var modelHash: String?
        var inputs: [JournalInput] = []
        for (i, l) in loaded.enumerated() {
            let vectors = try journalVectors(i, l, environment, source: source)
            files += l.files + vectors.files
            modelHash = vectors.modelHash ?? modelHash
            inputs.append(try journalInput(i, l, vectors: vectors, order: schemes[i], environment))
        }
        let replayed = try Self.replayAll(inputs) { environment.log("\(name): \($0)") }
        let results = zip(inputs, replayed).map { journalResult($0, timelines: $1.timelines, seconds: $1.seconds) }
        return ReplayResults(
            name: name, description: description,
            provenance: .current(
                command: environment.command, inputs: try Provenance.checksums(Array(Set(files)).sorted()), model: modelHash,
                createdAt: environment.startedAt),
            settings: settings, journals: results)
    }

    /// Refuses a journal whose corpus is unlabeled, too large, or smaller than its first launch.
    private func checkCorpora(_ loaded: [LoadedCorpus], source: ParameterSource) throws {
        for (i, l) in loaded.enumerated() {
            let field = "journals[\(i)].corpus"
            guard l.corpus.isLabeled else {
                throw source.error(field, "names an unlabeled corpus; a replay measures recovery of its labels")
            }
            guard l.corpus.count <= Self.maxItems else {
                throw source.error(field, "has \(l.corpus.count) items; a replay takes at most \(Self.maxItems)")
            }
            guard initial(of: i) <= l.corpus.count else {
                throw source.error(
                    journals[i].initial == nil ? "initial" : "journals[\(i)].initial",
                    "is \(initial(of: i)); '\(l.corpus.name)' has only \(l.corpus.count) items")
            }
        }
    }

    /// The estimated time of every journal's replays, refused above the environment's budget.
    private func checkedEstimate(
        _ loaded: [LoadedCorpus], schemes: [JournalOrder], _ environment: RunEnvironment, source: ParameterSource
    ) throws -> TimeEstimate {
        let estimate = TimeEstimate(
            name,
            seconds: Self.estimatedSeconds(
                journals: zip(loaded, schemes).map { ($0.corpus.count, seeds(for: $1).count) }, rules: settings.rules.count))
        try estimate.check(
            budget: environment.replayBudgetSeconds,
            refusal: source.error(
                "journals",
                "would take about \(Int(estimate.seconds / 60)) minutes (a fresh regroup at every save is O(N³)), above the budget of "
                    + "\(Int(environment.replayBudgetSeconds / 60)); fewer saves or shuffles, or replay --budget-minutes"))
        return estimate
    }

    /// Journal `i`'s vectors (corpus `l`): the corpus's own, the journal's embeddings, else the default model's.
    private func journalVectors(
        _ i: Int, _ l: LoadedCorpus, _ environment: RunEnvironment, source: ParameterSource
    ) throws -> VectorSource.Vectors {
        let vectors: VectorSource.Vectors
        if let own = l.vectors {
            vectors = .init(matrix: own, description: "generator", modelHash: nil, files: [])
        } else if let path = journals[i].embeddings {
            vectors = try VectorSource.embeddings(path: path).vectors(for: l.corpus)
        } else {
            vectors = try VectorSource.model(folder: nil, layer: nil).vectors(
                for: l.corpus, cacheFolder: environment.cacheFolder, log: environment.log, progress: environment.progress)
        }
        guard vectors.matrix.rows == l.corpus.count else {
            throw source.error(
                "journals[\(i)].embeddings", "has \(vectors.matrix.rows) rows; '\(l.corpus.name)' has \(l.corpus.count) items")
        }
        return vectors
    }

    /// One journal ready to replay: its corpus, unit vectors, topics and the saves of each order of its scheme.
    package struct JournalInput {
        package var corpus: Corpus
        package var source: String
        package var scheme: JournalOrder
        package var replay: JournalReplay
        package var u: Matrix
        package var topics: [Int32]
        package var orders: [[Int]]
    }

    /// Journal `i` (corpus `l`) with its vectors (moved by the environment's perturbation, if any) and orders.
    private func journalInput(
        _ i: Int, _ l: LoadedCorpus, vectors: VectorSource.Vectors, order: JournalOrder, _ environment: RunEnvironment
    ) throws -> JournalInput {
        let u = try unitRows(environment.perturbation?.apply(to: vectors.matrix) ?? vectors.matrix) {
            "\(l.corpus.name): item '\(l.corpus.items[$0].id)'"
        }
        let topics = l.corpus.labelIndices()!
        let seeds = seeds(for: order)
        environment.log("\(name): \(l.corpus.name), \(l.corpus.count) saves in \(seeds.count) order(s) '\(order.name)'")
        let replay = JournalReplay(launch: launch(of: i), initial: initial(of: i), rules: settings.rules, policies: settings.policies)
        return JournalInput(
            corpus: l.corpus, source: vectors.description, scheme: order, replay: replay, u: u, topics: topics,
            orders: try seeds.map { try order.saves(of: l.corpus, topics: topics, seed: $0) })
    }

    /// A journal's result from the timelines of its orders ([order][rule][policy]) and their seconds.
    private func journalResult(_ input: JournalInput, timelines: [[[JournalReplay.Timeline]]], seconds: Double) -> JournalResult {
        let (rules, policies, replay) = (settings.rules, settings.policies, input.replay)
        return JournalResult(
            corpus: input.corpus.name, source: input.source, order: input.scheme.name, orders: input.orders.count,
            items: input.corpus.count, topics: input.corpus.topicSizes.count, launch: replay.launch, initial: replay.initial,
            rules: rules.indices.map { r in
                RuleResult(
                    rule: rules[r].name, policies: policies.map(\.name), timelines: timelines.map { $0[r] }, initial: replay.initial,
                    points: settings.points, seed: settings.seed)
            }, seconds: (seconds * 10).rounded() / 10)
    }

    /// The seeds of a journal's orders: one per shuffle for a seeded order scheme, else the plan's seed alone.
    package func seeds(for order: JournalOrder) -> [UInt64] {
        order.isSeeded ? (0..<settings.shuffles).map { settings.seed &+ UInt64($0) } : [settings.seed]
    }

    /// Saves per launch of journal `i`: its own, else the plan's.
    package func launch(of i: Int) -> Int { journals[i].launch ?? settings.launch }

    /// Saves at journal `i`'s first launch: its own, else the plan's, else one launch.
    package func initial(of i: Int) -> Int { journals[i].initial ?? settings.initial ?? launch(of: i) }

    /// The journal's order scheme: as given, else the corpus's own order when every item has one, else shuffles.
    package func order(of i: Int, _ corpus: Corpus) throws -> JournalOrder {
        guard let order = journals[i].order else { return corpus.items.allSatisfy { $0.order != nil } ? .corpus : .shuffle }
        if order == .corpus, let item = corpus.items.first(where: { $0.order == nil }) {
            let source = file.map(ParameterSource.experiment) ?? .commandLine
            throw source.error("journals[\(i)].order", "is 'corpus', but item '\(item.id)' of '\(corpus.name)' has no 'order' field")
        }
        return order
    }

    /// One order of one journal, a job of `replayAll`.
    package struct OrderJob {
        package var journal: Int
        package var order: Int
    }

    /// One order's replay: its timelines ([rule][policy]) and the seconds it took.
    package struct OrderReplay {
        package var timelines: [[JournalReplay.Timeline]]
        package var seconds: Double
    }

    /// Every journal's timelines ([order][rule][policy]) and the seconds its orders took, summed. Every order of every
    /// journal is one job, the largest (N³) first, two at a time when two cores and the memory of the two largest are free.
    package static func replayAll(
        _ inputs: [JournalInput], log: @escaping (String) -> Void
    ) throws -> [(timelines: [[[JournalReplay.Timeline]]], seconds: Double)] {
        let jobs = inputs.indices.flatMap { j in inputs[j].orders.indices.map { OrderJob(journal: j, order: $0) } }
            .sorted { inputs[$0.journal].u.rows > inputs[$1.journal].u.rows }
        // A job holds the raw similarities and the centred pairs, Float64 triangles: 8·N² bytes.
        let largest = jobs.prefix(2).map { 8 * Double(inputs[$0.journal].u.rows) * Double(inputs[$0.journal].u.rows) }.reduce(0, +)
        let side = MemoryBudget.sideBySide(needing: largest)
        let empty = inputs.map { [Result<OrderReplay, Error>?](repeating: nil, count: $0.orders.count) }
        let queue = WorkQueue(count: jobs.count, state: empty)
        let shared = UnsafeSendable((inputs, jobs))
        let report = UnsafeSendable(log)
        DispatchQueue.concurrentPerform(iterations: min(side, jobs.count)) { _ in
            while let k = queue.take() {
                let (inputs, jobs) = shared.value
                let (j, o) = (jobs[k].journal, jobs[k].order)
                let started = Date()
                let result = Result {
                    OrderReplay(
                        timelines: try inputs[j].replay.run(inputs[j].u, topics: inputs[j].topics, order: inputs[j].orders[o]),
                        seconds: Date().timeIntervalSince(started))
                }
                let finished = queue.withState { state -> Int in
                    state[j][o] = result
                    return state[j].compactMap { $0 }.count
                }
                report.value("\(inputs[j].corpus.name) order \(finished) of \(inputs[j].orders.count) done")
            }
        }
        let done = try queue.withState { state in try state.map { try $0.map { try $0!.get() } } }
        return done.map { orders in (orders.map(\.timelines), orders.map(\.seconds).reduce(0, +)) }
    }
}
