// The service: a request's entity, filter, sort and parameters become one pq query,
// checked part by part so every diagnostic points into the field it came from,
// then run on a pool of read-only connections to the store: a SQLite store file or
// a PostgreSQL database, behind one `QueryStorePool`, so every route, JSON shape
// and error code is the same on both.
//
// One budget per request (`timeout`) covers checking, waiting for a connection and
// running; a bounded queue turns away requests that would only wait (503 with
// Retry-After); a request whose task is cancelled (its client hung up) stops its
// query. Store errors map to statuses by kind, never by message.

import Foundation
import PredicateQuery
import PredicateQueryExamples
import PredicateQueryPostgres
import PredicateQuerySQLite

/// Answers query requests from one store (SQLite or PostgreSQL), many at a time.
public final class QueryService: Sendable {
    /// Rows returned when the request names no limit.
    public static let defaultRows = 100
    /// The most rows one request may ask for.
    public static let maximumRows = 1000
    /// How long one request may take, from its arrival: checking, waiting for a
    /// connection and running.
    public let timeout: Duration
    /// The most requests that wait for a connection; more are answered 503 at once.
    public let maximumQueue: Int
    /// Seconds a client is asked to wait before trying again after a 503.
    public static let retryAfterSeconds = 1

    private let pool: any QueryStorePool
    /// The slow lane: connections for queries known to run longer than
    /// `cheapRunTime`, so that they never hold the connections cheap queries use;
    /// nil for one pool for all (see `run`).
    private let slowPool: (any QueryStorePool)?
    /// Which query shapes ran slowly last time.
    private let shapes = ShapeMemory()
    /// How long a query may run on the cheap lane before it is stopped and run
    /// again on the slow lane.
    public static let cheapRunTime: Duration = .milliseconds(100)
    /// A folder this service made for its example store, removed with the service.
    private let ownFolder: URL?

    /// Serves the store at `path`, opened read-only, with `connections` connections:
    /// a SQLite store file, or the PostgreSQL database a `postgresql://` URL names
    /// (a store pq created there, as `pq --store URL --load-examples` does).
    public init(
        storeAt path: String, connections: Int = max(2, ProcessInfo.processInfo.activeProcessorCount),
        slowLane: Int = 0, timeout: Duration = .seconds(2), maximumQueue: Int = 64
    ) throws {
        if PostgresStore.isDatabaseURL(path) {
            pool = try PostgresStorePool(path, size: connections)
            slowPool = slowLane > 0 ? try PostgresStorePool(path, size: slowLane) : nil
        } else {
            pool = try SQLiteStorePool(at: path, size: connections)
            slowPool = slowLane > 0 ? try SQLiteStorePool(at: path, size: slowLane) : nil
        }
        ownFolder = nil
        self.timeout = timeout
        self.maximumQueue = maximumQueue
    }

    /// Serves the stores of `pool`, and slow queries from those of `slowLane` if given.
    public init(
        pool: any QueryStorePool, slowLane: (any QueryStorePool)? = nil, timeout: Duration = .seconds(2),
        maximumQueue: Int = 64
    ) {
        self.pool = pool
        slowPool = slowLane
        ownFolder = nil
        self.timeout = timeout
        self.maximumQueue = maximumQueue
    }

    /// Which database the service reads: "SQLite" or "PostgreSQL".
    public var databaseName: String { pool.mapping.database == .postgreSQL ? "PostgreSQL" : "SQLite" }

    /// Serves pq's example data (budgets, movies, snippets, …) from a store written
    /// to a temporary folder (removed with the service) and read as any store is.
    public init(
        exampleData fillerPerEntity: Int = 300, connections: Int = max(2, ProcessInfo.processInfo.activeProcessorCount),
        slowLane: Int = 0, timeout: Duration = .seconds(2), maximumQueue: Int = 64
    ) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("pq-server-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let path = folder.appendingPathComponent("example.sqlite").path
        do {
            let store = try SQLiteStore.create(at: path, schema: ExampleSchemas.combined)
            try store.insert(ExampleData.graph(fillerPerEntity: fillerPerEntity))
        }
        pool = try SQLiteStorePool(at: path, size: connections)
        slowPool = slowLane > 0 ? try SQLiteStorePool(at: path, size: slowLane) : nil
        ownFolder = folder
        self.timeout = timeout
        self.maximumQueue = maximumQueue
    }

    /// Connections free now, and requests waiting for one (for tests and metrics).
    public var idleConnections: Int { pool.available + (slowPool?.available ?? 0) }
    public var waitingRequests: Int { pool.waiting + (slowPool?.waiting ?? 0) }
    /// All the connections, both lanes.
    public var connectionCount: Int { pool.size + (slowPool?.size ?? 0) }

