// A seedable random number generator for the generators in the tests.
//
// Swift's SystemRandomNumberGenerator cannot be seeded; every generated test here
// must be reproducible from a seed printed on failure.

/// SplitMix64 (Steele, Lea, Flood 2014): a small, fast, seedable generator.
public struct SplitMix64: RandomNumberGenerator, Sendable {
    private var state: UInt64

    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

extension SplitMix64 {
    /// A uniformly chosen integer in `range`.
    public mutating func int(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &self) }

    /// True with the given probability, in percent.
    public mutating func chance(_ percent: Int) -> Bool { int(1...100) <= percent }

    /// A uniformly chosen element of a non-empty array.
    public mutating func pick<T>(_ items: [T]) -> T { items[int(0...(items.count - 1))] }
}
