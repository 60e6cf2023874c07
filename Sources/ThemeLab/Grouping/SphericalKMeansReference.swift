/// Spherical k-means with k = the number of topics (label-informed reference).
public struct SphericalKMeansReference: Grouping {
    public var name: String { "kmeans-k" }
    public var isLabelInformed: Bool { true }

    public func groups(_ request: GroupingRequest, in pass: PassProducts) throws -> GroupingCut {
        GroupingCut(labels: SphericalKMeans.cluster(pass.vectors, k: request.topics!, seed: request.seed))
    }
}
