/// One labeled item: a sentence (or just an id when embeddings come from a file) and its topic.
public struct CorpusItem: Sendable, Equatable {
    public var id: String
    public var text: String?
    /// The topic; nil in an unlabeled corpus.
    public var label: String?
    /// A coarser topic (for example CLINC150's domain above its intent).
    public var group2: String?
    public var order: Int?

    public init(id: String, text: String? = nil, label: String? = nil, group2: String? = nil, order: Int? = nil) {
        self.id = id
        self.text = text
        self.label = label
        self.group2 = group2
        self.order = order
    }
}

/// A named list of items in corpus order. Either every item carries a label or none does.
public struct Corpus: Sendable, Equatable {
    public var name: String
    public var items: [CorpusItem]

    public init(name: String, items: [CorpusItem]) {
        self.name = name
        self.items = items
    }

    public var count: Int { items.count }
    public var isLabeled: Bool { !items.isEmpty && items.allSatisfy { $0.label != nil } }

    /// Labels as dense integers 0..<k in order of first appearance, or nil when unlabeled.
    public func labelIndices() -> [Int32]? {
        guard isLabeled else { return nil }
        var index: [String: Int32] = [:]
        return items.map { item in
            if let i = index[item.label!] { return i }
            let i = Int32(index.count)
            index[item.label!] = i
            return i
        }
    }
}
