// A SQLite store: a file (or memory) holding a schema's objects in a store
// mapping's tables, plus, for stores pq creates, the schema itself.
//
// A store is opened read-only unless asked otherwise, and a read-only store is
// never written. Stores pq creates keep their schema and mapping in a table of
// their own, `PQ_SCHEMA`, so they reopen without model files.

import Foundation
import PredicateQuery

/// A store: its schema, how the schema is laid out, and a connection.
public final class SQLiteStore {
    public let schema: Schema
    /// How the schema is laid out, with the store's indexes (see `SQLiteStore+Indexes`).
    public internal(set) var mapping: StoreMapping {
        didSet { compiled = nil }
    }
    /// Queries this store compiled, by text (see `compile`); made on first use,
    /// dropped when the mapping changes.
    private var compiled: QueryCache?
    /// Whether the store was opened read-only: then no query or call changes a byte of its files.
    public let isReadOnly: Bool
    /// What opening the store warned about (model entities the store does not hold,
    /// columns no property accounts for), one sentence each.
    public internal(set) var warnings: [String] = []
    /// The schema was inferred from the store's tables (a Core Data store with no
    /// model inside, opened without model files), so names and types are guesses
    /// from column names and declared types.
    public internal(set) var isSchemaInferred = false
    let connection: SQLiteConnection

    /// The table in which pq keeps a store's schema and mapping, as JSON.
    static let schemaTable = "PQ_SCHEMA"

    init(schema: Schema, mapping: StoreMapping, connection: SQLiteConnection, readOnly: Bool) {
        self.schema = schema
        self.mapping = mapping
        self.connection = connection
        self.isReadOnly = readOnly
        self.mapping.indexedColumns = Self.indexedColumns(in: connection)
    }

    /// Opens an existing store. Without a `schema`, a store pq created is read with
    /// its own schema, and a plain SQLite database by introspecting its tables (see
    /// `SQLiteStore+Introspection`); with one, `layout` says how it is laid out and
    /// the store is checked against it (see `SQLiteStore+Verification`).
    ///
    /// A Core Data store opened without a schema gets its model from the store, with
    /// persistent-history entities (`CHANGE`, `TRANSACTION`, …) only if `includeHistory`.
    ///
    /// A store read from a private copy (see `ReadOnlyOpening`) says so first in
    /// its `warnings`: its answers are a snapshot taken when it was opened.
    public static func open(
        at path: String, readOnly: Bool = true, schema: Schema? = nil, layout: StoreMapping.Layout = .coreData,
        includeHistory: Bool = false
    ) throws(StoreError) -> SQLiteStore {
        try StoreFileDiagnosis.checkBeforeOpening(path)
        let connection = try SQLiteConnection(path: path, readOnly: readOnly)
        try checkIsSQLite(connection, path: path)
        let store = try open(
            connection, path: path, readOnly: readOnly, schema: schema, layout: layout, includeHistory: includeHistory)
        if let warning = connection.snapshotWarning { store.warnings.insert(warning, at: 0) }
        return store
    }

    private static func open(
        _ connection: SQLiteConnection, path: String, readOnly: Bool, schema: Schema?, layout: StoreMapping.Layout,
        includeHistory: Bool
    ) throws(StoreError) -> SQLiteStore {
        if let schema {
            var warnings: [String] = []
            let mapping = try verifiedMapping(for: schema, layout: layout, connection: connection, warnings: &warnings)
            let store = SQLiteStore(schema: schema, mapping: mapping, connection: connection, readOnly: readOnly)
            store.warnings = warnings
            return store
        }
        if try !hasTable(schemaTable, in: connection) {
            var warnings: [String] = []
            return try introspected(
                connection, path: path, readOnly: readOnly, includeHistory: includeHistory, warnings: &warnings)
        }
        let (stored, mapping) = try readSchema(connection, path: path)
        return SQLiteStore(schema: stored, mapping: mapping, connection: connection, readOnly: readOnly)
    }

