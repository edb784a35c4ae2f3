// The explicit limits every entry point enforces.
//
// A query language that accepts text from users must bound the work one input can
// cause. Each limit, when exceeded, is reported as a `limit.*` diagnostic; nothing
// recurses deeper than `maxNestingDepth`, so adversarial input cannot overflow the
// stack.

/// Bounds on the size and shape of a query.
public struct Limits: Sendable, Hashable, Codable {
    /// Longest accepted query text, in UTF-8 bytes (4 MiB: room for a 1 MB string literal).
    public var maxInputLength: Int
    /// Deepest accepted nesting of expressions: parentheses, operators, closures, calls.
    public var maxNestingDepth: Int
    /// Most elements in one list literal, and most operands of one `&&` or `||` chain.
    public var maxListLength: Int
    /// Longest accepted name, in UTF-8 bytes.
    public var maxIdentifierLength: Int
    /// When parsing and checking must be done, for a service whose requests each
    /// have a time budget: past it, the lexer, the parser (each reading the clock
    /// every 1,024 tokens) and the checker (every 1,024 expressions) stop with a
    /// `limit.deadline` error and the compiler does not lower. Nil (the default) for
    /// no deadline; not encoded.
    public var deadline: ContinuousClock.Instant?

    private enum CodingKeys: String, CodingKey {
        case maxInputLength, maxNestingDepth, maxListLength, maxIdentifierLength
    }

    /// Limits with the given bounds; the defaults are those of `Limits.standard`.
    public init(
        maxInputLength: Int = 4 * 1024 * 1024,
        maxNestingDepth: Int = 128,
        maxListLength: Int = 10_000,
        maxIdentifierLength: Int = 256
    ) {
        self.maxInputLength = maxInputLength
        self.maxNestingDepth = maxNestingDepth
        self.maxListLength = maxListLength
        self.maxIdentifierLength = maxIdentifierLength
    }

    /// The limits pq uses unless told otherwise.
    public static let standard = Limits()
}
