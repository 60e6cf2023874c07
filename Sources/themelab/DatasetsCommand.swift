import Foundation
import ThemeLab

let datasetsCommand = Command(
    summary: "list the corpora, or fetch one (datasets list | datasets fetch clinc150)",
    help: """
        usage: themelab datasets list [--data-dir DIR] [--json]
               themelab datasets fetch clinc150 [--data-dir DIR] [--url BASE]

        list: every corpus with its source, licence, items, topics, related-pair share and
        whether it is present here.
        fetch: downloads CLINC150's data_full.json and domains.json (default from
        https://raw.githubusercontent.com/clinc/oos-eval/828f809/data) into DIR/clinc150 and
        verifies their SHA-256; on a mismatch nothing is left behind. The only command that
        uses the network.
        """,
    options: ["data-dir", "url"],
    switches: ["json"]
) { args in
    switch args.positional.first {
    case "list":
        let rows = DatasetCatalogue.rows(dataDirectory: args.values["data-dir"])
        if args.flags.contains("json") { print(try JSONOutput.string(rows), terminator: "") } else { print(DatasetCatalogue.markdown(rows), terminator: "") }
    case "fetch":
        guard args.positional.dropFirst().first == "clinc150" else { throw ThemeLabError.usage("only clinc150 can be fetched") }
        guard let dir = DatasetRegistry.dataDirectory(args.values["data-dir"]) else {
            throw ThemeLabError.usage("give --data-dir DIR or set THEMELAB_DATA")
        }
        let base = args.values["url"] ?? "https://raw.githubusercontent.com/clinc/oos-eval/\(CLINC150.sourceCommit)/data"
        try DatasetFetch.clinc150(base: base, folder: "\(dir)/clinc150", log: note)
    default:
        throw ThemeLabError.usage("expected 'datasets list' or 'datasets fetch clinc150'")
    }
}
