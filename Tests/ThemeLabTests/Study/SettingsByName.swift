import Foundation
import ThemeLabCore
import ThemeLabMethods
import ThemeLabStudy

extension AnalysisSettings {
    /// Defaults with these spaces, rules and groupings (nil: the default ones), read by their registries.
    static func named(spaces: [String]? = nil, thresholds: [String]? = nil, groupings: [String]? = nil) throws -> AnalysisSettings {
        var settings = AnalysisSettings()
        if let spaces { settings.spaces = try spaces.map(EmbeddingSpace.init(name:)) }
        if let thresholds { settings.rules = try thresholds.map(thresholdRule(named:)) }
        if let groupings { settings.groupings = try groupings.map(grouping(named:)) }
        return settings
    }
}
