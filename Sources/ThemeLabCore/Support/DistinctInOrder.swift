extension Sequence where Element: Equatable {
    /// The distinct elements in order of first appearance.
    package func distinctInOrder() -> [Element] {
        var seen: [Element] = []
        for e in self where !seen.contains(e) { seen.append(e) }
        return seen
    }
}
