import ThemeLabCore
import ThemeLabCorpus
import ThemeLabEncoder
import ThemeLabMethods
import ThemeLabStudy

/// The name tables of docs/method.md, made from the registries, so a space, rule, grouping or corpus added to its
/// registry is documented or a test fails (`RegistryTests`); a parameter's range is in its summary.
package enum RegistryTables {
    /// The tables, between the page's markers.
    package static func markdown() -> String {
        table("Spaces (`--space`)", EmbeddingSpace.registry) + table("Threshold rules (`--thresholds`)", thresholdRuleRegistry)
            + table("Groupings (`--groupings`)", groupingRegistry)
            + table("Regrouping policies (`policies` of a replay)", regroupPolicyRegistry)
            + corpora() + architectures()
    }

    /// One registry as a table: its names, how each is written, what each is.
    static func table<Value>(_ title: String, _ registry: Registry<Value>) -> String {
        let rows = registry.entries.map { e in "| `\(e.name)` | \(e.forms.map { "`\($0)`" }.joined(separator: ", ")) | \(e.summary) |" }
        return "\(title):\n\n| name | written | what it is |\n|---|---|---|\n" + rows.joined(separator: "\n") + "\n\n"
    }

    /// The corpora the registry knows (`--corpus NAME`, experiment files), with the options each takes and their licences.
    package static func corpora() -> String {
        let rows = ([DatasetRegistry.file] + DatasetRegistry.entries).map { e in
            "| `\(e.name)` | \(e.about.description) | \(options(e)) | \(e.about.licence) |"
        }
        return "Corpora (`--corpus NAME`, or a path for `file`):\n\n| name | what it is | options (experiment file fields) | licence |\n"
            + "|---|---|---|---|\n" + rows.joined(separator: "\n") + "\n\n"
    }

    /// An entry's options as `field` (values), in the order experiment files list them.
    static func options(_ e: DatasetRegistry.Entry) -> String {
        let listed = CorpusSpec.CodingKeys.allCases.compactMap { key -> String? in
            switch e.options[key] {
            case nil: nil
            case .oneOf(let words)?: "`\(key.stringValue)` (\(words.joined(separator: ", ")))"
            case .count(let r)?: "`\(key.stringValue)` (\(r.lowerBound)…\(r.upperBound))"
            case .columnName?: "`\(key.stringValue)` (a column name)"
            default: "`\(key.stringValue)`"
            }
        }
        return listed.isEmpty ? "none" : listed.joined(separator: ", ")
    }

    /// The encoder architectures a model folder's config.json may name (`model_type`).
    static func architectures() -> String {
        let rows = Architectures.all.map { a in "| \(a.modelTypes.map { "`\($0)`" }.joined(separator: ", ")) | \(a.summary) |" }
        return "Encoder architectures (a model folder's `model_type`):\n\n| model_type | what it is |\n|---|---|\n"
            + rows.joined(separator: "\n") + "\n"
    }
}
