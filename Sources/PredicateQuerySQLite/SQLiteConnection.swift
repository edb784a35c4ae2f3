// A connection to a SQLite database: open, execute, prepare, interrupt.
//
// pq's string functions are registered on every connection (see
// `SQLiteFunctions`), so the SQL that lowering produces can call them.

import CSQLite
import Foundation
import PredicateQuery

/// One open SQLite database.
final class SQLiteConnection {
    /// The open database. Replaced (between statements, under `interruptLock`) when
    /// a read-only store's files change (see `refreshIfStoreChanged()`).
    private(set) var handle: OpaquePointer

    /// When set, statements stepped after this instant are stopped (see `timeout`).
    var deadline: ContinuousClock.Instant?
    /// An `interrupt()` not yet cleared (see `interrupt()`).
    private var interruptRequested = false
    private let interruptLock = NSLock()
    /// Whether the last statement was stopped because it passed `deadline`.
    private(set) var passedDeadline = false

    /// How long one query may run: set, SQLite's progress handler checks the clock
    /// every `progressInterval` virtual-machine steps and stops a query that runs past
    /// its deadline (`SQLITE_INTERRUPT`), as Ctrl-C does.
    var timeout: Duration?

    /// Installs the progress handler, which stops a statement past its deadline and
    /// one whose interrupt came before it started (SQLite forgets those): always on,
    /// since an interrupt can come without a timeout (Ctrl-C, a closed pipe).
    private func installProgressHandler() {
        sqlite3_progress_handler(handle, Self.progressInterval, Self.progress, Unmanaged.passUnretained(self).toOpaque())
    }

    /// SQLite virtual-machine steps between two clock checks. A row costs about ten
    /// steps, and a row can be slow (a costly `matches`), so the check is frequent;
    /// reading the monotonic clock takes some tens of nanoseconds.
    private static let progressInterval: Int32 = 100

    private static let progress: @convention(c) (UnsafeMutableRawPointer?) -> Int32 = { context in
        guard let context else { return 0 }
        let connection = Unmanaged<SQLiteConnection>.fromOpaque(context).takeUnretainedValue()
        if connection.consumeInterrupt() { return 1 }
        guard let deadline = connection.deadline, ContinuousClock.now >= deadline else { return 0 }
        connection.passedDeadline = true
        return 1
    }

    /// Starts the clock for a query under `timeout`.
    func startDeadline() {
        passedDeadline = false
        deadline = timeout.map { ContinuousClock.now + $0 }
        applyBusyTimeout(within: timeout)
    }

    /// Stops the clock: what runs next (writes, schema reads) is not a timed query.
    func clearDeadline() {
        passedDeadline = false
        deadline = nil
        applyBusyTimeout(within: nil)
    }

    /// A private folder holding a copy of the store, deleted on close (see
    /// `ReadOnlyOpening.privateCopy`).
    private(set) var privateFolder: URL?

    /// Why this connection reads a copy instead of the live store, as a warning
    /// for the store's `warnings`; nil when it reads the store live.
    private(set) var snapshotWarning: String?

    /// How long a statement waits for a lock another connection holds unless told
    /// otherwise: a reader beside a writer on a rollback-journal store waits for the
    /// writer's commit instead of failing with "database is locked".
    static let defaultBusyTimeout: Duration = .seconds(5)

    /// The store's path as given.
    let path: String
    /// How a read-only store was opened, nil for a store opened to write.
    private(set) var plan: ReadOnlyOpening?
    /// The store's files as they were just before it was opened, for a plan that
    /// watches them.
    private var filesSeen: StoreFiles?
    /// Statements made on this connection and not yet let go: the store is opened
    /// again only when none is, so no statement outlives its handle.
    private var liveStatements = 0
    /// How many times the store was opened again because its files changed.
    private(set) var reopenCount = 0

    /// Opens (or, with `create`, creates) the database at `path`. Read-only, not
    /// one byte of the store's files changes and no file is created beside it (see
    /// `ReadOnlyOpening`).
    init(path: String, readOnly: Bool, create: Bool = false) throws(StoreError) {
        self.path = path
        if readOnly, !create, path != ":memory:" {
            let opened = try Self.openReadOnly(path: path)
            (handle, privateFolder, plan, filesSeen, snapshotWarning) =
                (opened.handle, opened.folder, opened.plan, opened.seen, opened.warning)
        } else {
            let opened = try Self.open(path: path, readOnly: readOnly, create: create, plan: nil)
            (handle, privateFolder) = (opened.handle, opened.folder)
        }
        sqlite3_extended_result_codes(handle, 1)
        busyTimeout = Self.defaultBusyTimeout
        applyBusyTimeout(within: nil)
        installProgressHandler()
        try SQLiteFunctions.register(on: self)
    }

