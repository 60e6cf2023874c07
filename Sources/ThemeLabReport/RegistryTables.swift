import ThemeLabCore
import ThemeLabCorpus
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
            + corpora()
    }

    /// One registry as a table: its names, how each is written, what each is.
    static func table<Value>(_ title: String, _ registry: Registry<Value>) -> String {
        let rows = registry.entries.map { e in "| `\(e.name)` | \(e.forms.map { "`\($0)`" }.joined(separator: ", ")) | \(e.summary) |" }
        return "\(title):\n\n| name | written | what it is |\n|---|---|---|\n" + rows.joined(separator: "\n") + "\n\n"
    }

    /// The corpora the registry knows (`--corpus NAME`, experiment files), with their licences.
    static func corpora() -> String {
        let rows = DatasetRegistry.entries.map { "| `\($0.name)` | \($0.description) | \($0.licence) |" }
        return "Corpora (`--corpus NAME`):\n\n| name | what it is | licence |\n|---|---|---|\n" + rows.joined(separator: "\n") + "\n"
    }
}
