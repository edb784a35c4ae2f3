// SQLite's result codes as `StoreError` kinds: the one part of the store errors
// that knows SQLite (the error type itself is PredicateQueryStore's, shared with
// PostgreSQL, whose SQLSTATEs are mapped in PostgresErrors.swift).

import CSQLite
import PredicateQueryStore

extension StoreError.Kind {
    /// The kind of a SQLite result code (extended codes included).
    static func of(sqliteCode code: Int32) -> StoreError.Kind {
        if code == SQLiteFunctions.patternTooCostly { return .patternTooCostly }
        switch code & 0xFF {
        case SQLITE_BUSY, SQLITE_LOCKED: return .busy
        case SQLITE_CORRUPT, SQLITE_NOTADB: return .corrupt
        case SQLITE_CANTOPEN, SQLITE_IOERR, SQLITE_PERM, SQLITE_AUTH, SQLITE_READONLY: return .unavailable
        case SQLITE_INTERRUPT: return .cancelled
        case SQLITE_TOOBIG, SQLITE_RANGE: return .limitExceeded
        default: return .internal
        }
    }
}

extension StoreError {
    /// An error from SQLite, keeping its result code; its kind, unless given,
    /// follows from the code.
    init(_ message: String, sqliteCode code: Int32, kind: Kind? = nil) {
        self.init(message, code: code, kind: kind ?? .of(sqliteCode: code))
    }
}
