// PostgreSQL's errors by kind, from their SQLSTATE, so a server maps them to the
// same statuses as SQLite's: a statement stopped by its timeout or by a cancel
// request, a lock not granted in time, a connection lost, damaged data, a limit.

import PredicateQueryStore

enum PostgresErrors {
    /// `query_canceled`: both a cancel request and `statement_timeout` end a statement with it.
    static let queryCanceled = "57014"
    /// `numeric_value_out_of_range`: where pq's numbers leave PostgreSQL's (`PostgreSQLDialect+Numbers`).
    static let numericValueOutOfRange = "22003"

    /// The kind of an error with SQLSTATE `state` (see PostgreSQL's Appendix A).
    static func kind(sqlState state: String) -> StoreError.Kind {
        switch state {
        case "55P03", "40001", "40P01": return .busy  // lock_not_available, serialization_failure, deadlock_detected
        case "2201B": return .invalidParameter  // invalid_regular_expression
        case "XX001", "XX002": return .corrupt  // data_corrupted, index_corrupted
        case "42P01", "3D000", "57P01", "57P02", "57P03": return .unavailable  // a table or database gone, a shutdown
        default: break
        }
        switch state.prefix(2) {
        case "08", "53", "58": return .unavailable  // connection, insufficient resources, system error
        case "54": return .limitExceeded  // program_limit_exceeded (too many parameters, too complex)
        default: return .internal
        }
    }
}