    deinit { removeTemporaryFiles() }

    /// Removes the example store this service wrote, if any (a server calls it when
    /// it stops: a process that exits runs no deinit).
    public func removeTemporaryFiles() {
        if let ownFolder { try? FileManager.default.removeItem(at: ownFolder) }
    }

    /// Answers a `POST /query` body: a `QueryRequest` as JSON.
    public func handle(body: Data) async -> QueryResponse {
        let budget = QueryBudget(timeout: timeout)
        if let keys = RequestFields.topLevelKeys(body),
            let problem = RequestFields.problem(with: keys, known: QueryRequest.fieldNames)
        {
            return .error(400, "the body is not a query request: \(problem)", code: "request.invalid")
        }
        // An array, a string or a number where the object should be.
        if let kind = RequestFields.kind(of: body), kind != "an object",
            (try? JSONSerialization.jsonObject(with: body, options: .fragmentsAllowed)) != nil
        {
            return .error(
                400, "the body is not a query request: it must be a JSON object, such as {\"entity\": \"Budget\"}, not \(kind)",
                code: "request.invalid")
        }
        let request: QueryRequest
        do {
            request = try JSONDecoder().decode(QueryRequest.self, from: body)
        } catch {
            let reason = Self.misfitNumber(in: body) ?? Self.describe(error, in: body)
            return .error(400, "the body is not a query request: \(reason)", code: "request.invalid")
        }
        return await run(request, parameters: request.parameters.mapValues { .json($0) }, budget: budget)
    }

    /// Answers `GET /:entity?filter=…&sort=…&limit=…&offset=…&$name=value`: the
    /// parameters come as text and take the types the query gives them.
    public func handle(entity: String, queryItems: [(name: String, value: String)]) async -> QueryResponse {
        let budget = QueryBudget(timeout: timeout)
        var request = QueryRequest(entity: entity)
        var parameters: [String: ParameterInput] = [:]
        for (name, value) in queryItems {
            switch name {
            case "filter": request.filter = value
            case "sort": request.sort = value
            case "limit", "offset":
                guard let number = Int(value) else {
                    return .error(400, "'\(name)' must be a whole number, not '\(value)'", code: "request.invalid")
                }
                if name == "limit" { request.limit = number } else { request.offset = number }
            case _ where name.hasPrefix("$") && name.count > 1:
                guard parameters[String(name.dropFirst())] == nil else {
                    return .error(400, "the parameter '\(name)' is given twice", code: "request.invalid")
                }
                parameters[String(name.dropFirst())] = .text(value)
            default:
                return .json(
                    400,
                    ErrorPayload(
                        error: "unknown query item '\(name)'; use filter, sort, limit, offset or $NAME for a parameter"))
            }
        }
        return await run(request, parameters: parameters, budget: budget)
    }

    /// Answers a decoded request.
    public func handle(_ request: QueryRequest) async -> QueryResponse {
        await run(request, parameters: request.parameters.mapValues { .json($0) }, budget: QueryBudget(timeout: timeout))
    }

