import ThemeLabCore
import ThemeLabMeasures
import ThemeLabPairs

extension PassNeeds {
    /// Everything `rules` and `groupings` need on `items` items.
    package static func of(rules: [ThresholdRule] = [], groupings: [Grouping] = [], items: Int) -> PassNeeds {
        (rules.map { $0.passNeeds(items: items) } + groupings.map { $0.needs(items: items).restricted(toItems: items) }).reduce(PassNeeds())
        {
            $0.union($1)
        }
    }
}
