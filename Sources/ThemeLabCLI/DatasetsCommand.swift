import Foundation
import ThemeLabCore
import ThemeLabCorpus
import ThemeLabEncoder
import ThemeLabMeasures
import ThemeLabMethods
import ThemeLabPairs
import ThemeLabReport
import ThemeLabStudy

struct DatasetsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        name: "datasets", abstract: "List the corpora with their sources, licences and shapes.", subcommands: [DatasetsListCommand.self])
}

struct DatasetsListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        name: "list", abstract: "Every corpus with its source, licence, items, topics, related-pair share and whether it is here.",
        discussion: """
            CLINC150 is carried in Datasets/clinc150/; --data-dir DIR reads it from DIR/clinc150/ instead (checked against
            the same SHA-256).
            """)

    var dataDirectory: String?
    var json = false

    static var arguments: [Argument<Self>] {
        [
            .dataDirectory(\.dataDirectory),
            .flag("--json", \.json, help: "Print JSON instead of a table."),
        ]
    }

    func run(_ io: Invocation) throws {
        let rows = DatasetCatalogue.rows(dataDirectory: dataDirectory)
        io.print(json ? try JSONOutput.string(rows) : DatasetCatalogue.markdown(rows), terminator: "")
    }
}
