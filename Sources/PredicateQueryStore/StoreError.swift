// Errors from stores, by kind: the caller's mistake (a parameter, a limit, a
// pattern), the store's state (busy, corrupt, missing, no connection free in
// time) or the query's budget (timeout, cancellation). Each kind has a stable
// code, so a server maps errors to HTTP statuses without reading messages.
//
// One type for every store: how a database's own codes map to kinds stays with
// that database's module (SQLite's result codes in PredicateQuerySQLite's
// StoreError+SQLite.swift, PostgreSQL's SQLSTATEs in PostgresErrors.swift).

import PredicateQuery

/// An error from a store or from the database behind it (SQLite, PostgreSQL),
/// with the database's message.
public struct StoreError: Error, Sendable, CustomStringConvertible {
    /// What went wrong, in the terms of who can fix it. The raw value is a stable code.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// A parameter is missing, of the wrong type, or not valid (a bad pattern).
        case invalidParameter = "query.parameter"
        /// The query needs more than a limit allows (bound values, say a list parameter of 40,000 names).
        case limitExceeded = "query.limitExceeded"
        /// A `matches` pattern backtracked too much on a value and was stopped.
        case patternTooCostly = "query.patternTooCostly"
        /// A value the query computes leaves what the database's numbers hold, where
        /// pq's answer needs it: on PostgreSQL, an Int overflow (pq's answer is a
        /// Double) or a sum of Doubles overflowing (pq's is infinity). The same query
        /// may run on other data, or on SQLite.
        case valueOutOfRange = "query.valueOutOfRange"
        /// The query ran past its deadline (a store's `timeout`, or a pool's budget).
        case timeout = "query.timeout"
        /// The query was stopped: `interrupt()`, or its task was cancelled.
        case cancelled = "query.cancelled"
        /// Another connection holds a lock the query needs (SQLITE_BUSY, SQLITE_LOCKED).
        case busy = "store.busy"
        /// Every connection of a pool stayed in use until the query's deadline.
        case poolExhausted = "store.poolExhausted"
        /// The store's file is damaged or is not a database.
        case corrupt = "store.corrupt"
        /// The store cannot be opened or read (missing, no permission, I/O error).
        case unavailable = "store.unavailable"
        /// Anything else: a fault of pq or of the database.
        case `internal` = "store.internal"

        /// Whether the caller's request is at fault (a 4xx in HTTP's terms).
        public var isCallersMistake: Bool {
            switch self {
            case .invalidParameter, .limitExceeded, .patternTooCostly, .valueOutOfRange: true
            default: false
            }
        }

        /// Whether trying again later may succeed (a 503 in HTTP's terms).
        public var isTransient: Bool {
            switch self {
            case .timeout, .busy, .poolExhausted: true
            default: false
            }
        }
    }

    /// What happened, in words for the person who ran the query.
    public var message: String
    /// SQLite's result code, when the error came from SQLite.
    public var code: Int32?
    /// What went wrong; see `Kind`.
    public var kind: Kind

    /// An error of `kind` (`internal` unless given). `code` is only recorded: the
    /// SQLite store makes its errors with `init(_:sqliteCode:kind:)`, which works the
    /// kind out from SQLite's result code.
    public init(_ message: String, code: Int32? = nil, kind: Kind? = nil) {
        self.message = message
        self.code = code
        self.kind = kind ?? .internal
    }

    /// What fetching a query compiled to count throws: its one row is a number, not
    /// an object, and decoding it as one would make an object up.
    public static let fetchedACount = StoreError(
        "a query compiled to count returns a number, not objects; run it with count(_:), or compile it without count",
        kind: .invalidParameter)

    /// What running a query compiled for another store's layout throws: its SQL
    /// names that layout's tables, columns and entity numbers, which on this store
    /// may be missing or, worse, mean other rows (two Core Data stores of one model
    /// may number its entities differently).
    public static let compiledForAnotherLayout = StoreError(
        "the query was compiled for another store's layout (its tables, columns or entity numbers differ from this store's); compile it with this store's compile(_:)",
        kind: .invalidParameter)

    /// A query that could not be lowered again (to count its matches): too deep for
    /// SQLite's parser is a limit, anything else pq's fault.
    package init(_ error: LoweringError) {
        self.init(error.message, kind: error.code == .sqlTooDeep ? .limitExceeded : .internal)
    }

    /// The error for parameters that could not be bound.
    package init(_ error: BindingError) {
        self.init(error.message, kind: error.isLimit ? .limitExceeded : .invalidParameter)
    }

    /// The message.
    public var description: String { message }
}
