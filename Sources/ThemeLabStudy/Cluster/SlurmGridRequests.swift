import Foundation
import ThemeLabCore
import ThemeLabCorpus
import ThemeLabEncoder
import ThemeLabMeasures
import ThemeLabMethods
import ThemeLabPairs

/// The requests of an experiment grid run as a job array (`themelab slurm ablate`).
extension SlurmResources {
    /// The one request every task of the array carries, the grid cut into `shards` shards (corpora k mod n): each
    /// shard priced by `gridShard`, then the largest memory and the longest time among them. The grid is held to the
    /// bounds of `GridEstimate` first (each task's time and output; its memory is the node's to give).
    package static func gridArray(
        _ plan: ExperimentPlan, shards: Int, dataDirectory: String?, cpus: Int, model: CostModel, memoryMiB: Int? = nil,
        minutes: Int? = nil
    ) throws -> SlurmResources {
        let source = plan.file.map(ParameterSource.experiment) ?? .commandLine
        try GridEstimate(plan).checkDeclared(source: source)  // again: --replicates may have changed the grid since it was read
        let sizes = try plan.corpusSizes(dataDirectory: dataDirectory)
        let requests = try (0..<shards).map { i in
            let grid = GridEstimate(plan, sizes: try plan.corpusIndices(in: PairShard(index: i, count: shards)).map { sizes[$0] })
            let f = try grid.checkSized(source: source, memory: false, cpus: cpus, model: model)
            try TimeEstimate(plan.name, seconds: f.seconds).check(
                budget: GridEstimate.maxSeconds, refusal: grid.timeRefusal(f, source: source))
            return try gridShard(grid, cpus: cpus, model: model, memoryMiB: memoryMiB, minutes: minutes)
        }
        var task = requests.max { $0.memoryMiB < $1.memoryMiB }!
        task.minutes = requests.map(\.minutes).max()!
        task.reason = "largest of \(shards) tasks: " + task.reason
        return task
    }

    /// The gather of the array's `shards` parts into the results folder, with its plots.
    package static func gridGather(shards: Int) throws -> SlurmResources {
        try SlurmResources(cpus: 1, predictedMiB: 512, predictedSeconds: 120, reason: "gather of \(shards) parts and the plots")
    }
}
