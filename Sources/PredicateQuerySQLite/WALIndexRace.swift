// A read-only connection that reads a live WAL store through its `-shm`
// (`readonly_shm=1`, see `ReadOnlyOpening`) starts each read by copying the WAL
// index header from the `-shm` without a lock. A writer commits by rewriting that
// header (two copies, one after the other); a reader whose copy lands in the middle
// sees the two differ. A connection that may write then takes the write lock and
// reads the header again; a read-only one cannot, and SQLite (3.40, `walIndexReadHdr`)
// fails the statement with SQLITE_READONLY_RECOVERY ("attempt to write a readonly
// database") whenever the writer has let go of its lock by the time it looks, which is
// almost always, since the writer finished its header a moment later.
//
// Seen once in a REPL counting beside a writer that committed every 10 ms on a busy
// 2-core machine. The failure comes before the statement reads anything (it is the
// start of its read transaction), so pq starts the statement again after a short
// wait, for as long as the connection waits for a locked store (its busy timeout,
// within the query's deadline): a writer finishes its header in microseconds. A
// header that stays unreadable that long (a damaged `-shm`, or one a crashed writer
// left half written and no writer has opened since) is reported as such.

import CSQLite
import Foundation
import PredicateQuery

/// Retries of a statement's start that found the WAL index header mid-write.
struct WALIndexRace {
    /// SQLITE_READONLY_RECOVERY: the header read did not match and the connection
    /// may not take the write lock to read it again.
    static let code = SQLITE_READONLY | (1 << 8)

    private var attempt = 0
    private var start: ContinuousClock.Instant?
    /// How long the statement has waited for a readable header so far.
    private(set) var waited: Duration = .zero

    /// Whether `status` is the race and the statement should start again: waits a
    /// little first (nothing, then 1 ms, growing to 20 ms), and says no once the
    /// connection's busy timeout is spent, or the query passed its deadline or was
    /// interrupted.
    mutating func shouldRetry(after status: Int32, on connection: SQLiteConnection) -> Bool {
        guard status == Self.code else { return false }
        let now = ContinuousClock.now
        let start = self.start ?? now
        self.start = start
        waited = now - start
        guard waited < connection.busyTimeout ?? .zero else { return false }
        if let deadline = connection.deadline, now >= deadline { return false }
        if connection.isInterruptPending { return false }
        if attempt > 0 { Thread.sleep(forTimeInterval: Double(min(attempt, 20)) / 1000) }
        attempt += 1
        return true
    }

    /// What a statement says when the header stayed unreadable.
    func message(path: String) -> String {
        let time = waited > .zero ? "for " + QueryBudget.describe(waited) : "when read"
        return "cannot read '\(path)': SQLite reads this WAL store through its -shm, whose index was unreadable \(time) (damaged, or left half written by a writer that stopped), and only a connection that may write the store can rebuild it; open the store once with the app or sqlite3, then run the query again"
    }
}
