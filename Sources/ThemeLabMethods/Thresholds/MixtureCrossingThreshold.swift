import Foundation
import ThemeLabCore
import ThemeLabMeasures
import ThemeLabPairs

/// Where two Gaussians fitted by EM to all pair similarities cross: π₁N(x; μ₁, σ₁) = π₂N(x; μ₂, σ₂)
/// for x between the means. EM runs on the fine histogram (values at bin centres), initialised
/// deterministically by splitting at Otsu's threshold; at most 500 iterations, stopping when the
/// log-likelihood gains less than 1e-10 per pair. nil when the fitted curves do not cross
/// between the means.
package struct MixtureCrossingThreshold: AnsweringThresholdRule {
    package var name: String { "mixture" }

    package struct Fit: Sendable, Equatable {
        package var weight: (Double, Double)
        package var mean: (Double, Double)
        package var sigma: (Double, Double)
        package static func == (a: Fit, b: Fit) -> Bool {
            a.weight == b.weight && a.mean == b.mean && a.sigma == b.sigma
        }
    }

    /// One EM fit for both the threshold and the reason (fitting again for the reason cost as much as the value).
    package func answer(in context: ThresholdContext) -> RuleAnswer { Self.answer(fit(context)) }

    /// The crossing of a fit, or why there is none (also `NeighbourMixtureThreshold`'s).
    package static func answer(_ fit: Fit?) -> RuleAnswer {
        guard let fit else { return .none(reason: "EM left a component empty") }
        return crossing(fit).map(RuleAnswer.threshold) ?? .none(reason: "the two fitted Gaussians do not cross between their means")
    }

    package func fit(_ context: ThresholdContext) -> Fit? {
        let all = context.distribution.all
        guard all.count > 2, all.min < all.max, let split = OtsuThreshold(bins: 256).threshold(in: context) else { return nil }
        var xs: [Double] = []
        var ws: [Double] = []
        for (b, c) in all.histogram.enumerated() where c > 0 {
            xs.append(min(max(all.centre(ofBin: b), Double(all.min)), Double(all.max)))
            ws.append(Double(c))
        }
        return Self.fit(xs, weights: ws, split: split, sigmaFloor: all.binWidth / 2)
    }

    /// EM for two Gaussians on weighted points, starting from the split "x ≤ split".
    package static func fit(_ xs: [Double], weights ws: [Double], split: Double, sigmaFloor floor: Double) -> Fit? {
        let total = ws.reduce(0, +)
        var r1 = xs.map { $0 <= split ? 1.0 : 0.0 }
        var fit = Fit(weight: (0, 0), mean: (0, 0), sigma: (0, 0))
        var previous = -Double.infinity
        for _ in 0..<500 {
            // M step.
            var n1 = 0.0
            var n2 = 0.0
            var s1 = 0.0
            var s2 = 0.0
            for i in xs.indices {
                n1 += ws[i] * r1[i]
                n2 += ws[i] * (1 - r1[i])
                s1 += ws[i] * r1[i] * xs[i]
                s2 += ws[i] * (1 - r1[i]) * xs[i]
            }
            guard n1 > 0, n2 > 0 else { return nil }
            let m1 = s1 / n1
            let m2 = s2 / n2
            var v1 = 0.0
            var v2 = 0.0
            for i in xs.indices {
                v1 += ws[i] * r1[i] * (xs[i] - m1) * (xs[i] - m1)
                v2 += ws[i] * (1 - r1[i]) * (xs[i] - m2) * (xs[i] - m2)
            }
            fit = Fit(
                weight: (n1 / total, n2 / total), mean: (m1, m2),
                sigma: (max((v1 / n1).squareRoot(), floor), max((v2 / n2).squareRoot(), floor)))
            // E step and log-likelihood.
            var logLikelihood = 0.0
            for i in xs.indices {
                let a = fit.weight.0 * gaussian(xs[i], fit.mean.0, fit.sigma.0)
                let b = fit.weight.1 * gaussian(xs[i], fit.mean.1, fit.sigma.1)
                let sum = a + b
                r1[i] = sum > 0 ? a / sum : (abs(xs[i] - m1) < abs(xs[i] - m2) ? 1 : 0)
                logLikelihood += ws[i] * log(max(sum, .leastNormalMagnitude))
            }
            if logLikelihood - previous < 1e-10 * total { break }
            previous = logLikelihood
        }
        return fit
    }

    /// The crossing point between the two means, or nil.
    package static func crossing(_ f: Fit) -> Double? {
        var (w1, m1, s1, w2, m2, s2) = (f.weight.0, f.mean.0, f.sigma.0, f.weight.1, f.mean.1, f.sigma.1)
        if m1 > m2 {
            swap(&w1, &w2)
            swap(&m1, &m2)
            swap(&s1, &s2)
        }
        // ln w₁ − ln s₁ − (x−m₁)²/2s₁² = ln w₂ − ln s₂ − (x−m₂)²/2s₂², as a x² + b x + c = 0.
        let a = 1 / (2 * s2 * s2) - 1 / (2 * s1 * s1)
        let b = m1 / (s1 * s1) - m2 / (s2 * s2)
        let c = m2 * m2 / (2 * s2 * s2) - m1 * m1 / (2 * s1 * s1) + log(w1 * s2 / (w2 * s1))
        let roots: [Double]
        if abs(a) < 1e-12 {
            roots = b == 0 ? [] : [-c / b]
        } else {
            let disc = b * b - 4 * a * c
            guard disc >= 0 else { return nil }
            roots = [(-b - disc.squareRoot()) / (2 * a), (-b + disc.squareRoot()) / (2 * a)]
        }
        return roots.filter { $0 >= m1 && $0 <= m2 }.min()
    }
}

extension MixtureCrossingThreshold {
    /// Its registry entry (`thresholdRuleRegistry`).
    package static let entry = RegistryEntry<any ThresholdRule>(
        "mixture", summary: "where two Gaussians fitted by EM to all pair similarities cross"
    ) { _ in MixtureCrossingThreshold() }
}