    /// Creates a new, empty store for `schema` in `layout` at `path` (":memory:" for
    /// one in memory). Fails if a file is already there.
    public static func create(
        at path: String, schema: Schema, layout: StoreMapping.Layout = .coreData
    ) throws(StoreError) -> SQLiteStore {
        if path != ":memory:", FileManager.default.fileExists(atPath: path) {
            throw StoreError("a file already exists at '\(path)'")
        }
        let connection = try SQLiteConnection(path: path, readOnly: false, create: true)
        let mapping = StoreMapping.make(for: schema, layout: layout)
        let store = SQLiteStore(schema: schema, mapping: mapping, connection: connection, readOnly: false)
        try store.createTables()
        store.refreshIndexes()
        return store
    }

    private static func checkIsSQLite(_ connection: SQLiteConnection, path: String) throws(StoreError) {
        do throws(StoreError) {
            let statement = try connection.prepare("SELECT count(*) FROM sqlite_master")
            _ = try statement.step()
        } catch where error.kind == .busy {
            throw StoreError("'\(path)': \(error.message)", code: error.code, kind: .busy)
        } catch {
            throw StoreError(StoreFileDiagnosis.unreadable(path, sqliteMessage: error.message), code: error.code, kind: .corrupt)
        }
    }

    private static func readSchema(_ connection: SQLiteConnection, path: String) throws(StoreError) -> (Schema, StoreMapping) {
        let statement: SQLiteStatement
        do {
            statement = try connection.prepare("SELECT \"Z_SCHEMA\", \"Z_MAPPING\" FROM \"\(schemaTable)\" LIMIT 1")
        } catch {
            throw StoreError("'\(path)' was not created by pq, so it holds no schema; name its model files")
        }
        guard try statement.step(), case .string(let schemaJSON) = statement.column(0),
            case .string(let mappingJSON) = statement.column(1)
        else {
            throw StoreError("'\(path)' has an empty \(schemaTable) table")
        }
        do {
            let schema = try Schema.fromJSON(Data(schemaJSON.utf8))
            let mapping = try JSONDecoder().decode(StoreMapping.self, from: Data(mappingJSON.utf8))
            return (schema, mapping)
        } catch {
            throw StoreError("the schema stored in '\(path)' cannot be read: \(error)")
        }
    }

    /// Compiles query text for this store, as `QueryCompiler.compile` does, keeping
    /// the result: the same text compiles once, however many times it runs (with
    /// new parameter values each time). Creating an index through `execute` starts afresh.
    public func compile(
        _ text: String, defaultEntity: String? = nil, summaries: Bool = false,
        limits: Limits = .standard
    ) -> CompileResult {
        let cache = compiled ?? QueryCache(schema: schema, mapping: mapping)
        compiled = cache
        return cache.compile(text, defaultEntity: defaultEntity, summaries: summaries, limits: limits)
    }

    /// How long a query may run before it is stopped with an error; nil (the
    /// default) for no limit. The clock starts when the query is prepared and
    /// covers reading its rows.
    public var timeout: Duration? {
        get { connection.timeout }
        set { connection.timeout = newValue }
    }

    /// Stops the query running on this store, from any thread.
    public func interrupt() {
        connection.interrupt()
    }

    /// Forgets an `interrupt()` once the query it was for has ended.
    public func clearInterrupt() {
        connection.clearInterrupt()
    }

    /// How long a query waits for a lock another connection (another process
    /// writing the store) holds before it fails with a `busy` error: 5 s unless set
    /// (a query with a shorter `timeout` waits no longer than that); nil fails at once.
    public var busyTimeout: Duration? {
        get { connection.busyTimeout }
        set { connection.busyTimeout = newValue }
    }
}

extension SQLiteStore {
    /// Runs SQL that returns no rows, such as `CREATE INDEX`, on a store opened read-write.
    public func execute(_ sql: String) throws(StoreError) {
        guard !isReadOnly else { throw StoreError("the store is open read-only") }
        try connection.execute(sql)
        refreshIndexes()
    }
}

extension SQLiteStore {
    /// The store's `sqlite3 *` connection, for running hand-written SQL beside pq's
    /// queries on the same connection (a benchmark's baseline, a migration). Do not
    /// close it, and do not use it while one of pq's cursors on this store is open.
    public func withUnsafeSQLiteHandle<Result>(_ body: (OpaquePointer) throws -> Result) rethrows -> Result {
        try body(connection.handle)
    }
}