    /// A read-only store opened as its files say (see `ReadOnlyOpening.plan`), with
    /// what was seen of them first.
    private static func openReadOnly(path: String) throws(StoreError) -> (
        handle: OpaquePointer, folder: URL?, plan: ReadOnlyOpening, seen: StoreFiles, warning: String?
    ) {
        let seen = StoreFiles(observing: path)
        var plan = ReadOnlyOpening.plan(forStoreAt: path)
        var opened = try open(path: path, readOnly: true, create: false, plan: plan)
        if case .uri = plan, seen.journal != nil, hasHotJournal(opened.handle) {
            close(opened.handle, folder: opened.folder)
            plan = .privateCopy(reason: ReadOnlyOpening.hotJournalReason)
            opened = try open(path: path, readOnly: true, create: false, plan: plan)
        }
        var warning: String?
        if case .privateCopy(let reason?) = plan { warning = ReadOnlyOpening.snapshotWarning(path: path, reason: reason) }
        return (opened.handle, opened.folder, plan, seen, warning)
    }

    /// Opens the store again if its files changed since it was opened in a way that
    /// its plan cannot follow (see `ReadOnlyOpening.watch`): a store read immutable
    /// or from a copy that a writer has since changed, or a live store whose `-wal`
    /// and `-shm` were deleted or made anew. Called before a query's first
    /// statement; does nothing while a statement is in use.
    func refreshIfStoreChanged() throws(StoreError) {
        guard liveStatements == 0, let watch = plan?.watch, let filesSeen,
            filesSeen.hasChanged(to: StoreFiles(observing: path), watching: watch)
        else { return }
        let opened: (handle: OpaquePointer, folder: URL?, plan: ReadOnlyOpening, seen: StoreFiles, warning: String?)
        do {
            opened = try Self.openReadOnly(path: path)
        } catch {
            throw StoreError(
                "'\(path)' changed on disk and could not be opened again: \(error.message)", code: error.code,
                kind: error.kind)
        }
        try SQLiteFunctions.register(on: opened.handle)
        for statement in idleStatements.values { sqlite3_finalize(statement) }
        idleStatements.removeAll()
        let old = interruptLock.withLock {
            defer { handle = opened.handle }
            return handle
        }
        Self.close(old, folder: privateFolder)
        (privateFolder, plan, self.filesSeen, snapshotWarning) = (opened.folder, opened.plan, opened.seen, opened.warning)
        reopenCount += 1
        sqlite3_extended_result_codes(handle, 1)
        appliedBusyMilliseconds = -1
        applyBusyTimeout(within: deadline.map { ContinuousClock.now.duration(to: $0) })
        installProgressHandler()
    }

    /// Whether a query read the store as it was when it started: false when the
    /// store was read immutable and the file itself changed while the query ran (a
    /// writer checkpointed into it), so the rows may mix two versions. A writer that
    /// only created a `-wal` meanwhile leaves the read whole; the next query opens
    /// the store again and sees its commits.
    func readWasStable() -> Bool {
        guard case .immutableWhileUnchanged = plan, let filesSeen else { return true }
        return !filesSeen.hasChanged(to: StoreFiles(observing: path), watching: .storeFile)
    }

    /// What a query says when `readWasStable()` is false.
    var unstableReadMessage: String {
        "'\(path)' changed while the query read it (a writer opened it and wrote into the file, which pq was reading as it was, with no -wal beside it): its rows may mix two versions of the store; run the query again"
    }

    /// Opens `path` as `plan` says (a plain open without one).
    private static func open(
        path: String, readOnly: Bool, create: Bool, plan: ReadOnlyOpening?
    ) throws(StoreError) -> (handle: OpaquePointer, folder: URL?) {
        var flags = readOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE
        if create { flags |= SQLITE_OPEN_CREATE }
        flags |= SQLITE_OPEN_NOMUTEX
        var target = path
        var folder: URL?
        switch plan {
        case .uri(let uri), .immutableWhileUnchanged(let uri), .immutable(let uri):
            target = uri
            flags |= SQLITE_OPEN_URI
        case .privateCopy:
            let (copy, copyFolder) = try ReadOnlyOpening.makePrivateCopy(of: path)
            (target, folder) = (copy, copyFolder)
            // The copy is pq's own: SQLite may create its -shm or roll back its journal there.
            flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX
        case nil:
            break
        }
        var pointer: OpaquePointer?
        let status = sqlite3_open_v2(target, &pointer, flags, nil)
        guard status == SQLITE_OK, let pointer else {
            let message = pointer.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            close(pointer, folder: folder)
            throw StoreError("cannot open '\(path)': \(message)", sqliteCode: status, kind: .unavailable)
        }
        return (pointer, folder)
    }

