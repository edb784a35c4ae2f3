// A duration in whole milliseconds, as SQLite's busy timeout and PostgreSQL's
// statement and lock timeouts take it.

extension Duration {
    /// The whole milliseconds of the duration (rounded towards zero).
    package var wholeMilliseconds: Int64 {
        components.seconds * 1000 + components.attoseconds / 1_000_000_000_000_000
    }
}
