import Foundation
import ThemeLabCore
import ThemeLabCorpus

/// `analyze`'s path: one corpus and one vector source, straight through. The inputs are checked (`InputChecks`), the
/// vectors read or embedded, the analysis run once (`Analysis.run`), the results given their provenance; none of the
/// grid's replicates, shards or memory rounds (`GridRun`).
package struct SingleAnalysis {
    /// The checked plan of one corpus and one vector source (one encoder, at most one layer).
    package let plan: ExperimentPlan

    /// - Parameter plan: a plan `ExperimentPlan.validate` passed, of one corpus and one encoder with at most one layer.
    package init(_ plan: ExperimentPlan) {
        precondition(
            plan.corpora.count == 1 && plan.encoders.count == 1 && (plan.encoders[0].layers?.count ?? 1) == 1,
            "a single analysis has one corpus and one vector source")
        self.plan = plan
    }

    /// Runs the analysis; every check that needs the corpus or the vectors' shape passes before a text is embedded.
    /// - Parameter environment: where corpora and the cache are, the provenance's command and time, the log, and whether
    ///   the groups' members are kept (`keepsMembers`, `writesAssignments`).
    /// - Returns: the results of the one analysis, named as the plan is.
    package func run(in environment: RunEnvironment) throws -> AnalysisResults {
        let source = ParameterSource.commandLine
        let loaded = try DatasetRegistry.load(plan.corpora[0], dataDirectory: environment.dataDirectory)
        let (given, models) = try plan.givenVectorsAndModels(of: [loaded], source: source)
        try plan.checkInputs(of: [loaded], given: given, models: models, source: source)
        try plan.preflight([(0, loaded)], given: given, models: models, environment, source: source)
        environment.log("\(plan.name): corpus \(loaded.corpus.name) (\(loaded.corpus.count) items)")
        let vectors = try plan.sourceKinds(of: loaded, given: given)[0].vectors(of: loaded, environment)
        let analysis = try Analysis(settings: plan.settings, environment).run(
            corpus: loaded.corpus, vectors: vectors.matrix, source: vectors.description)
        return try AnalysisResults(
            name: plan.name, settings: plan.settings, analyses: [analysis], files: loaded.files + vectors.files,
            modelHash: vectors.modelHash, environment)
    }
}
