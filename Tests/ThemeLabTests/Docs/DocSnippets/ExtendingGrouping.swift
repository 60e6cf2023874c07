import ThemeLabCore
import ThemeLabMethods
import ThemeLabPairs

// The Swift snippet of docs/extending.md, compiled with the tests (DocExamplesTests checks that the page shows this
// file's text between the markers, and that the grouping gives single linkage's groups).

// snippet: begin
/// Connected components of "similarity ≥ t" (single linkage), read off the pass's spanning forest.
struct ThresholdComponents: Grouping {
    var name: String { "threshold-components" }
    func needs(items: Int) -> PassNeeds { PassNeeds(spanningForest: true) }

    func groups(_ request: GroupingRequest, in pass: PassProducts) throws -> GroupingCut {
        GroupingCut(labels: try pass.spanningForest().labels(atLeast: try request.threshold()))
    }
}

extension ThresholdComponents {
    /// Its registry entry; one more line, `ThresholdComponents.entry`, in `groupingRegistry` lists it.
    static let entry = RegistryEntry<any Grouping>(
        "threshold-components", summary: "connected components of similarity ≥ t"
    ) { _ in ThresholdComponents() }
}
// snippet: end
