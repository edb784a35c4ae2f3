// The scalar values a scan of every Unicode character has to visit.
//
// The tables PostgreSQL's folded tests are built from (`FoldInverse`, and
// `PostgreSQLPattern.unsettledCompositionClass`) are made by asking Swift's
// Unicode data about every scalar; most of the code space holds nothing, and
// asking about it was most of a `[c]` query's time in a one-shot `pq` (about
// 0.2 s of 0.21 s in a release build).

/// The ranges of scalar values that hold, or may come to hold, characters a fold can change.
enum AssignableScalars {
    /// Planes 0 to 3 and plane 14. Planes 4 to 13 hold no character in the Unicode
    /// data Swift ships (`AssignableScalarsTests` checks every scalar there, so a
    /// Swift with newer data that assigns one fails it), and planes 15 and 16 are
    /// private use, which Unicode's stability policy keeps them.
    static let ranges: [ClosedRange<UInt32>] = [0...0x3_FFFF, 0xE_0000...0xE_FFFF]

    /// The scalar values of `ranges`, in order.
    static var values: some Sequence<UInt32> { ranges.joined() }
}