    private func run(
        _ request: QueryRequest, parameters: [String: ParameterInput], budget: QueryBudget
    ) async -> QueryResponse {
        let limit = request.limit ?? Self.defaultRows
        guard (0...Self.maximumRows).contains(limit) else {
            return .error(400, "'limit' must be between 0 and \(Self.maximumRows), not \(limit)", code: "request.invalid")
        }
        let offset = request.offset ?? 0
        guard offset >= 0 else {
            return .error(400, "'offset' must not be negative, not \(offset)", code: "request.invalid")
        }

        // The budget bounds checking too: past its deadline the checker stops.
        var limits = Limits.standard
        limits.deadline = budget.deadline
        // The entity alone, then each text field alone: a diagnostic's range is in
        // the text of the field it names.
        let entity = Query(entity: Name(request.entity, span: SourceSpan(start: 0, end: request.entity.utf8.count)))
        var warnings: [FieldDiagnostic] = []
        if let failure = check(entity, field: "entity", text: request.entity, status: 404, limits: limits, warnings: &warnings) {
            return failure
        }
        var query = entity
        if let filter = request.filter {
            let parsed = Parser.parsePredicate(filter, limits: limits)
            guard let predicate = parsed.query?.predicate else {
                return failed("the filter does not parse", parsed.diagnostics, field: "filter", text: filter)
            }
            query.predicate = predicate
            if let failure = check(query, field: "filter", text: filter, status: 400, limits: limits, warnings: &warnings) {
                return failure
            }
        }
        if let sort = request.sort {
            let parsed = Parser.parseSortKeys(sort, limits: limits)
            guard let sortKeys = parsed.query?.sortKeys else {
                return failed("the sort does not parse", parsed.diagnostics, field: "sort", text: sort)
            }
            let sortOnly = Query(entity: Name(request.entity), sortKeys: sortKeys)
            if let failure = check(sortOnly, field: "sort", text: sort, status: 400, limits: limits, warnings: &warnings) {
                return failure
            }
            query.sortKeys = sortKeys
        }
        query.limit = QueryCount(.literal(Int64(limit)))
        query.offset = QueryCount(.literal(Int64(offset)))
        let text = Printer.print(query)
        // One row more than asked for tells whether there is another page.
        query.limit = QueryCount(.literal(Int64(limit) + 1))

        let compiled = QueryCompiler.compile(query, schema: pool.schema, mapping: pool.mapping, limits: limits)
        guard let sql = compiled.compiled, let checked = compiled.checked else {
            return failed("the query cannot run on this store", compiled.diagnostics, field: "filter", text: request.filter ?? "")
        }
        let values: [String: ParameterValue]
        do {
            values = try ParameterBinding.values(for: checked, from: parameters)
        } catch {
            return Self.failure(StoreError(error.message, kind: error.isLimit ? .limitExceeded : .invalidParameter))
        }
        guard idleConnections > 0 || waitingRequests < maximumQueue else {
            return Self.failure(
                StoreError("the service is busy: \(waitingRequests) queries wait for a connection", kind: .poolExhausted))
        }
        do {
            var rows = try await fetch(sql, parameters: values, budget: budget, shape: text)
            let hasMore = rows.count > limit
            rows = Array(rows.prefix(limit))
            return .json(
                200,
                RowsPayload(
                    entity: checked.entity.name, query: text,
                    rows: rows.map { RowEncoding.json($0, columns: sql.columns, schema: pool.schema) },
                    hasMore: hasMore, warnings: warnings.isEmpty ? nil : warnings))
        } catch {
            return Self.failure(error)
        }
    }

    /// Runs a query on its lane. With a slow lane, a query whose shape (its text,
    /// parameters unbound) is not known to be slow runs first on the cheap lane
    /// with `cheapRunTime` (100 ms) of its budget; if it is not done by then it is stopped,
    /// its shape remembered as slow, and it runs again on the slow lane with what
    /// is left of the budget. A shape known to be slow goes to the slow lane at
    /// once, and is forgotten as slow when it runs there within `cheapRunTime`. So
    /// slow queries hold only the slow lane's connections, and a cheap query waits
    /// at most for other cheap ones: the cost is one short wasted run per new slow
    /// shape. The queries are read-only, so running one again changes nothing.
    private func fetch(
        _ sql: CompiledQuery, parameters: [String: ParameterValue], budget: QueryBudget, shape: String
    ) async throws(StoreError) -> [Row] {
        guard let slowPool else { return try await pool.fetch(sql, parameters: parameters, budget: budget) }
        if !shapes.isSlow(shape) {
            var trial = budget
            trial.deadline = min(budget.deadline, .now + Self.cheapRunTime)
            do {
                return try await pool.fetch(sql, parameters: parameters, budget: trial)
            } catch where (error.kind == .timeout || error.kind == .poolExhausted) && .now < budget.deadline {
                // Too slow for the cheap lane (or the cheap lane was full): the slow lane.
                if error.kind == .timeout { shapes.remember(shape, slow: true) }
            }
        }
        let start = ContinuousClock.now
        let rows = try await slowPool.fetch(sql, parameters: parameters, budget: budget)
        if ContinuousClock.now - start < Self.cheapRunTime { shapes.remember(shape, slow: false) }
        return rows
    }

    /// The HTTP status for each kind of store error: the caller's mistakes are 4xx
    /// (413 for a limit, 422 for a value the database cannot compute), a busy store or a spent budget 503 with Retry-After, the
    /// rest 500. A cancelled query's client is gone; it gets 499, nginx's "client
    /// closed request", which nobody reads.
    public static func status(for kind: StoreError.Kind) -> Int {
        switch kind {
        case .limitExceeded: 413
        case .invalidParameter, .patternTooCostly: 400
        case .valueOutOfRange: 422
        case .timeout, .busy, .poolExhausted: 503
        case .cancelled: 499
        case .corrupt, .unavailable, .internal: 500
        }
    }

    static func failure(_ error: StoreError) -> QueryResponse {
        let status = status(for: error.kind)
        var response = QueryResponse.json(status, ErrorPayload(error: error.message, code: error.kind.rawValue))
        if status == 503 { response.headers["Retry-After"] = "\(retryAfterSeconds)" }
        return response
    }

