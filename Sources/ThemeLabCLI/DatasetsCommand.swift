import Foundation
import ThemeLabCore
import ThemeLabCorpus
import ThemeLabEncoder
import ThemeLabMeasures
import ThemeLabMethods
import ThemeLabPairs
import ThemeLabReport
import ThemeLabStudy

let datasetsCommand = Command(
    summary: "list the corpora with their sources, licences and shapes",
    help: """
        usage: themelab datasets list [--data-dir DIR] [--json]

        Every corpus with its source, licence, items, topics, related-pair share and whether it
        is present here. CLINC150 is carried in Datasets/clinc150/; --data-dir DIR reads it from
        DIR/clinc150/ instead (checked against the same SHA-256).
        """,
    options: ["data-dir"],
    switches: ["json"],
    positionals: 1...1,
    subcommands: ["list"]
) { args, io in
    switch args.positional.first {
    case "list":
        let rows = DatasetCatalogue.rows(dataDirectory: args["data-dir"])
        if args.flag("json") {
            io.print(try JSONOutput.string(rows), terminator: "")
        } else {
            io.print(DatasetCatalogue.markdown(rows), terminator: "")
        }
    default:
        throw ThemeLabError.usage("expected 'datasets list'")
    }
}
