import Foundation
import ThemeLabCore
import ThemeLabCorpus
import ThemeLabEncoder
import ThemeLabMeasures
import ThemeLabMethods
import ThemeLabPairs

/// What every analysis of one run shares and the library would otherwise read from the process:
/// where real corpora and the embedding cache are, the command and start time its provenance
/// records, and where progress goes.
package struct RunEnvironment {
    /// A folder holding real corpora in place of the repository's `Datasets/` (nil: `Datasets/`).
    package var dataDirectory: String?
    package var cacheFolder: String
    package var command: [String]
    /// Every results file of the run carries this time stamp.
    package var startedAt: Date
    package var log: (String) -> Void
    /// Texts embedded so far and the total.
    package var progress: ((Int, Int) -> Void)?
    /// Vectors moved by one unit in the last place before they are analysed or replayed (the fragility check).
    package var perturbation: LastBitPerturbation?
    /// A replay whose estimated time (`ReplayPlan.estimatedSeconds`) is above this is refused before any work.
    package var replayBudgetSeconds = ReplayPlan.defaultBudgetSeconds
    /// Whether each corpus's analysis keeps which entries form its groups (`analyze` lists them); an experiment keeps
    /// them when it asks for `assignments` files.
    package var keepsMembers = false
    /// Whether the run writes the members as an assignments file (`analyze --assignments`): kept, and their rows bounded
    /// (`AssignmentRows`) before any work, as an experiment's `assignments` are.
    package var writesAssignments = false
    /// Whether each corpus's analysis keeps what the threshold explorer page draws (`analyze --html`); an experiment keeps
    /// it when it asks for `html`.
    package var keepsExplorer = false
    /// Where `ablate --vectors` writes each corpus's vectors per space (`SpaceVectors`); nil: nowhere.
    package var vectorsFolder: String?
    /// The files the run writes for one analysis (corpus name, vector source, spaces), checked for length before any work;
    /// nil: none named after an analysis.
    package var outputFiles: ((_ corpus: String, _ source: String, _ spaces: [String]) -> [String])?

    package init(
        dataDirectory: String? = nil, cacheFolder: String = ProcessEnvironment.cacheFolder, command: [String] = CommandLine.arguments,
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

/// A run's estimated time, checked against a budget before any work and said in one line: the one way `replay` and
/// every grid (`ablate` and each shard, `analyze`, each experiment of `reproduce`) say how long they will take.
package struct TimeEstimate: Sendable {
    package var name: String
    package var seconds: Double

    package init(_ name: String, seconds: Double) {
        self.name = name
        self.seconds = seconds
    }

    /// Refuses with `refusal` above `budget` seconds.
    package func check(budget: Double, refusal: @autoclosure () -> ThemeLabError) throws {
        guard seconds <= budget else { throw refusal() }
    }

    /// "NAME: estimated 12 s".
    package var line: String { "\(name): estimated \(Int(seconds.rounded())) s" }
}
