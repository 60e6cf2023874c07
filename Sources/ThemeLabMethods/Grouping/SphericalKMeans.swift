import COpenBLAS
import ThemeLabCore
import ThemeLabMeasures
import ThemeLabPairs

/// Spherical k-means (Dhillon & Modha 2001): assign each unit vector to the centroid of highest
/// cosine, recompute centroids as normalised means, repeat until no assignment changes (at most
/// 100 rounds). k-means++ seeding (Arthur & Vassilvitskii 2007) with distance 1 − cos, several
/// seeded restarts, the best total cosine kept. Label-informed when k is the number of topics.
package enum SphericalKMeans {
    package static func cluster(_ x: Matrix, k: Int, seed: UInt64, restarts: Int = 5) -> [Int32] {
        precondition(k >= 1 && k <= x.rows, "k must be within 1...N")
        var best: (score: Double, labels: [Int32]) = (-.infinity, [])
        for r in 0..<restarts {
            let run = once(x, k: k, seed: seed &+ UInt64(r))
            if run.score > best.score { best = run }
        }
        return best.labels
    }

    package static func once(_ x: Matrix, k: Int, seed: UInt64) -> (score: Double, labels: [Int32]) {
        let (n, d) = (x.rows, x.cols)
        var rng = SeededRandom(seed: seed)
        // k-means++ seeding.
        var centres = [Int(rng.next() % UInt64(n))]
        var distance = (0..<n).map { i in Double(1 - dot(x, i, centres[0])) }
        while centres.count < k {
            let weights = distance.map { max($0, 0) * max($0, 0) }
            let total = weights.reduce(0, +)
            var pick = 0
            if total > 0 {
                var target = rng.uniform() * total
                while pick < n - 1 && target >= weights[pick] {
                    target -= weights[pick]
                    pick += 1
                }
            } else {
                pick = Int(rng.next() % UInt64(n))
            }
            centres.append(pick)
            for i in 0..<n { distance[i] = min(distance[i], Double(1 - dot(x, i, pick))) }
        }
        var centroids = [Float](repeating: 0, count: k * d)
        for (c, i) in centres.enumerated() { for t in 0..<d { centroids[c * d + t] = x[i, t] } }
        var labels = [Int32](repeating: -1, count: n)
        var similarities = [Float](repeating: 0, count: n * k)
        var score = 0.0
        for _ in 0..<100 {
            x.storage.withUnsafeBufferPointer { buffer in
                let p = buffer.baseAddress!
                cblas_sgemm(
                    CblasRowMajor, CblasNoTrans, CblasTrans, Int32(n), Int32(k), Int32(d), 1, p, Int32(d), centroids, Int32(d), 0,
                    &similarities, Int32(k))
            }
            var changed = false
            score = 0
            for i in 0..<n {
                var bestC = 0
                for c in 1..<k where similarities[i * k + c] > similarities[i * k + bestC] { bestC = c }
                score += Double(similarities[i * k + bestC])
                if labels[i] != Int32(bestC) {
                    labels[i] = Int32(bestC)
                    changed = true
                }
            }
            if !changed { break }
            for (c, centroid) in normalisedCentroids(x, labels: labels, groups: k).enumerated() {
                guard let centroid else { continue }  // an empty cluster keeps its centroid
                for t in 0..<d { centroids[c * d + t] = centroid[t] }
            }
        }
        return (score, labels)
    }

    package static func dot(_ x: Matrix, _ i: Int, _ j: Int) -> Float {
        x.storage.withUnsafeBufferPointer { cblas_sdot(Int32(x.cols), $0.baseAddress! + i * x.cols, 1, $0.baseAddress! + j * x.cols, 1) }
    }
}
