import Foundation
import ThemeLabCore
import ThemeLabPairs

/// Entropy of a labeling from its group sizes, in nats: H = −Σ (nᵢ/n) ln(nᵢ/n).
package func entropy(sizes: [Int]) -> Double {
    let n = Double(sizes.reduce(0, +))
    guard n > 0 else { return 1 }
    return -sizes.reduce(0.0) { $0 + Double($1) / n * (log(Double($1)) - log(n)) }
}

/// Mutual information I(C; K) in nats, computed as scikit-learn's `mutual_info_score` does
/// (terms below machine epsilon set to 0, the sum clipped at 0).
package func mutualInformation(_ c: Contingency) -> Double {
    if c.classSizes.count == 1 || c.clusterSizes.count == 1 { return 0 }
    let n = Double(c.total)
    var sum = 0.0
    for cell in c.cells {
        let p = Double(cell.count) / n
        let outer = Double(c.classSizes[cell.class]) * Double(c.clusterSizes[cell.cluster])
        let term = p * (log(Double(cell.count)) - log(n)) + p * (-log(outer) + log(n) + log(n))
        sum += abs(term) < Double.ulpOfOne ? 0 : term
    }
    return max(sum, 0)
}

/// Normalised mutual information with the arithmetic mean, I / ((H(C) + H(K))/2)
/// (Vinh et al. 2010; scikit-learn's default). 1 when both labelings are a single group.
package func normalizedMutualInformation(_ c: Contingency) -> Double {
    // As scikit-learn: one class and one cluster, or no items at all, agree perfectly.
    if c.classSizes.count == c.clusterSizes.count && c.clusterSizes.count <= 1 { return 1 }
    let mi = mutualInformation(c)
    if mi == 0 { return 0 }
    let normalizer = (entropy(sizes: c.classSizes) + entropy(sizes: c.clusterSizes)) / 2
    return mi / max(normalizer, Double.ulpOfOne)
}

/// Homogeneity h = I/H(C), completeness c = I/H(K) (each 1 when its entropy is 0), and the
/// V-measure 2hc/(h + c) (Rosenberg & Hirschberg 2007; β = 1).
package func homogeneityCompletenessVMeasure(_ c: Contingency) -> (homogeneity: Double, completeness: Double, vMeasure: Double) {
    if c.total == 0 { return (1, 1, 1) }  // as scikit-learn for no items
    let mi = mutualInformation(c)
    let hC = entropy(sizes: c.classSizes)
    let hK = entropy(sizes: c.clusterSizes)
    let h = hC != 0 ? mi / hC : 1
    let k = hK != 0 ? mi / hK : 1
    return (h, k, h + k == 0 ? 0 : 2 * h * k / (h + k))
}