    private static func close(_ handle: OpaquePointer?, folder: URL?) {
        sqlite3_close_v2(handle)
        if let folder { try? FileManager.default.removeItem(at: folder) }
    }

    private static let readOnlyRollback = SQLITE_READONLY | (3 << 8)  // SQLITE_READONLY_ROLLBACK

    /// Whether reading the store fails because of a hot `-journal`, which a
    /// read-only connection cannot roll back (SQLITE_READONLY_ROLLBACK). A `-journal`
    /// a live writer holds is not hot: SQLite sees the writer's lock and reads on,
    /// or finds the store busy (then the query waits for the writer, with the busy
    /// timeout), so the probe itself does not wait.
    private static func hasHotJournal(_ handle: OpaquePointer) -> Bool {
        sqlite3_extended_result_codes(handle, 1)
        sqlite3_busy_timeout(handle, 0)
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(handle, "SELECT count(*) FROM sqlite_master", -1, &statement, nil) == SQLITE_OK else {
            sqlite3_finalize(statement)
            return sqlite3_extended_errcode(handle) == readOnlyRollback
        }
        let status = sqlite3_step(statement)
        sqlite3_finalize(statement)
        return status == readOnlyRollback || sqlite3_extended_errcode(handle) == readOnlyRollback
    }

    deinit {
        for statement in idleStatements.values { sqlite3_finalize(statement) }
        sqlite3_close_v2(handle)
        if let privateFolder { try? FileManager.default.removeItem(at: privateFolder) }
    }

    var lastError: String { String(cString: sqlite3_errmsg(handle)) }

    func check(_ status: Int32, _ context: @autoclosure () -> String) throws(StoreError) {
        guard status == SQLITE_OK || status == SQLITE_DONE || status == SQLITE_ROW else {
            throw StoreError("\(context()): \(lastError)", sqliteCode: status)
        }
    }

    /// Runs SQL that returns no rows (one or more statements, no parameters).
    func execute(_ sql: String) throws(StoreError) {
        clearDeadline()
        var message: UnsafeMutablePointer<CChar>?
        let status = sqlite3_exec(handle, sql, nil, nil, &message)
        if status != SQLITE_OK {
            let text = message.map { String(cString: $0) } ?? lastError
            sqlite3_free(message)
            throw StoreError(text, sqliteCode: status)
        }
    }

    func prepare(_ sql: String) throws(StoreError) -> SQLiteStatement {
        try refreshIfStoreChanged()
        return SQLiteStatement(try compile(sql, flags: 0), connection: self)
    }

    private func compile(_ sql: String, flags: Int32) throws(StoreError) -> OpaquePointer {
        var statement: OpaquePointer?
        var status = sqlite3_prepare_v3(handle, sql, -1, UInt32(flags), &statement, nil)
        var race = WALIndexRace()
        while race.shouldRetry(after: status, on: self) {
            sqlite3_finalize(statement)
            statement = nil
            status = sqlite3_prepare_v3(handle, sql, -1, UInt32(flags), &statement, nil)
        }
        guard status == SQLITE_OK, let statement else {
            sqlite3_finalize(statement)
            if status == WALIndexRace.code { throw StoreError(race.message(path: path), sqliteCode: status) }
            throw StoreError("cannot prepare query: \(lastError)", sqliteCode: status)
        }
        return statement
    }

    /// Prepared statements whose last user is done with them, by SQL text, ready
    /// to run again: a query run again (with new values) skips SQLite's parsing
    /// and planning. SQLite re-plans a kept statement itself if the schema changes.
    /// By SQL scalar by scalar (names from a model may differ only in composition).
    private var idleStatements: [ExactText: OpaquePointer] = [:]
    private static let idleStatementLimit = 64

