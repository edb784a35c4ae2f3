// A store in a PostgreSQL database: a schema's objects in tables laid out as the
// plain layout names them, reached through one libpq connection.
//
// Stores pq creates keep their schema and mapping in a table of their own,
// `pq_schema`, so they reopen from the URL alone, as SQLite stores do. Queries are
// lowered in PostgreSQL's dialect (the mapping says which database it is); forms
// PostgreSQL cannot answer with pq's meaning are refused when they compile
// (`PostgreSQLSupport`).

import Foundation
import PredicateQuery
import PredicateQueryStore

/// A store in a PostgreSQL database.
public final class PostgresStore: QueryStore {
    public let schema: Schema
    public let mapping: StoreMapping
    /// Whether the schema was read from the database's own tables (one pq did not
    /// create; see `PostgresStore+Introspection`) rather than stored by pq.
    public internal(set) var isSchemaInferred = false
    /// What reading a database pq did not create left out or renamed, one sentence each.
    public internal(set) var schemaNotes: [String] = []
    let connection: PostgresConnection
    private var statementTimeout: Duration?
    /// `SET` statements run again after a reconnection (see `keepSessionSetting`).
    var keptSettings: [String] = []
    /// How many times the store connected again after losing its connection.
    public internal(set) var reconnectionCount = 0
    /// Called with a note each time the store connects again after the server ended
    /// its connection (see `PostgresStore+Reconnection`); the command line prints it.
    public var reconnectionHandler: (@Sendable (String) -> Void)?

    /// The table in which pq keeps a store's schema and mapping, as JSON.
    static let schemaTable = "pq_schema"

    init(schema: Schema, mapping: StoreMapping, connection: PostgresConnection) {
        self.schema = schema
        self.mapping = mapping.inPostgreSQL
        self.connection = connection
    }

    /// Whether `text` names a PostgreSQL database (`postgresql://…` or `postgres://…`).
    public static func isDatabaseURL(_ text: String) -> Bool {
        text.hasPrefix("postgresql://") || text.hasPrefix("postgres://")
    }

    /// Opens the store in the database `url` names (a URL or a conninfo string): the
    /// schema pq stored there, or else one read from the tables (`isSchemaInferred`).
    public static func open(_ url: String) throws(StoreError) -> PostgresStore {
        let connection = try PostgresConnection(url)
        let exists = try connection.query(
            "SELECT to_regclass($1) IS NOT NULL", [PostgresParameter(text: schemaTable, type: PostgresValues.text)])
        guard exists.first?.first == "t" else { return try introspected(connection) }
        let rows = try connection.query("SELECT schema_json, mapping_json FROM \(schemaTable) LIMIT 1")
        guard let row = rows.first, row.count == 2, let schemaJSON = row[0], let mappingJSON = row[1] else {
            throw StoreError("the database's '\(schemaTable)' table is empty")
        }
        do {
            let schema = try Schema.fromJSON(Data(schemaJSON.utf8))
            let mapping = try JSONDecoder().decode(StoreMapping.self, from: Data(mappingJSON.utf8))
            return PostgresStore(schema: schema, mapping: mapping, connection: connection)
        } catch {
            throw StoreError("the schema stored in the database cannot be read: \(error)")
        }
    }

    /// Creates tables for `schema` in the database `url` names and records the schema.
    /// Fails if any of the tables is already there.
    public static func create(_ url: String, schema: Schema) throws(StoreError) -> PostgresStore {
        let connection = try PostgresConnection(url)
        var mapping = StoreMapping.make(for: schema, layout: .plain)
        mapping.dateEncoding = .secondsSince1970
        let store = PostgresStore(schema: schema, mapping: mapping, connection: connection)
        try store.createTables()
        return store
    }

    /// How long a query may run before PostgreSQL stops it (`statement_timeout`); nil for no limit.
    public var timeout: Duration? {
        get { statementTimeout }
        set {
            statementTimeout = newValue
            connection.statementTimeout = newValue
            let milliseconds =
                newValue.map { max(1, $0.wholeMilliseconds) }
                ?? 0
            try? connection.execute("SET statement_timeout = \(milliseconds)")
        }
    }

    /// Stops the query running on this store through PostgreSQL's cancel request, from any thread.
    public func interrupt() {
        connection.cancel()
    }

    /// Runs SQL that takes no parameters, such as `CREATE INDEX`.
    public func execute(_ sql: String) throws(StoreError) {
        try connection.execute(sql)
    }

    /// Compiles query text for this store (in PostgreSQL's dialect).
    public func compile(
        _ text: String, defaultEntity: String? = nil, summaries: Bool = false,
        limits: Limits = .standard
    ) -> CompileResult {
        QueryCompiler.compile(
            text, schema: schema, mapping: mapping, defaultEntity: defaultEntity, summaries: summaries,
            limits: limits)
    }
}

extension PostgresStore {
    /// Runs SQL that takes no parameters on the database `url` names, on a connection
    /// of its own: to create a database or a schema for a store to go in.
    public static func run(_ sql: String, at url: String) throws(StoreError) {
        try PostgresConnection(url).execute(sql)
    }
}

extension PostgresStore {
    /// Runs `body` with libpq's handle (a `PGconn *`) of the store's connection, for
    /// SQL of one's own on the same connection. No statement of the store's may be
    /// running; `body` must read every result it starts.
    public func withUnsafeConnectionHandle<Result>(_ body: (OpaquePointer) throws -> Result) rethrows -> Result {
        try body(connection.unsafeHandle)
    }

    /// The file libpq was loaded from (as given to `dlopen`; see `LibPQ`), for code
    /// that calls libpq itself on `withUnsafeConnectionHandle`'s handle: it must
    /// resolve its functions from this same library.
    public var libpqPath: String { connection.libpq.path }
}
