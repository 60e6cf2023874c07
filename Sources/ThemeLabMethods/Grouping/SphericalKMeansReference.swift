import ThemeLabCore
import ThemeLabMeasures
import ThemeLabPairs

/// Spherical k-means with k = the number of topics (label-informed reference).
package struct SphericalKMeansReference: Grouping {
    package init() {}

    package var name: String { "kmeans-k" }
    package var kind: GroupingKind { .labelInformedReference }
    package var dependsOn: RunDependence { .seed }

    package func groups(_ request: GroupingRequest, in pass: PassProducts) throws -> GroupingCut {
        GroupingCut(labels: SphericalKMeans.cluster(pass.vectors, k: try request.topics(), seed: request.seed))
    }
}

extension SphericalKMeansReference {
    /// Its registry entry (`groupingRegistry`).
    package static let entry = RegistryEntry<any Grouping>(
        "kmeans-k", summary: "spherical k-means, k = the number of topics (label-informed reference)"
    ) { _ in SphericalKMeansReference() }
}
