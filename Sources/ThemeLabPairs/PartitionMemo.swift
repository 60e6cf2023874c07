import Synchronization

/// Partitions that a space's readers compute from its pass's products, kept for the space's other readers: several
/// groupings ask for the same one (Leiden at one graph, resolution and seed serves `leiden(k,γ)`, every Leiden ceiling
/// at that k and `leiden-CRITERION`), and each is computed once. The partition is a deterministic function of its key,
/// so what a reader gets does not depend on who asked first.
package final class PartitionMemo<Key: Hashable & Sendable>: Sendable {
    private let kept = Mutex<[Key: [Int32]]>([:])

    package init() {}

    /// The partition kept under `key`, or `make()`'s, kept.
    package func partition(_ key: Key, orMake make: () throws -> [Int32]) rethrows -> [Int32] {
        if let known = kept.withLock({ $0[key] }) { return known }
        let made = try make()
        kept.withLock { $0[key] = made }
        return made
    }

    /// Partitions kept.
    package var count: Int { kept.withLock { $0.count } }
}

/// Values other than partitions that a space's readers compute from its pass's vectors, kept for its other readers under
/// a key that names how each was computed (`SpectralKEstimator`'s k serves both groupings it guides). Each value is a
/// deterministic function of its key and the vectors, as a partition of `PartitionMemo` is, so passes over the same
/// vectors may share one memo. A key is computed once: a reader that asks while another computes it waits for that value.
/// So a value's `make` must not read this memo, itself or through threads it waits for.
package final class ValueMemo: Sendable {
    private let slots = Mutex<[String: Slot]>([:])

    /// One key's value, computed under its own lock.
    private final class Slot: Sendable {
        let value = Mutex<(any Sendable)?>(nil)
    }

    package init() {}

    /// The value of type `V` kept under `key`, or `make()`'s, kept.
    package func value<V: Sendable>(_ key: String, orMake make: () throws -> V) throws -> V {
        let key = "\(V.self): \(key)"
        let slot = slots.withLock { slots in
            if let known = slots[key] { return known }
            let made = Slot()
            slots[key] = made
            return made
        }
        return try slot.value.withLock { held throws -> V in
            if let held, let known = held as? V { return known }
            let made = try make()
            held = made
            return made
        }
    }
}
