import Foundation
import ThemeLabCore

/// How a sentence's token vectors become one vector: the modes of sentence-transformers' `Pooling` module
/// (`1_Pooling/config.json`). With several modes on, their vectors are concatenated in the order of the
/// `pooling_mode_…` keys (CLS, max, mean, mean-sqrt-len, weighted mean, last token) or of the `pooling_mode` list, so
/// the sentence vector has hidden × modes dimensions. Tokens are a sentence's own (no padding: the harness packs sentences unpadded).
package enum PoolingMode: String, CaseIterable, Sendable {
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

    /// The name sentence-transformers 6 writes in `pooling_mode` ("cls", "mean", "mean_sqrt_len_tokens", …).
    package var name: String {
        switch self {
        case .cls: "cls"
        case .max: "max"
        case .mean: "mean"
        case .meanSqrtLength: "mean_sqrt_len_tokens"
        case .weightedMean: "weightedmean"
        case .lastToken: "lasttoken"
        }
    }

    /// The longest `pooling_mode` list read: each of the six modes once (sentence-transformers concatenates what it
    /// lists, so a longer list only repeats coordinates). Checked before a mode is read from the list.
    package static let maxModes = allCases.count

    /// The modes a `1_Pooling/config.json` turns on, in concatenation order, in either format: `pooling_mode` (a name
    /// or a list of names, sentence-transformers 6) or the `pooling_mode_…` booleans (earlier versions, the hub's
    /// models). An error names the file and the key for a mode it does not know, for none on, and for
    /// `include_prompt: false` (pooling that leaves the prompt's tokens out, which the encoder does not do).
    package static func modes(_ config: [String: Any], file: String) throws -> [PoolingMode] {
        if (config["include_prompt"] as? Bool) == false {
            throw ThemeLabError.input("\(file): include_prompt false (pooling without the prompt's tokens) is not supported")
        }
        if let given = config["pooling_mode"] {
            if let list = given as? [Any], list.count > maxModes {
                throw ThemeLabError.input("\(file): 'pooling_mode' lists \(list.count) modes; at most \(maxModes) (there are six)")
            }
            let names = (given as? [String]) ?? (given as? String).map { [$0] } ?? []
            let modes = try names.map { n in
                guard let mode = allCases.first(where: { $0.name == n }) else {
                    throw ThemeLabError.input(
                        "\(file): pooling_mode '\(n)' is not supported (expected \(allCases.map(\.name).joined(separator: ", ")))")
                }
                return mode
            }
            guard !modes.isEmpty else { throw ThemeLabError.input("\(file): 'pooling_mode' must be a mode name or a list of them") }
            return modes  // sentence-transformers 6 concatenates them in the order listed
        }
        for (key, value) in config where key.hasPrefix("pooling_mode_") && PoolingMode(rawValue: key) == nil && (value as? Bool) == true {
            throw ThemeLabError.input(
                "\(file): pooling mode '\(key)' is not supported (expected \(allCases.map(\.rawValue).joined(separator: ", ")))")
        }
        let on = allCases.filter { (config[$0.rawValue] as? Bool) == true }
        guard !on.isEmpty else { throw ThemeLabError.input("\(file): no pooling mode is on (one of the pooling_mode_… keys must be true)") }
        return on
    }

    /// The pooled vector of `count` token vectors of `hidden` values each, stored row after row from `tokens`.
    package func pool(_ tokens: UnsafePointer<Float>, count n: Int, hidden h: Int, into out: UnsafeMutablePointer<Float>) {
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
