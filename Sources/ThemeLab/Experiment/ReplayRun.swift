import Foundation

extension ReplayPlan {
    /// Replays every journal: corpora read and checked first, then vectors, then the orders of each
    /// journal side by side on up to two workers.
    public func run(in environment: RunEnvironment) throws -> ReplayResults {
        let source = file.map(ParameterSource.experiment) ?? .commandLine
        let loaded = try journals.map { try DatasetRegistry.load($0.corpus, dataDirectory: environment.dataDirectory) }
        try checkCorpora(loaded, source: source)
        let schemes = try loaded.indices.map { try order(of: $0, loaded[$0].corpus) }
        let estimate = try checkedEstimate(loaded, schemes: schemes, environment, source: source)
        environment.log("\(name): estimated \(Int(estimate.rounded())) s")
        var files: [String] = []
        var modelHash: String?
        var results: [JournalResult] = []
        for (i, l) in loaded.enumerated() {
            let vectors = try journalVectors(i, l, environment, source: source)
            files += l.files + vectors.files
            modelHash = vectors.modelHash ?? modelHash
            results.append(try replayJournal(i, l, vectors: vectors, order: schemes[i], environment))
        }
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

    /// The estimated seconds of every journal's replays, refused above the environment's budget.
    private func checkedEstimate(
        _ loaded: [LoadedCorpus], schemes: [JournalOrder], _ environment: RunEnvironment, source: ParameterSource
    ) throws -> Double {
        let estimate = Self.estimatedSeconds(
            journals: zip(loaded, schemes).map { ($0.corpus.count, seeds(for: $1).count) }, rules: settings.rules.count)
        guard estimate <= environment.replayBudgetSeconds else {
            throw source.error(
                "journals",
                "would take about \(Int(estimate / 60)) minutes (a fresh regroup at every save is O(N³)), above the budget of "
                    + "\(Int(environment.replayBudgetSeconds / 60)); fewer saves or shuffles, or replay --budget-minutes")
        }
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

    /// Journal `i` (corpus `l`) replayed in every order of its scheme, every rule and policy.
    private func replayJournal(
        _ i: Int, _ l: LoadedCorpus, vectors: VectorSource.Vectors, order: JournalOrder, _ environment: RunEnvironment
    ) throws -> JournalResult {
        let (rules, policies) = (settings.rules, settings.policies)
        let u = try unitRows(environment.perturbation?.apply(to: vectors.matrix) ?? vectors.matrix) {
            "\(l.corpus.name): item '\(l.corpus.items[$0].id)'"
        }
        let topics = l.corpus.labelIndices()!
        let (launch, initial) = (self.launch(of: i), self.initial(of: i))
        let seeds = seeds(for: order)
        environment.log("\(name): \(l.corpus.name), \(l.corpus.count) saves in \(seeds.count) order(s) '\(order.name)'")
        let started = Date()
        let replay = JournalReplay(launch: launch, initial: initial, rules: rules, policies: policies)
        let orders = try seeds.map { try order.saves(of: l.corpus, topics: topics, seed: $0) }
        let timelines = try Self.replayAll(replay, u: u, topics: topics, orders: orders) {
            environment.log("\(name): \(l.corpus.name) order \($0) of \(orders.count) done")
        }
        let seconds = (Date().timeIntervalSince(started) * 10).rounded() / 10
        environment.log("\(name): \(l.corpus.name) replayed in \(seconds) s")
        return JournalResult(
            corpus: l.corpus.name, source: vectors.description, order: order.name, orders: seeds.count, items: l.corpus.count,
            topics: l.corpus.topicSizes.count, launch: launch, initial: initial,
            rules: rules.indices.map { r in
                RuleResult(
                    rule: rules[r].name, policies: policies.map(\.name), timelines: timelines.map { $0[r] }, initial: initial,
                    points: settings.points, seed: settings.seed)
            }, seconds: seconds)
    }

    /// The seeds of a journal's orders: one per shuffle for a seeded order scheme, else the plan's seed alone.
    func seeds(for order: JournalOrder) -> [UInt64] {
        order.isSeeded ? (0..<settings.shuffles).map { settings.seed &+ UInt64($0) } : [settings.seed]
    }

    /// Saves per launch of journal `i`: its own, else the plan's.
    func launch(of i: Int) -> Int { journals[i].launch ?? settings.launch }

    /// Saves at journal `i`'s first launch: its own, else the plan's, else one launch.
    func initial(of i: Int) -> Int { journals[i].initial ?? settings.initial ?? launch(of: i) }

    /// The journal's order scheme: as given, else the corpus's own order when every item has one, else shuffles.
    func order(of i: Int, _ corpus: Corpus) throws -> JournalOrder {
        guard let order = journals[i].order else { return corpus.items.allSatisfy { $0.order != nil } ? .corpus : .shuffle }
        if order == .corpus, let item = corpus.items.first(where: { $0.order == nil }) {
            let source = file.map(ParameterSource.experiment) ?? .commandLine
            throw source.error("journals[\(i)].order", "is 'corpus', but item '\(item.id)' of '\(corpus.name)' has no 'order' field")
        }
        return order
    }

    /// Every order's timelines ([order][rule][policy]), two orders at a time when two cores are free.
    static func replayAll(
        _ replay: JournalReplay, u: Matrix, topics: [Int32], orders: [[Int]], done: @escaping (Int) -> Void
    ) throws -> [[[JournalReplay.Timeline]]] {
        let bytes = 8 * Double(u.rows) * Double(u.rows)  // raw similarities and the centred pairs, Float64 triangles
        let side = ProcessInfo.processInfo.activeProcessorCount >= 2 && Double(MemoryBudget.available() ?? 0) > 2 * bytes ? 2 : 1
        let queue = WorkQueue(count: orders.count, state: [Result<[[JournalReplay.Timeline]], Error>?](repeating: nil, count: orders.count))
        let shared = UnsafeSendable((replay, u, topics, orders))
        let report = UnsafeSendable(done)
        DispatchQueue.concurrentPerform(iterations: min(side, orders.count)) { _ in
            while let k = queue.take() {
                let (replay, u, topics, orders) = shared.value
                let result = Result { try replay.run(u, topics: topics, order: orders[k]) }
                let finished = queue.withState { state -> Int in
                    state[k] = result
                    return state.compactMap { $0 }.count
                }
                report.value(finished)
            }
        }
        return try queue.withState { try $0.map { try $0!.get() } }
    }
}
