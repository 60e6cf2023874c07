import ThemeLabCore
import ThemeLabMeasures
import ThemeLabPairs

/// `spectral-k-average` and `spectral-k-kmeans`: the number of groups read off the eigenspectrum of the cosine graph's
/// normalised Laplacian (`SpectralKEstimator`, Neveditsin, Lingras & Mago 2025, as reconstructed), then average linkage
/// cut into that many groups, or spherical k-means with that k (k-means++ seeding, 10 seeded restarts: scikit-learn's
/// n_init = 10, on the unit vectors the cosines compare). The paper guides "K-Means and HAC" with its estimate without
/// their settings being known here; these two are the project's own. The arguments, all optional and in this order, are
/// the estimator's open points (`parameters`); left out, each takes the value the reconstruction reads.
package struct SpectralKGrouping: Grouping {
    package enum Partitioner: String, Sendable, CaseIterable {
        case average, kmeans
    }

    package let partitioner: Partitioner
    package let estimator: SpectralKEstimator

    package init(_ partitioner: Partitioner, estimator: SpectralKEstimator = SpectralKEstimator()) {
        (self.partitioner, self.estimator) = (partitioner, estimator)
    }

    package var name: String {
        let given = Self.arguments(estimator)
        let defaults = Self.arguments(SpectralKEstimator())
        let kept = (given.indices.last { given[$0] != defaults[$0] }).map { Array(given[...$0]) } ?? []
        return "spectral-k-\(partitioner.rawValue)" + (kept.isEmpty ? "" : "(\(kept.map(formatArgument).joined(separator: ",")))")
    }
    package var kind: GroupingKind { .cutsItself }
    package var dependsOn: RunDependence { .seed }
    package func needs(items: Int) -> PassNeeds { PassNeeds(averageLinkage: partitioner == .average) }

    package func groups(_ request: GroupingRequest, in pass: PassProducts) throws -> GroupingCut {
        let x = pass.vectors
        guard let estimate = try pass.spectralK(estimator, seed: request.seed) else {
            return GroupingCut(labels: nil, note: "\(name): the estimate needs at least 3 items; this corpus has \(x.rows)")
        }
        let note = estimate.cleared ? nil : "\(name): no eigengap cleared the threshold; k = \(estimate.k), the fallback"
        switch partitioner {
        case .kmeans:
            return GroupingCut(labels: SphericalKMeans.cluster(x, k: estimate.k, seed: request.seed, restarts: 10), note: note)
        case .average:
            switch try pass.dendrogram() {
            case .success(let tree): return GroupingCut(labels: tree.cut(groups: estimate.k), note: note)
            case .failure(let why): return GroupingCut(labels: nil, note: "\(name): \(why)")
            }
        }
    }

    /// The estimator's open points as the arguments that name them, in order.
    static func arguments(_ e: SpectralKEstimator) -> [Double] {
        [
            Double(e.window), e.selfLoops ? 1 : 0, Double(e.noiseEigenvalues), Double(e.fallback), Double(e.sampleSize), e.replicateFactor,
            Double(e.combination.rawValue),
        ]
    }

    /// The arguments, each optional in turn: the gap window w, self-loops, the noise eigenvalues q, the fallback k, the
    /// sample size τ, the replicate factor r and the combination of the samples' estimates.
    package static let parameters = [
        Parameter("the gap window w (0: the plain eigengap)", .count(0...SpectralKEstimator.largestK)),
        Parameter("self-loops (1 keeps them, 0 leaves them out)", .count(0...1)),
        Parameter("the noise eigenvalues q (0: the searched gaps set the threshold)", .count(0...1_000)),
        Parameter("the fallback k", .count(SpectralKEstimator.smallestK...SpectralKEstimator.largestK)),
        Parameter("the sample size τ", .count(3...5_000)),
        Parameter("the replicate factor r", .above(0, atMost: 100)),
        Parameter("the combination (0: the rounded mean, 1: the median)", .count(0...1)),
    ]

    /// From arguments `parameters` have checked.
    package init(_ partitioner: Partitioner, _ parsed: RuleName) throws {
        var e = SpectralKEstimator()
        e.window = parsed.whole(at: 0) ?? e.window
        e.selfLoops = parsed.whole(at: 1).map { $0 == 1 } ?? e.selfLoops
        e.noiseEigenvalues = parsed.whole(at: 2) ?? e.noiseEigenvalues
        guard e.noiseEigenvalues != 1 else {
            throw ThemeLabError.invalid("\(parsed.text): the noise eigenvalues q must be 0 or at least 2")
        }
        e.fallback = parsed.whole(at: 3) ?? e.fallback
        e.sampleSize = parsed.whole(at: 4) ?? e.sampleSize
        e.replicateFactor = parsed.value(at: 5) ?? e.replicateFactor
        e.combination = parsed.whole(at: 6).flatMap(SpectralKEstimator.Combination.init(rawValue:)) ?? e.combination
        self.init(partitioner, estimator: e)
    }

    /// The registry entry of each partitioner.
    package static func entry(_ partitioner: Partitioner) -> RegistryEntry<any Grouping> {
        let base = "spectral-k-\(partitioner.rawValue)"
        let then = partitioner == .average ? "average linkage cut into" : "spherical k-means (10 restarts) with"
        return RegistryEntry(
            base, forms: [base, "\(base)(w,s,q,f,τ,r,c)"], parameters: parameters,
            summary: "\(then) the k read off the eigengaps of the cosine graph's normalised Laplacian (arXiv 2511.19350, "
                + "as reconstructed; sampled above τ = 1000 items)",
            examples: [base, "\(base)(0)", "\(base)(3,0,20,5,12)"]
        ) { try SpectralKGrouping(partitioner, $0) }
    }
}

extension PassProducts {
    /// `estimator`'s estimate on the space's vectors with `seed`, computed once per pass, from spectra computed once for every
    /// reading of the same graph and samples.
    package func spectralK(_ estimator: SpectralKEstimator, seed: UInt64) throws -> SpectralKEstimator.Estimate? {
        guard vectors.rows >= 3 else { return nil }
        let (e, key) = (
            estimator, "self-loops \(estimator.selfLoops) τ \(estimator.sampleSize) r \(estimator.replicateFactor) seed \(seed)"
        )
        let spectra = try readings.value(key) { try e.spectra(vectors, seed: seed) }
        return try readings.value("\(estimator) seed \(seed)") { e.estimate(spectra: spectra) }
    }
}
