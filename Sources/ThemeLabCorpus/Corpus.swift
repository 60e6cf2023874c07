import ThemeLabCore

/// One labeled item: a sentence (or just an id when embeddings come from a file) and its topic.
package struct CorpusItem: Sendable, Equatable {
    package var id: String
    package var text: String?
    /// The topic; nil in an unlabeled corpus.
    package var label: String?
    /// A coarser topic (for example CLINC150's domain above its intent).
    package var group2: String?
    package var order: Int?

    package init(id: String, text: String? = nil, label: String? = nil, group2: String? = nil, order: Int? = nil) {
        self.id = id
        self.text = text
        self.label = label
        self.group2 = group2
        self.order = order
    }
}

/// A named list of items in corpus order. Either every item carries a label or none does.
package struct Corpus: Sendable, Equatable {
    package var name: String
    package var items: [CorpusItem]
    /// What reading it noticed and the analysis repeats (ids numbered by line).
    package var notes: [String] = []

    package init(name: String, items: [CorpusItem], notes: [String] = []) {
        self.name = name
        self.items = items
        self.notes = notes
    }

    package var count: Int { items.count }
    package var isLabeled: Bool { !items.isEmpty && items.allSatisfy { $0.label != nil } }

    /// Items per topic, in order of first appearance (empty when unlabeled).
    package var topicSizes: [Int] {
        guard let labels = labelIndices() else { return [] }
        var sizes = [Int](repeating: 0, count: Int(labels.max()!) + 1)
        for l in labels { sizes[Int(l)] += 1 }
        return sizes
    }

    /// Same-topic pairs over all pairs, or nil when unlabeled or with fewer than two items.
    package var relatedPairShare: Double? {
        guard isLabeled, count >= 2 else { return nil }
        return Double(topicSizes.reduce(0) { $0 + $1 * ($1 - 1) / 2 }) / Double(count * (count - 1) / 2)
    }

    /// Labels as dense integers 0..<k in order of first appearance, or nil when unlabeled. Two
    /// labels are one topic when their code points are equal (as in Python and scikit-learn), not
    /// merely canonically equivalent as Swift's `String ==` has it ("é" and "e\u{301}" differ).
    package func labelIndices() -> [Int32]? {
        guard isLabeled else { return nil }
        var index: [[UInt32]: Int32] = [:]
        return items.map { item in
            let key = item.label!.unicodeScalars.map(\.value)
            if let i = index[key] { return i }
            let i = Int32(index.count)
            index[key] = i
            return i
        }
    }
}