    /// Checks `query`; on errors, the response that reports them; warnings are kept.
    private func check(
        _ query: Query, field: String, text: String, status: Int, limits: Limits, warnings: inout [FieldDiagnostic]
    ) -> QueryResponse? {
        let result = TypeChecker.check(query, schema: pool.schema, limits: limits)
        let errors = result.diagnostics.filter { $0.severity == .error }
        guard errors.isEmpty else {
            let what = field == "entity" ? "the entity is not in this store" : "the \(field) does not type-check"
            return failed(what, result.diagnostics, field: field, text: text, status: status)
        }
        let source = SourceText(text)
        warnings += result.diagnostics.map { FieldDiagnostic($0, field: field, in: source) }
        return nil
    }

    private func failed(
        _ error: String, _ diagnostics: [Diagnostic], field: String, text: String, status: Int = 400
    ) -> QueryResponse {
        if diagnostics.contains(where: { $0.code == .deadlinePassed }) {
            return Self.failure(StoreError("parsing and checking the \(field) used up the request's time budget", kind: .timeout))
        }
        let source = SourceText(text)
        return .json(
            status,
            ErrorPayload(
                error: error, code: status == 404 ? "query.unknownEntity" : "query.invalid",
                diagnostics: diagnostics.map { FieldDiagnostic($0, field: field, in: source) }))
    }

    /// For valid JSON that does not decode: a paging field that is not a whole number
    /// (`"limit": 1.5`), which the decoder reports as invalid JSON.
    private static func misfitNumber(in body: Data) -> String? {
        guard let object = try? JSONSerialization.jsonObject(with: body) as? [String: Any] else { return nil }
        for field in ["limit", "offset"] {
            if let value = object[field], !(value is NSNull), (value as? Int) == nil || value is String {
                return "'\(field)' must be a whole number"
            }
        }
        return nil
    }

    private static func describe(_ error: any Error, in body: Data) -> String {
        func field(_ path: [any CodingKey]) -> String { path.map(\.stringValue).joined(separator: ".") }
        func expected(_ path: [any CodingKey]) -> String {
            switch path.last?.stringValue {
            case "limit", "offset": "a whole number"
            case "parameters": "an object"
            default: "text"
            }
        }
        /// ", not an array": what the field holds, for a top-level field.
        func given(_ path: [any CodingKey]) -> String {
            guard path.count == 1, let kind = RequestFields.topLevelValueKinds(body)[path[0].stringValue] else { return "" }
            return ", not \(kind)"
        }
        switch error {
        case let error as JSONValue.NumberOutOfRange:
            // Where in the parameters: `parameters.min` or `parameters.ids.2`.
            let path = error.path
            let place =
                path.first == "parameters" && path.count >= 2
                ? "parameter '$\(path[1])'" + (path.count > 2 ? " (item \(path[2...].joined(separator: ".")))" : "")
                : "'\(path.joined(separator: "."))'"
            return "\(place) is a number out of range: JSON numbers here must be within ±1.8e308 (a 64-bit double)"
        case DecodingError.keyNotFound(let key, _): return "'\(key.stringValue)' is missing"
        case DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context):
            return "'\(field(context.codingPath))' must be \(expected(context.codingPath))\(given(context.codingPath))"
        case DecodingError.dataCorrupted(let context) where !context.codingPath.isEmpty:
            // A number that does not fit, such as `"limit": 1.5`.
            return "'\(field(context.codingPath))' must be \(expected(context.codingPath))"
        case DecodingError.dataCorrupted: return "it is not valid JSON"
        default: return "\(error)"
        }
    }
}

/// The query shapes last seen running longer than the cheap lane allows, at most
/// `capacity` of them (the oldest is forgotten first), kept as hashes: hostile
/// clients sending endless new shapes, or megabyte-long ones, cannot grow it past
/// a few tens of kilobytes. Two shapes with one hash share a lane, nothing worse.
final class ShapeMemory: @unchecked Sendable {
    private let lock = NSLock()
    private var slow: Set<Int> = []
    private var order: [Int] = []
    let capacity: Int

    init(capacity: Int = 1024) {
        self.capacity = capacity
    }

    func isSlow(_ shape: String) -> Bool {
        let key = shape.hashValue
        return lock.withLock { slow.contains(key) }
    }

    func remember(_ shape: String, slow isSlow: Bool) {
        let key = shape.hashValue
        lock.withLock {
            if isSlow {
                guard slow.insert(key).inserted else { return }
                order.append(key)
                if order.count > capacity { slow.remove(order.removeFirst()) }
            } else if slow.remove(key) != nil {
                order.removeAll { $0 == key }
            }
        }
    }
}
