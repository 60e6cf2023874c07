import Foundation
import ThemeLabCore
import ThemeLabCorpus
import ThemeLabEncoder
import ThemeLabMeasures
import ThemeLabMethods
import ThemeLabPairs

/// C7: the corpus mean can be kept as per-theme running sums: summing the themes' sum-vectors gives exactly the
/// sentence mean (measured on unit vectors, on the corpus and its subsamples).
package enum C7ThemeSumsGiveTheMean: Claim {
    package static let id = "C7"
    package static let reported = "summing theme sum-vectors gives exactly the sentence mean"
    package static let short = "per-theme sums give the corpus mean exactly"
    /// "Partly": not the same bits, but no coordinate differs by more than this (rounding of Float64 sums, far below
    /// anything a Float32 vector can show).
    package static let maximumPartlyDifference = 1e-12

    /// The largest absolute difference from the plain mean, with its estimate over subsamples.
    package static func evidence(_ r: ThemeSumsResult) -> [ClaimsReport.Evidence] {
        [.init("largest absolute difference", r.maxAbsDifference, r.replicates)]
    }

    package static func verdict(difference: Double) -> Verdict {
        difference == 0 ? .holds : (difference < maximumPartlyDifference ? .partly : .doesNotHold)
    }

    /// The claims-table row (figures in scientific notation: they are zero or rounding).
    package static func row(_ r: ThemeSumsResult) -> ClaimsReport.Row {
        func scientific(_ x: Double) -> String { String(format: "%.1e", x) }
        let (decided, flips) = ClaimsReport.decide(evidence(r)) { verdict(difference: $0[0]) }
        return ClaimsReport.Row(
            claim: id, reported: reported, corpus: r.corpus, source: r.source, space: "unit vectors",
            ours: "largest absolute difference \(scientific(r.maxAbsDifference))\(r.identicalBits ? ", identical bits" : "")"
                + (r.replicates.map { ", identical bits on \(r.identicalReplicates) of \($0.n) subsamples" } ?? ""),
            quantities: "largest absolute difference "
                + (r.replicates.map {
                    "\(scientific($0.mean)) [\(scientific($0.low)), \(scientific($0.high))] (own draw \(scientific(r.maxAbsDifference)))"
                } ?? scientific(r.maxAbsDifference)),
            verdict: decided, reason: "Float64 sums of Float32 vectors" + (flips.map { "; \($0)" } ?? ""),
            figures: evidence(r).map(ClaimsReport.Figure.init))
    }

    /// Claim C7 on real vectors: a corpus's MiniLM vectors (unit), summed per theme in Float64 and
    /// then across themes, against the plain sentence mean; and the same on `replicates` stratified
    /// subsamples (80% of each theme; seeds 0 to replicates − 1).
    package static func measure(
        on corpusName: String, _ environment: RunEnvironment, replicates: Int = 10
    ) throws
        -> ThemeSumsResult
    {
        let corpus = try DatasetRegistry.load(CorpusSpec(name: corpusName)).corpus
        let v = try VectorSource.model(folder: nil, layer: nil).vectors(for: corpus, cacheFolder: environment.cacheFolder)
        let x = try unitRows(v.matrix)
        let labels = corpus.labelIndices()!
        func difference(_ rows: [Int]) -> Double {
            var sums = ThemeSums(dimensions: x.cols)
            var direct = [Double](repeating: 0, count: x.cols)
            for i in rows {
                sums.add(x.row(i), to: Int(labels[i]))
                for k in 0..<x.cols { direct[k] += Double(x[i, k]) }
            }
            let mean = direct.map { $0 / Double(rows.count) }
            return zip(sums.mean, mean).map { abs($0 - $1) }.max() ?? 0
        }
        let worst = difference(Array(0..<x.rows))
        var result = ThemeSumsResult(
            corpus: corpus.name, source: v.description, identicalBits: worst == 0, maxAbsDifference: worst)
        let resampling = Resampling(fraction: 0.8)
        let onSubsamples = (0..<replicates).map { difference(resampling.subsample(corpus, seed: UInt64($0))) }
        result.replicates = PercentileBootstrap(count: replicates, seed: 0).estimate(onSubsamples)
        result.identicalReplicates = onSubsamples.filter { $0 == 0 }.count
        return result
    }
}

/// C7 measured on one corpus.
package struct ThemeSumsResult: Sendable {
    package var corpus: String
    package var source: String
    package var identicalBits: Bool
    package var maxAbsDifference: Double
    /// The same on stratified subsamples: max |difference| over them, and on how many the bits agree.
    package var replicates: Estimate?
    package var identicalReplicates = 0
    package init(corpus: String, source: String, identicalBits: Bool, maxAbsDifference: Double) {
        self.corpus = corpus
        self.source = source
        self.identicalBits = identicalBits
        self.maxAbsDifference = maxAbsDifference
    }
}
