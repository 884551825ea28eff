// MARK: - SeededRandom

/// A small, fast random number generator (SplitMix64) that repeats for a given seed, so a
/// crash test or fuzz run can be replayed exactly from the seed it prints.
public struct SeededRandom: RandomNumberGenerator, Sendable {
    private var state: UInt64

    /// Creates a generator; the same seed gives the same numbers.
    public init(seed: UInt64) {
        state = seed
    }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number in `0..<bound` (0 when `bound` is not positive).
    public mutating func below(_ bound: Int) -> Int {
        bound > 0 ? Int.random(in: 0..<bound, using: &self) : 0
    }

    /// True with probability `1 / odds`.
    public mutating func oneIn(_ odds: Int) -> Bool {
        below(odds) == 0
    }
}
