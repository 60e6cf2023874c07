import ThemeLabCore
import ThemeLabMethods

/// The bound on an assignments file (one row per item and cell), checked from the grid's shape before any work.
package enum AssignmentRows {
    /// The most rows one file (one corpus × vector source) may hold.
    package static let maximum = 20_000_000

    /// The cells of one space whose members a file lists, at most: each threshold grouping at each rule that applies
    /// (label-informed rules need labels), each grouping that cuts itself and, with labels, each k = topics reference.
    package static func cellsPerSpace(_ settings: AnalysisSettings, labelled: Bool) -> Int {
        let rules = settings.rules.filter { labelled || !$0.isLabelInformed }.count
        return settings.groupings.reduce(0) { cells, g in
            switch g.kind {
            case .threshold: cells + rules
            case .cutsItself: cells + 1
            case .labelInformedReference: cells + (labelled ? 1 : 0)
            }
        }
    }

    /// Refuses, naming the corpus and the factors, a grid whose assignments of `corpus` would pass `maximum` rows.
    package static func check(_ settings: AnalysisSettings, items: Int, labelled: Bool, corpus: String, source: ParameterSource) throws {
        let (spaces, cells) = (settings.spaces.count, cellsPerSpace(settings, labelled: labelled))
        let (rows, overflow) = items.multipliedReportingOverflow(by: spaces * cells)
        guard overflow || rows > maximum else { return }
        throw source.error(
            "assignments",
            "of '\(corpus)' would hold \(items) items × \(spaces) spaces × \(cells) cells a space (each rule × grouping) = "
                + "\(overflow ? "more than \(Int.max)" : String(rows)) rows, more than \(maximum); ask for fewer items, spaces, "
                + "rules or groupings")
    }
}
