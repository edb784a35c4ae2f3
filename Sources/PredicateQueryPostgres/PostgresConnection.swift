// One connection to a PostgreSQL server through the system's libpq (loaded at run
// time, see `LibPQ`).
//
// Every statement is sent with its values as separate, typed, text-format
// parameters (`PQsendQueryParams`), never pasted into the SQL. Rows stream in
// libpq's single-row mode, so a large result is never held whole. A running
// statement is stopped through PostgreSQL's cancel request, from any thread.

import Foundation
import PredicateQueryStore

/// A connection to a PostgreSQL server.
final class PostgresConnection: @unchecked Sendable {
    /// The libpq entry points, loaded by the first connection of the process.
    let libpq: LibPQ
    fileprivate let handle: OpaquePointer
    /// libpq's cancel object for this connection, used from another thread.
    private var cancelHandle: OpaquePointer?
    /// Whether `cancel()` was called since the statement was sent, which tells a
    /// cancel request from `statement_timeout` (both end a statement with 57014).
    private var cancelRequested = false
    private let cancelLock = NSLock()
    /// The statement timeout set on the session, for the message of a statement it stops.
    var statementTimeout: Duration?

    /// Connects with a URL (`postgresql://user@host/db`) or a conninfo string
    /// (`host=/tmp dbname=pq`), and sets the session up so values read back as pq
    /// wrote them: UTC, ISO dates, shortest exact Doubles, UTF-8.
    /// Throws a `StoreError` saying how to install libpq where it cannot be loaded.
    init(_ conninfo: String) throws(StoreError) {
        let libpq = try LibPQ.loaded()
        guard let handle = libpq.connectdb(conninfo) else { throw StoreError("cannot connect to PostgreSQL: out of memory") }
        guard libpq.status(handle) == LibPQ.connectionOK else {
            let message = Self.message(handle, libpq)
            libpq.finish(handle)
            throw StoreError("cannot connect to PostgreSQL: \(message)")
        }
        self.libpq = libpq
        self.handle = handle
        cancelHandle = libpq.getCancel(handle)
        try execute(Self.sessionSetup)
        // pq's strings are Unicode, and its string tests compose text with
        // normalize(), which PostgreSQL has from version 13, in a UTF-8 database; date
        // arithmetic reads a timestamptz's seconds exactly with EXTRACT, which gives a
        // numeric from version 14 (a rounded double precision before).
        let settings =
            try query("SELECT current_setting('server_encoding'), current_setting('server_version_num')").first ?? []
        let encoding = settings.first ?? nil
        guard encoding == "UTF8" else {
            throw StoreError(
                "the PostgreSQL database's encoding is \(encoding ?? "unknown"), not UTF8: pq needs a UTF-8 database (CREATE DATABASE … ENCODING 'UTF8')"
            )
        }
        let version = settings.count > 1 ? settings[1].flatMap { Int($0) } : nil
        guard let version, version >= 140_000 else {
            throw StoreError(
                "pq needs PostgreSQL 14 or later (this server's version number is \(version.map(String.init) ?? "unknown"))")
        }
    }

    /// The session's settings. `jit = off`: pq's exact arithmetic writes long
    /// expressions, whose estimated cost passes PostgreSQL's JIT threshold, and
    /// compiling them costs far more than running them: `User where pets.@count == 0
    /// || pets.@avg.age * 2 > 1` on 300 users took 42.4 s with JIT (PostgreSQL 15's
    /// default) and 0.21 s without.
    private static let sessionSetup =
        "SET TIME ZONE 'UTC'; SET DateStyle TO ISO; SET extra_float_digits TO 1; SET client_encoding TO 'UTF8'; SET IntervalStyle TO iso_8601; SET client_min_messages TO warning; SET jit = off"

    deinit {
        if let cancelHandle { libpq.freeCancel(cancelHandle) }
        libpq.finish(handle)
    }

