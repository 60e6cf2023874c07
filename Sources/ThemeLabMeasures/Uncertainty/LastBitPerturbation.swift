import ThemeLabCore
import ThemeLabPairs

/// Every component of a corpus's vectors moved by one unit in the last place, up or down by a seeded coin.
///
/// That is the size of the change another BLAS kernel's rounding makes to an encoder's output. A verdict that changes
/// under it rests on rounding, not on the data, even though the canonical arithmetic pins its bytes: `Fragility`
/// re-runs experiments with it and names every verdict that flips. Zero moves to the smallest subnormal of either
/// sign; infinities and NaN are left as they are (the analysis refuses them anyway).
package struct LastBitPerturbation: Sendable, Equatable {
    package var seed: UInt64

    package init(seed: UInt64) { self.seed = seed }

    package func apply(to m: Matrix) -> Matrix {
        var rng = SeededRandom(seed: seed)
        var out = m
        for k in out.storage.indices where out.storage[k].isFinite {
            out.storage[k] = rng.next() & 1 == 0 ? out.storage[k].nextDown : out.storage[k].nextUp
        }
        return out
    }
}
