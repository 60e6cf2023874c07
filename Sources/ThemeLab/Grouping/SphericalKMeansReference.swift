/// Spherical k-means with k = the number of topics (label-informed reference).
struct SphericalKMeansReference: Grouping {
    public var name: String { "kmeans-k" }
    public var kind: GroupingKind { .labelInformedReference }

    public func groups(_ request: GroupingRequest, in pass: PassProducts) throws -> GroupingCut {
        GroupingCut(labels: SphericalKMeans.cluster(pass.vectors, k: try request.topics(), seed: request.seed))
    }
}