    private static func message(_ handle: OpaquePointer, _ libpq: LibPQ) -> String {
        guard let text = libpq.errorMessage(handle) else { return "unknown error" }
        return String(cString: text).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Runs SQL that takes no parameters (one or several statements).
    func execute(_ sql: String) throws(StoreError) {
        cancelLock.withLock { cancelRequested = false }
        guard let result = libpq.exec(handle, sql) else { throw StoreError(Self.message(handle, libpq), kind: lostKind) }
        defer { libpq.clear(result) }
        let status = libpq.resultStatus(result)
        guard status == LibPQ.commandOK || status == LibPQ.tuplesOK else { throw error(of: result) }
    }

    private func resultMessage(_ result: OpaquePointer) -> String {
        guard let text = libpq.resultErrorMessage(result) else { return Self.message(handle, libpq) }
        let message = String(cString: text).trimmingCharacters(in: .whitespacesAndNewlines)
        return message.isEmpty ? Self.message(handle, libpq) : message
    }

    /// Sends a statement with its parameters (text, or nil for NULL, each with its type's
    /// OID, 0 to let the server infer it); its rows are read with `next`.
    func send(_ sql: String, _ parameters: [PostgresParameter]) throws(StoreError) -> PostgresRows {
        cancelLock.withLock { cancelRequested = false }
        let sent = withParameterPointers(parameters) { values, types in
            libpq.sendQueryParams(handle, sql, Int32(parameters.count), types, values, nil, nil, 0)
        }
        guard sent == 1 else { throw StoreError(Self.message(handle, libpq), kind: lostKind) }
        guard libpq.setSingleRowMode(handle) == 1 else { throw StoreError(Self.message(handle, libpq), kind: lostKind) }
        return PostgresRows(connection: self)
    }

    /// Runs a statement and reads all its rows.
    func query(_ sql: String, _ parameters: [PostgresParameter] = []) throws(StoreError) -> [[String?]] {
        let rows = try send(sql, parameters)
        var all: [[String?]] = []
        while let row = try rows.next() { all.append(row) }
        return all
    }

    /// The next result of the statement being read, or nil when it is done.
    fileprivate func nextResult() -> OpaquePointer? { libpq.getResult(handle) }

    /// A result's error, as a store error of the kind its SQLSTATE says (see `PostgresErrors`).
    fileprivate func error(of result: OpaquePointer) -> StoreError {
        let message = resultMessage(result)
        guard let field = libpq.resultErrorField(result, LibPQ.diagnosticSQLState) else {
            return StoreError(message.replacingOccurrences(of: "ERROR:  ", with: "PostgreSQL: "), kind: lostKind)
        }
        let state = String(cString: field)
        if state == PostgresErrors.queryCanceled {
            if cancelLock.withLock({ cancelRequested }) {
                return StoreError("the query was interrupted", kind: .cancelled)
            }
            // pq did not ask: a cancel from outside (pg_cancel_backend, an administrator)
            // or the statement timeout, which the server's (English) message tells apart.
            if message.contains("due to user request") {
                return StoreError(
                    "the query was cancelled by a request from outside pq (\(Self.firstLine(message)))", kind: .cancelled)
            }
            let limit = statementTimeout.map { "its \(QueryBudget.describe($0)) timeout" } ?? "its statement_timeout"
            return StoreError("the query ran longer than \(limit) and was stopped", kind: .timeout)
        }
        if state == PostgresErrors.numericValueOutOfRange, let cause = Self.outOfRangeCause(message) {
            return StoreError(cause, kind: .valueOutOfRange)
        }
        return StoreError(
            message.replacingOccurrences(of: "ERROR:  ", with: "PostgreSQL: "), kind: PostgresErrors.kind(sqlState: state))
    }

    /// The first line of a server message, without its "ERROR:" prefix.
    static func firstLine(_ message: String) -> String {
        let line = message.split(separator: "\n", omittingEmptySubsequences: true).first.map(String.init) ?? message
        return "PostgreSQL: " + line.replacingOccurrences(of: "ERROR:  ", with: "").trimmingCharacters(in: .whitespaces)
    }

    /// What a "numeric value out of range" error (SQLSTATE 22003) means in pq's SQL
    /// (see `PostgreSQLDialect+Numbers`), or nil for another one.
    static func outOfRangeCause(_ message: String) -> String? {
        let cause: String
        if message.contains("bigint out of range") {
            cause =
                "an Int computation leaves Int's range on this data (an overflow, -Int.min or Int.min / -1): pq's answer there is a Double, which PostgreSQL's bigint arithmetic cannot give"
        } else if message.contains("integer out of range") {
            cause =
                "an @sum of Ints leaves Int's range part way on this data (a partial sum, in the elements' key order, or, where its filter holds aggregates, its positive or negative values alone): pq's answer there is a Double, which PostgreSQL's exact sum cannot give"
        } else if message.contains("value out of range: overflow") {
            cause =
                "a Double computation overflows on this data (a partial sum in an @sum or @avg, or arithmetic too long for pq to guard in SQL): pq's answer there is infinity, where PostgreSQL raises an error"
        } else if message.contains("value out of range: underflow") {
            cause =
                "a Double product or quotient underflows on this data (exactly half the least subnormal Double, a tie that rounds to 0): pq's answer there is 0, where PostgreSQL's double precision arithmetic raises an error"
        } else {
            return nil
        }
        return "PostgreSQL cannot compute this query as pq does: " + cause
    }

    /// The kind of an error with no SQLSTATE: `unavailable` when the connection is gone.
    private var lostKind: StoreError.Kind { libpq.status(handle) == LibPQ.connectionOK ? .internal : .unavailable }

    /// Whether the connection to the server is still up, reading what the server sent
    /// while it was idle: a connection the server ended (a restart, an administrator's
    /// `pg_terminate_backend`) is found here, before a statement is sent on it.
    /// Not while a statement runs.
    var isAlive: Bool {
        // The server's farewell (a FATAL message) and the end of the connection can
        // take a read each.
        for _ in 0..<3 where libpq.consumeInput(handle) != 1 { return false }
        return libpq.status(handle) == LibPQ.connectionOK
    }

    /// Connects again with the same parameters and sets the session up as `init` does
    /// (a session's own settings are the caller's to set again). Not while a statement
    /// runs, nor while `cancel` may be called.
    func reconnect() throws(StoreError) {
        libpq.reset(handle)
        guard libpq.status(handle) == LibPQ.connectionOK else {
            throw StoreError("cannot connect to PostgreSQL again: \(Self.message(handle, libpq))", kind: .unavailable)
        }
        cancelLock.withLock {
            if let cancelHandle { libpq.freeCancel(cancelHandle) }
            cancelHandle = libpq.getCancel(handle)
        }
        try execute(Self.sessionSetup)
    }

    /// Asks the server to stop the statement running on this connection; safe from any
    /// thread. Returns once the server has taken the request (libpq waits for it), so a
    /// statement sent after it is not the one stopped.
    func cancel() {
        let cancelHandle: OpaquePointer? = cancelLock.withLock {
            cancelRequested = true
            return self.cancelHandle
        }
        guard let cancelHandle else { return }
        var buffer = [CChar](repeating: 0, count: 256)
        _ = libpq.cancel(cancelHandle, &buffer, Int32(buffer.count))
    }

    private func withParameterPointers<R>(
        _ parameters: [PostgresParameter], _ body: (UnsafePointer<UnsafePointer<CChar>?>?, UnsafePointer<Oid>?) -> R
    ) -> R {
        let strings: [UnsafeMutablePointer<CChar>?] = parameters.map { $0.text.flatMap { strdup($0) } }
        defer { for string in strings { free(string) } }
        let pointers = strings.map { UnsafePointer($0) }
        let types = parameters.map(\.type)
        return pointers.withUnsafeBufferPointer { values in
            types.withUnsafeBufferPointer { types in body(values.baseAddress, types.baseAddress) }
        }
    }
}

/// One statement parameter: its text form (nil for NULL) and its type's OID.
struct PostgresParameter {
    var text: String?
    var type: Oid
}

/// The rows of a running statement, one at a time (libpq's single-row mode).
final class PostgresRows {
    private let connection: PostgresConnection
    private var finished = false
    /// The type OID of each column, known from the first row on.
    private(set) var columnTypes: [Oid] = []

