import Foundation

/// What every analysis of one run shares and the library would otherwise read from the process:
/// where real corpora and the embedding cache are, the command and start time its provenance
/// records, and where progress goes.
public struct RunEnvironment {
    /// A folder holding real corpora in place of the repository's `Datasets/` (nil: `Datasets/`).
    public var dataDirectory: String?
    public var cacheFolder: String
    public var command: [String]
    /// Every results file of the run carries this time stamp.
    public var startedAt: Date
    public var log: (String) -> Void
    /// Texts embedded so far and the total.
    public var progress: ((Int, Int) -> Void)?
    /// Vectors moved by one unit in the last place before they are analysed or replayed (the fragility check).
    var perturbation: LastBitPerturbation?
    /// A replay whose estimated time (`ReplayPlan.estimatedSeconds`) is above this is refused before any work.
    public var replayBudgetSeconds = ReplayPlan.defaultBudgetSeconds

    public init(
        dataDirectory: String? = nil, cacheFolder: String = EmbeddingCache.defaultFolder, command: [String] = CommandLine.arguments,
        startedAt: Date = Date(), log: @escaping (String) -> Void = { _ in }, progress: ((Int, Int) -> Void)? = nil
    ) {
        self.dataDirectory = dataDirectory
        self.cacheFolder = cacheFolder
        self.command = command
        self.startedAt = startedAt
        self.log = log
        self.progress = progress
    }
}
