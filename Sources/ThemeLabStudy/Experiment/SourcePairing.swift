import ThemeLabCore

/// Which vector source of the results `themelab check` compares with which of the baseline's. A source both hold is
/// compared with itself. When the results hold exactly one source the baseline lacks and the baseline exactly one the
/// results lack (an encoder or a layer changed), those two are compared; `given` pairs say it when more are left over.
/// A paired row's key leaves its source out (one pair) or names the pair (several), so the rows of the two sources meet.
package struct SourcePairing: Sendable, Equatable {
    /// Results source → the baseline source its rows are compared with, for pairs of two different sources.
    package private(set) var pairs: [String: String] = [:]
    /// Sources left without a partner, for a hint: (results', baseline's).
    package private(set) var unpaired: (results: [String], baseline: [String]) = ([], [])

    package static func == (a: Self, b: Self) -> Bool {
        a.pairs == b.pairs && a.unpaired.results == b.unpaired.results && a.unpaired.baseline == b.unpaired.baseline
    }

    /// `given` (results source, baseline source) pairs, or nil to pair what is left over when it is one of each.
    package init(results: [CorpusAnalysis], baseline: [CorpusAnalysis], given: [(results: String, baseline: String)]?) throws {
        let (now, before) = (results.map(\.source).distinctInOrder(), baseline.map(\.source).distinctInOrder())
        if let given {
            for (new, old) in given {
                guard now.contains(new) else { throw Self.unknown(new, "results", now) }
                guard before.contains(old) else { throw Self.unknown(old, "baseline", before) }
                guard pairs[new] == nil, !pairs.values.contains(old) else {
                    throw ThemeLabError.usage("--sources: '\(new)=\(old)' pairs a source a second time; pair each at most once")
                }
                pairs[new] = old
            }
        }
        let left = (
            now.filter { !before.contains($0) && pairs[$0] == nil }, before.filter { !now.contains($0) && !pairs.values.contains($0) }
        )
        if given == nil, left.0.count == 1, left.1.count == 1 {
            pairs[left.0[0]] = left.1[0]
        } else {
            unpaired = left
        }
    }

    private static func unknown(_ source: String, _ side: String, _ sources: [String]) -> ThemeLabError {
        .usage("--sources: the \(side) hold no source '\(source)' (they hold \(sources.map { "'\($0)'" }.joined(separator: ", ")))")
    }

    /// The key part of a results row from `source`.
    package func resultsKey(_ source: String) -> String? {
        guard let old = pairs[source] else { return source }
        return pairs.count == 1 ? nil : Self.describe(source, against: old)
    }

    /// The key part of a baseline row from `source`.
    package func baselineKey(_ source: String) -> String? {
        guard let new = pairs.first(where: { $0.value == source })?.key else { return source }
        return pairs.count == 1 ? nil : Self.describe(new, against: source)
    }

    /// A row key as written with the baseline's source (an `ungated` entry) in the form this pairing gives it.
    package func translated(_ key: String) -> String {
        for old in pairs.values where key.contains(" | \(old) | ") {
            return key.replacingOccurrences(of: " | \(old) | ", with: baselineKey(old).map { " | \($0) | " } ?? " | ")
        }
        return key
    }

    /// One line per pair, "compared layer 4 against layer 6 (all-MiniLM-L6-v2 (53aa5117))", then a hint when sources are
    /// left without a partner.
    package var lines: [String] {
        var out = pairs.sorted { $0.key < $1.key }.map { "compared \(Self.describe($0.key, against: $0.value))" }
        if !unpaired.results.isEmpty && !unpaired.baseline.isEmpty {
            let quoted = { (list: [String]) in list.map { "'\($0)'" }.joined(separator: ", ") }
            out.append(
                "the results' sources \(quoted(unpaired.results)) are not the baseline's \(quoted(unpaired.baseline)): "
                    + "--sources 'NEW=OLD;…' says which to compare")
        }
        return out
    }

    /// "layer 4 against layer 6 (ENCODER)" for two layers of one encoder, else "NEW against OLD".
    static func describe(_ new: String, against old: String) -> String {
        let encoder = VectorSource.encoder(inDescription: new)
        guard let a = VectorSource.layer(inDescription: new), let b = VectorSource.layer(inDescription: old),
            encoder == VectorSource.encoder(inDescription: old)
        else { return "\(new) against \(old)" }
        return "layer \(a) against layer \(b) (\(encoder))"
    }

    /// `--sources NEW=OLD;…` read into pairs: each split at its first "=".
    package static func parse(_ text: String) throws -> [(results: String, baseline: String)] {
        try text.split(separator: ";").map { pair in
            guard let eq = pair.firstIndex(of: "="), eq != pair.startIndex, pair.index(after: eq) != pair.endIndex else {
                throw ThemeLabError.usage("--sources takes RESULTS_SOURCE=BASELINE_SOURCE pairs separated by ';', got '\(pair)'")
            }
            return (String(pair[..<eq]), String(pair[pair.index(after: eq)...]))
        }
    }
}
