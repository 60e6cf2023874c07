import Foundation
import ThemeLabCore
import ThemeLabMethods
import ThemeLabStudy

extension AnalysisSettings {
    /// Defaults with these spaces, rules and groupings (nil: the default ones), read as a command line's names are.
    static func named(spaces: [String]? = nil, thresholds: [String]? = nil, groupings: [String]? = nil) throws -> AnalysisSettings {
        var settings = AnalysisSettings()
        let source = ParameterSource.commandLine
        if let spaces { settings.spaces = try source.values(spaces, "spaces", EmbeddingSpace.init(name:)) }
        if let thresholds { settings.rules = try source.values(thresholds, "thresholds", thresholdRule(named:)) }
        if let groupings { settings.groupings = try source.values(groupings, "groupings", grouping(named:)) }
        return settings
    }
}
