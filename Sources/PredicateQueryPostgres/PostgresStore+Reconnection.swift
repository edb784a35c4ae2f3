// A store whose connection the server ended (a restart, a failover, an
// administrator's `pg_terminate_backend`) connects again before its next query,
// once, with a note, instead of answering "no connection to the server" forever.
//
// Before each query the store reads what the server sent while the connection was
// idle (`PostgresConnection.isAlive`: a server that ended the session has said so,
// or closed the socket). If the connection is gone, libpq connects again with the
// same parameters, and the store sets the session up as it was: pq's own settings,
// the statement timeout, and every setting kept with `keepSessionSetting`. If
// that fails, the query fails with the reason; the next one tries again. A query
// that is running when the server goes away fails (its rows cannot be trusted to
// be all of them); the next one reconnects.

import Foundation
import PredicateQuery
import PredicateQueryStore

extension PostgresStore {
    /// Runs a `SET …` statement now and again after every reconnection, so the session
    /// keeps it (a pool's read-only mode and lock timeout, say).
    public func keepSessionSetting(_ sql: String) throws(StoreError) {
        try connection.execute(sql)
        keptSettings.append(sql)
    }

    /// Connects again if the server ended the connection while it was idle, setting
    /// the session up as it was, and tells `reconnectionHandler`. Called before each
    /// query.
    func reconnectIfLost() throws(StoreError) {
        guard !connection.isAlive else { return }
        do {
            try connection.reconnect()
            if let timeout {
                try connection.execute("SET statement_timeout = \(max(1, timeout.wholeMilliseconds))")
            }
            for setting in keptSettings { try connection.execute(setting) }
        } catch {
            throw StoreError(
                "the connection to PostgreSQL was lost, and connecting again failed: \(error.message)", kind: .unavailable)
        }
        reconnectionCount += 1
        reconnectionHandler?(
            "the connection to PostgreSQL was lost (the server restarted or ended the session); pq connected again")
    }
}
