import Foundation

/// How a sentence's token vectors become one vector: the modes of sentence-transformers' `Pooling` module
/// (`1_Pooling/config.json`, keys `pooling_mode_…`). With several modes on, their vectors are concatenated in
/// sentence-transformers' order (CLS, max, mean, mean-sqrt-len, weighted mean, last token), so the sentence vector
/// has hidden × modes dimensions. Tokens are a sentence's own (no padding: the harness packs sentences unpadded).
enum PoolingMode: String, CaseIterable, Sendable {
    /// The first token's vector ([CLS]).
    case cls = "pooling_mode_cls_token"
    /// The largest value of each dimension over the tokens.
    case max = "pooling_mode_max_tokens"
    /// The mean over the tokens.
    case mean = "pooling_mode_mean_tokens"
    /// The sum over the tokens divided by √(token count).
    case meanSqrtLength = "pooling_mode_mean_sqrt_len_tokens"
    /// The mean weighted by position 1, 2, …, n: Σ p·x_p / Σ p.
    case weightedMean = "pooling_mode_weightedmean_tokens"
    /// The last token's vector.
    case lastToken = "pooling_mode_lasttoken"

    /// The modes a `1_Pooling/config.json` turns on, in concatenation order; an error naming the file and the key for a
    /// `pooling_mode_…` key it does not know that is on, or when none is on.
    static func modes(_ config: [String: Any], file: String) throws -> [PoolingMode] {
        for (key, value) in config where key.hasPrefix("pooling_mode_") && PoolingMode(rawValue: key) == nil && (value as? Bool) == true {
            throw ThemeLabError.input(
                "\(file): pooling mode '\(key)' is not supported (expected \(allCases.map(\.rawValue).joined(separator: ", ")))")
        }
        let on = allCases.filter { (config[$0.rawValue] as? Bool) == true }
        guard !on.isEmpty else { throw ThemeLabError.input("\(file): no pooling mode is on (one of the pooling_mode_… keys must be true)") }
        return on
    }

    /// The pooled vector of `count` token vectors of `hidden` values each, stored row after row from `tokens`.
    func pool(_ tokens: UnsafePointer<Float>, count n: Int, hidden h: Int, into out: UnsafeMutablePointer<Float>) {
        precondition(n >= 1, "a sentence has at least one token")
        func row(_ p: Int) -> UnsafePointer<Float> { tokens + p * h }
        switch self {
        case .cls: out.update(from: row(0), count: h)
        case .lastToken: out.update(from: row(n - 1), count: h)
        case .max:
            out.update(from: row(0), count: h)
            for p in 1..<n { for k in 0..<h { out[k] = Swift.max(out[k], row(p)[k]) } }
        case .mean, .meanSqrtLength, .weightedMean:
            out.update(repeating: 0, count: h)
            var total: Float = 0
            for p in 0..<n {
                let w: Float = self == .weightedMean ? Float(p + 1) : 1
                for k in 0..<h { out[k] += w * row(p)[k] }
                total += w
            }
            let scale = self == .meanSqrtLength ? 1 / Float(n).squareRoot() : 1 / total
            for k in 0..<h { out[k] *= scale }
        }
    }
}