    /// A statement for `sql`: a kept one if there is one, else a new one that is
    /// kept for reuse when its user lets it go.
    func preparedForReuse(_ sql: String) throws(StoreError) -> SQLiteStatement {
        try refreshIfStoreChanged()
        if let statement = idleStatements.removeValue(forKey: ExactText(sql)) {
            return SQLiteStatement(statement, connection: self, reuseKey: sql)
        }
        return SQLiteStatement(try compile(sql, flags: SQLITE_PREPARE_PERSISTENT), connection: self, reuseKey: sql)
    }

    /// Takes back a statement from `preparedForReuse`, reset, or finalizes it when
    /// enough are kept (or one for the same SQL already is).
    fileprivate func keep(_ statement: OpaquePointer, for sql: String) {
        guard sqlite3_db_handle(statement) == handle else {
            sqlite3_finalize(statement)  // made on a handle since replaced
            return
        }
        sqlite3_reset(statement)
        sqlite3_clear_bindings(statement)
        guard idleStatements.count < Self.idleStatementLimit, idleStatements[ExactText(sql)] == nil else {
            sqlite3_finalize(statement)
            return
        }
        idleStatements[ExactText(sql)] = statement
    }

    /// How long SQLite retries a statement that finds the store locked (SQLite's
    /// busy handler); nil fails at once with SQLITE_BUSY. A query with a `timeout`
    /// waits no longer than its timeout.
    var busyTimeout: Duration? {
        didSet { applyBusyTimeout(within: deadline.map { ContinuousClock.now.duration(to: $0) }) }
    }

    /// The busy handler's wait now set on the handle, in milliseconds.
    private var appliedBusyMilliseconds: Int64 = -1

    /// Sets SQLite's busy handler to wait `busyTimeout`, or `limit` if shorter.
    private func applyBusyTimeout(within limit: Duration?) {
        var wait = busyTimeout ?? .zero
        if let limit { wait = min(wait, max(limit, .zero)) }
        let milliseconds = Int64(wait.wholeMilliseconds)
        guard milliseconds != appliedBusyMilliseconds else { return }
        appliedBusyMilliseconds = milliseconds
        sqlite3_busy_timeout(handle, Int32(clamping: milliseconds))
    }

    /// What a statement that found the store locked says: how long it waited.
    var lockedMessage: String {
        let waited =
            appliedBusyMilliseconds > 0 ? "for \(QueryBudget.describe(.milliseconds(appliedBusyMilliseconds)))" : "at all"
        return "the store is locked: another connection is writing it, and the query could not wait \(waited) (\(lastError))"
    }

    /// Stops the statement running on this connection, from any thread. SQLite
    /// forgets an interrupt that comes while no statement runs (as between a query's
    /// start and its first step), so the request is also kept until a statement's
    /// progress handler sees it (and stops that statement) or `clearInterrupt()`.
    func interrupt() {
        interruptLock.withLock {
            interruptRequested = true
            sqlite3_interrupt(handle)
        }
    }

    /// Forgets an interrupt: the query it was for has ended.
    func clearInterrupt() {
        interruptLock.withLock { interruptRequested = false }
    }

    /// Whether an interrupt is pending (kept for the statement's progress handler).
    var isInterruptPending: Bool {
        interruptLock.withLock { interruptRequested }
    }

    /// Whether an interrupt is pending, forgetting it: the statement asking stops.
    func consumeInterrupt() -> Bool {
        interruptLock.withLock {
            defer { interruptRequested = false }
            return interruptRequested
        }
    }

    fileprivate func statementMade() { liveStatements += 1 }
    fileprivate func statementLetGo() { liveStatements -= 1 }

    /// Runs `body` in a transaction, committing if it returns and rolling back if it throws.
    func transaction<T>(_ body: () throws -> T) throws -> T {
        try execute("BEGIN IMMEDIATE")  // also clears any query's deadline
        do {
            let result = try body()
            try execute("COMMIT")
            return result
        } catch {
            try? execute("ROLLBACK")
            throw error
        }
    }
}

/// A prepared statement: bind values, step through rows, read columns.
@usableFromInline final class SQLiteStatement {
    let handle: OpaquePointer
    let connection: SQLiteConnection
    /// The SQL the connection keeps this statement under when it is let go, if any.
    private let reuseKey: String?

    init(_ handle: OpaquePointer, connection: SQLiteConnection, reuseKey: String? = nil) {
        self.handle = handle
        self.connection = connection
        self.reuseKey = reuseKey
        connection.statementMade()
    }

    deinit {
        connection.statementLetGo()
        if let reuseKey {
            connection.keep(handle, for: reuseKey)
        } else {
            sqlite3_finalize(handle)
        }
    }

