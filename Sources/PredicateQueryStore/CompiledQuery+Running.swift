// What every store checks of a compiled query before it runs it, in one place for
// SQLite, PostgreSQL, the pools and the Decodable fetches: a fetch refuses a query
// compiled to count, and a count runs the query lowered to count its matches.

import PredicateQuery

extension CompiledQuery {
    /// Throws `StoreError.fetchedACount` for a query compiled to count: its one row
    /// is a number, and reading it as an object would make one up.
    @usableFromInline package func checkFetchable() throws(StoreError) {
        guard !isCount else { throw .fetchedACount }
    }

    /// The query a count runs: this one lowered to count its matches (itself when it
    /// already counts), with a lowering failure as a `StoreError`.
    package func countingMatchesForStore() throws(StoreError) -> CompiledQuery {
        do {
            return try countingMatches()
        } catch {
            throw StoreError(error)
        }
    }
}