    fileprivate init(connection: PostgresConnection) {
        self.connection = connection
    }

    deinit { drain() }

    /// Reads and drops what is left, so the connection is ready for the next statement.
    func drain() {
        while !finished {
            guard let result = connection.nextResult() else {
                finished = true
                return
            }
            connection.libpq.clear(result)
        }
    }

    /// The next row's fields as text (nil for NULL), or nil after the last row.
    func next() throws(StoreError) -> [String?]? {
        while !finished {
            guard let result = connection.nextResult() else {
                finished = true
                return nil
            }
            let libpq = connection.libpq
            defer { libpq.clear(result) }
            switch libpq.resultStatus(result) {
            case LibPQ.singleTuple:
                let count = libpq.nfields(result)
                if columnTypes.isEmpty { columnTypes = (0..<count).map { libpq.ftype(result, $0) } }
                return (0..<count).map { column in
                    guard libpq.getisnull(result, 0, column) != 1, let text = libpq.getvalue(result, 0, column) else {
                        return nil
                    }
                    return String(cString: text)
                }
            case LibPQ.tuplesOK, LibPQ.commandOK:
                continue
            default:
                let error = connection.error(of: result)
                drain()
                throw error
            }
        }
        return nil
    }
}

extension PostgresConnection {
    /// libpq's connection handle (a `PGconn *`), for SQL of one's own on this connection.
    var unsafeHandle: OpaquePointer { handle }
}