    /// SQLite copies bound text and blobs (SQLITE_TRANSIENT).
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

    /// Binds `values` to placeholders 1, 2, … (values for numbers the statement does
    /// not use, such as the slot of an empty list parameter, are left out).
    func bind(_ values: [Value]) throws(StoreError) {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
        let used = Int(sqlite3_bind_parameter_count(handle))
        for (offset, value) in values.enumerated() where offset < used {
            try bind(value, at: Int32(offset + 1))
        }
    }

    func bind(_ value: Value, at index: Int32) throws(StoreError) {
        let status: Int32
        switch value {
        case .null: status = sqlite3_bind_null(handle, index)
        case .bool(let flag): status = sqlite3_bind_int64(handle, index, flag ? 1 : 0)
        case .int(let number): status = sqlite3_bind_int64(handle, index, number)
        case .double(let number): status = sqlite3_bind_double(handle, index, number)
        case .string(let text):
            var bytes = Array(text.utf8)
            bytes.append(0)
            status = bytes.withUnsafeBytes { buffer in
                guard let base = buffer.baseAddress?.assumingMemoryBound(to: CChar.self) else { return SQLITE_NOMEM }
                return sqlite3_bind_text64(
                    handle, index, base, sqlite3_uint64(bytes.count - 1), Self.transient, UInt8(SQLITE_UTF8))
            }
        case .data(let data):
            status = data.withUnsafeBytes { buffer in
                sqlite3_bind_blob64(
                    handle, index, buffer.baseAddress ?? UnsafeRawPointer(bitPattern: 1), sqlite3_uint64(data.count),
                    Self.transient)
            }
        case .date, .uuid:
            throw StoreError("internal error: \(value) must be encoded before it is bound")
        }
        try connection.check(status, "cannot bind a value")
    }

    /// Advances to the next row; false when there are no more.
    @usableFromInline func step() throws(StoreError) -> Bool {
        var status = sqlite3_step(handle)
        // A read that started as a writer rewrote the WAL index header (see `WALIndexRace`):
        // nothing was read yet, so the statement starts again, with its bindings.
        var race = WALIndexRace()
        while race.shouldRetry(after: status, on: connection) {
            sqlite3_reset(handle)
            status = sqlite3_step(handle)
        }
        switch status {
        case SQLITE_ROW: return true
        case SQLITE_DONE:
            guard connection.readWasStable() else {
                throw StoreError(connection.unstableReadMessage, sqliteCode: SQLITE_BUSY, kind: .busy)
            }
            return false
        case SQLITE_INTERRUPT where connection.passedDeadline:
            let limit = connection.timeout.map(QueryBudget.describe) ?? "time"
            throw StoreError("the query ran longer than its \(limit) timeout and was stopped", sqliteCode: status, kind: .timeout)
        case SQLITE_INTERRUPT: throw StoreError("the query was interrupted", sqliteCode: status, kind: .cancelled)
        case let code where code & 0xFF == SQLITE_BUSY:
            throw StoreError(connection.lockedMessage, sqliteCode: status, kind: .busy)
        case WALIndexRace.code: throw StoreError(race.message(path: connection.path), sqliteCode: status)
        default: throw StoreError(connection.lastError, sqliteCode: status)
        }
    }

    var columnCount: Int32 { sqlite3_column_count(handle) }

    /// A column of the current row as text; nil for NULL, for which SQLite gives no
    /// text pointer (an empty string has one).
    func text(_ index: Int32) -> String? {
        guard let pointer = sqlite3_column_text(handle, index) else { return nil }
        let count = Int(sqlite3_column_bytes(handle, index))
        return String(decoding: UnsafeBufferPointer(start: pointer, count: count), as: UTF8.self)
    }

    /// The value of a column of the current row, as SQLite stores it.
    func column(_ index: Int32) -> Value {
        switch sqlite3_column_type(handle, index) {
        case SQLITE_INTEGER: return .int(sqlite3_column_int64(handle, index))
        case SQLITE_FLOAT: return .double(sqlite3_column_double(handle, index))
        case SQLITE_TEXT: return .string(text(index) ?? "")
        case SQLITE_BLOB:
            let count = Int(sqlite3_column_bytes(handle, index))
            guard let pointer = sqlite3_column_blob(handle, index) else { return .data(Data()) }
            return .data(Data(bytes: pointer, count: count))
        default: return .null
        }
    }
}
