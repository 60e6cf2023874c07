/// A binary min-heap (Williams 1964): `push` and `pop` in O(log n); the smallest element by `<` comes out first.
package struct MinHeap<Element: Comparable> {
    private var items: [Element] = []

    package init() {}

    package var isEmpty: Bool { items.isEmpty }

    package mutating func push(_ e: Element) {
        items.append(e)
        var i = items.count - 1
        while i > 0, items[i] < items[(i - 1) / 2] {
            items.swapAt(i, (i - 1) / 2)
            i = (i - 1) / 2
        }
    }

    package mutating func pop() -> Element? {
        guard !items.isEmpty else { return nil }
        items.swapAt(0, items.count - 1)
        let top = items.removeLast()
        var i = 0
        while true {
            let (l, r) = (2 * i + 1, 2 * i + 2)
            var smallest = i
            if l < items.count, items[l] < items[smallest] { smallest = l }
            if r < items.count, items[r] < items[smallest] { smallest = r }
            guard smallest != i else { return top }
            items.swapAt(i, smallest)
            i = smallest
        }
    }
}
