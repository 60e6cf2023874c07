import Foundation

/// results/REPORT.md: what `themelab reproduce` found, claim by claim.
public struct ReproductionReport {
    public struct ThemeSumsResult: Sendable {
        public var corpus: String
        public var source: String
        public var identicalBits: Bool
        public var maxAbsDifference: Double
        public init(corpus: String, source: String, identicalBits: Bool, maxAbsDifference: Double) {
            self.corpus = corpus
            self.source = source
            self.identicalBits = identicalBits
            self.maxAbsDifference = maxAbsDifference
        }
    }

    public var experiments: [(name: String, description: String, results: AnalysisResults)]
    public var skipped: [String]
    public var c7: ThemeSumsResult

    public init(experiments: [(String, String, AnalysisResults)], skipped: [String], c7: ThemeSumsResult) {
        self.experiments = experiments.map { (name: $0.0, description: $0.1, results: $0.2) }
        self.skipped = skipped
        self.c7 = c7
    }

    public func markdown() -> String {
        let first = experiments.first?.results.provenance
        var out = """
            # ThemeLab: does centring + Otsu find the topics people return to?

            Produced by `make reproduce` (`themelab reproduce`); never edited by hand. themelab \(Tool.version),
            OpenBLAS kernel \(first?.blas.kernel ?? "?") (\(first?.blas.kernelChosenBy ?? "?")), \(first?.blas.config ?? "").
            Each experiment's full tables (JSON with provenance and input checksums, tidy CSV, Markdown) are in
            `results/NAME/`; the run's timestamp and run time are in `results/provenance.json`.
            † marks label-informed figures, never a method: the oracle threshold maximises the pair F1 of
            "similarity ≥ t" against the labels (so a grouping's ARI can beat it), and k-means gets k = topics.

            """
        if !skipped.isEmpty { out += "\nSkipped:\n" + skipped.map { "- \($0)" }.joined(separator: "\n") + "\n" }

        out += "\n## Key figures\n\n"
        for (experiment, corpus, space) in [("seeds", "seed-12", "centred"), ("clinc150", "clinc150-test", "centred"), ("synthetic", "synthetic-app-raw", "raw"), ("synthetic", "synthetic-app-raw", "centred")] {
            guard let e = experiments.first(where: { $0.name == experiment }),
                  let a = e.results.analyses.first(where: { $0.corpus.name == corpus }) else { continue }
            out += "![\(corpus), \(space) space](\(experiment)/plots/\(SVGPlot.slug(corpus))-\(SVGPlot.slug(a.source))-\(space)-histogram.svg)\n"
        }
        if experiments.contains(where: { $0.name == "layers" }) { out += "![anisotropy by layer](layers/plots/seed-26-layers.svg)\n" }

        out += "\n## Claims\n\n"
        // The layer sweep has its own table; ci-gate repeats corpora of seeds and synthetic.
        let tabulated = experiments.filter { $0.name != "layers" && $0.name != "ci-gate" }
        let analyses = tabulated.flatMap(\.results.analyses)
        out += ClaimsReport.markdown(ClaimsReport.rows(analyses))
        out += "| C7 | summing theme sum-vectors gives exactly the sentence mean | \(c7.corpus) | \(c7.source) | unit vectors | "
            + "max |difference| \(String(format: "%.1e", c7.maxAbsDifference))\(c7.identicalBits ? ", identical bits" : "") | "
            + "\(c7.identicalBits ? "holds" : (c7.maxAbsDifference < 1e-12 ? "partly" : "does not hold")) | Float64 sums of Float32 vectors |\n"

        if let layers = experiments.first(where: { $0.name == "layers" }) {
            out += "\n## Anisotropy by layer (all-MiniLM-L6-v2, seed-26)\n\n| source | raw unrelated median | raw band (p99 − p1) | centred unrelated median | centred band | Otsu (centred) | average ARI at Otsu (centred) |\n|---|---|---|---|---|---|---|\n"
            for a in layers.results.analyses {
                let raw = a.spaces.first { $0.space == "raw" }, c = a.spaces.first { $0.space == "centred" }
                let ru = raw?.statistics["unrelated"], cu = c?.statistics["unrelated"]
                let otsu = c?.thresholds.first { $0.rule == "otsu" }?.value
                let ari = c?.groupings.first { $0.rule == "otsu" && $0.grouping == "average" }?.recovery?.ari
                out += "| \(a.source) | \(formatShort(ru?.median)) | \(formatShort(ru.map { $0.p99 - $0.p1 })) | \(formatShort(cu?.median)) | \(formatShort(cu.map { $0.p99 - $0.p1 })) | \(formatShort(otsu)) | \(formatShort(ari)) |\n"
            }
        }

        out += "\n## Threshold ablation (average-linkage ARI per rule; best label-free rule in bold)\n\n"
        let rules = standardThresholdRules.map { (try? thresholdRule(named: $0).name) ?? $0 }
        out += "| experiment | corpus | source | space | topics | related share | " + rules.map { $0 == "oracle" ? "oracle †" : $0 }.joined(separator: " | ") + " | k-means k=topics † |\n"
        out += "|---|---|---|---|---|---|" + String(repeating: "---|", count: rules.count + 1) + "\n"
        for e in tabulated {
            for a in e.results.analyses {
                for s in a.spaces {
                    let aris = rules.map { r in s.groupings.first { $0.rule == r && $0.grouping == "average" }?.recovery?.ari }
                    let best = zip(rules, aris).filter { $0.0 != "oracle" }.compactMap(\.1).max()
                    let cells = zip(rules, aris).map { r, v -> String in
                        guard let v else { return "n/a" }
                        return r != "oracle" && v == best ? "**\(formatShort(v))**" : formatShort(v)
                    }
                    let kmeans = s.groupings.first { $0.grouping == "kmeans-k" }?.recovery?.ari
                    out += "| \(e.name) | \(a.corpus.name) | \(a.source) | \(s.space) | \(a.corpus.topics.map(String.init) ?? "n/a") | "
                        + "\(a.corpus.relatedPairShare.map { String(format: "%.2f%%", 100 * $0) } ?? "n/a") | " + cells.joined(separator: " | ") + " | \(formatShort(kmeans)) |\n"
                }
            }
        }

        if let clinc = experiments.first(where: { $0.name == "clinc150" }) {
            out += "\n## As topics multiply (CLINC150, centred space): regret = oracle ARI − rule ARI, average linkage\n\n"
            out += "| corpus | topics | related share | " + rules.filter { $0 != "oracle" }.joined(separator: " | ") + " |\n|---|---|---|" + String(repeating: "---|", count: rules.count - 1) + "\n"
            for a in clinc.results.analyses {
                guard let s = a.spaces.first(where: { $0.space == "centred" }) else { continue }
                let oracle = s.groupings.first { $0.rule == "oracle" && $0.grouping == "average" }?.recovery?.ari
                let cells = rules.filter { $0 != "oracle" }.map { r -> String in
                    guard let o = oracle, let v = s.groupings.first(where: { $0.rule == r && $0.grouping == "average" })?.recovery?.ari else { return "n/a" }
                    return formatShort(o - v)
                }
                out += "| \(a.corpus.name) | \(a.corpus.topics ?? 0) | \(String(format: "%.2f%%", 100 * (a.corpus.relatedPairShare ?? 0))) | " + cells.joined(separator: " | ") + " |\n"
            }
        }

        out += "\n## Experiments\n\n"
        for e in experiments {
            out += "- [`\(e.name)`](\(e.name)/\(e.name).md): \(e.description) Inputs: "
                + e.results.provenance.inputs.sorted { $0.key < $1.key }.map { "`\(URL(fileURLWithPath: $0.key).lastPathComponent)` \($0.value.prefix(12))" }.joined(separator: ", ")
                + (e.results.provenance.model.map { "; model \($0.prefix(12))" } ?? "") + ".\n"
        }
        return out
    }

}
