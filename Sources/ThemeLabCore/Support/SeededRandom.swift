/// A small, fast, seedable generator (SplitMix64, Steele et al. 2014) so that the same seed gives
/// the same numbers on every platform and Swift version (the standard library's is unseedable).
package struct SeededRandom: RandomNumberGenerator, Sendable {
    @usableFromInline var state: UInt64

    @inlinable package init(seed: UInt64) { state = seed }

    /// Inlinable, as the other stages draw from it in their inner loops.
    @inlinable package mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// Uniform in [0, 1) with 53 random bits.
    @inlinable package mutating func uniform() -> Double { Double(next() >> 11) * 0x1p-53 }

    /// A seeded random permutation of 0..<count (Fisher–Yates).
    package static func permutation(count: Int, seed: UInt64) -> [Int] {
        var rng = SeededRandom(seed: seed)
        var order = Array(0..<count)
        for i in stride(from: count - 1, to: 0, by: -1) {
            order.swapAt(i, Int(rng.next() % UInt64(i + 1)))
        }
        return order
    }

    /// `count` of the indices 0..<n, the first of a seeded permutation (`permutation`), in increasing order.
    package static func sample(_ count: Int, of n: Int, seed: UInt64) -> [Int] {
        permutation(count: n, seed: seed).prefix(count).sorted()
    }

    /// Standard normal by Box–Muller (one value per call; deterministic).
    package mutating func gaussian() -> Double {
        let u1 = 1 - uniform()
        let u2 = uniform()
        return (-2 * log(u1)).squareRoot() * cos(2 * .pi * u2)
    }
}

#if canImport(Glibc)
    import Glibc
#endif
