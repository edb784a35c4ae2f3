// The service: a request's entity, filter, sort and parameters become one pq query,
// checked part by part so every diagnostic points into the field it came from,
// then run on the store.

import Foundation
import PredicateQuery
import PredicateQueryExamples
import PredicateQuerySQLite

/// Answers query requests from one SQLite store. An actor: SQLite connections are
/// used by one thread at a time.
public actor QueryService {
    /// Rows returned when the request names no limit.
    public static let defaultRows = 100
    /// The most rows one request may ask for.
    public static let maximumRows = 1000
    /// How long one query may run before SQLite is interrupted.
    public static let timeout: Duration = .seconds(2)

    private let store: SQLiteStore

    /// Serves the store at `path`, opened read-only.
    public init(storeAt path: String) throws {
        store = try SQLiteStore.open(at: path, readOnly: true)
        store.timeout = Self.timeout
    }

    /// Serves pq's example data (budgets, movies, snippets, …) from a store in memory.
    public init(exampleData fillerPerEntity: Int = 300) throws {
        store = try SQLiteStore.create(at: ":memory:", schema: ExampleSchemas.combined)
        try store.insert(ExampleData.graph(fillerPerEntity: fillerPerEntity))
        store.timeout = Self.timeout
    }

    /// Answers a `POST /query` body: a `QueryRequest` as JSON.
    public func handle(body: Data) -> QueryResponse {
        let request: QueryRequest
        do {
            request = try JSONDecoder().decode(QueryRequest.self, from: body)
        } catch {
            return .json(400, ErrorPayload(error: "the body is not a query request: \(Self.describe(error))"))
        }
        return run(request, parameters: request.parameters.mapValues { .json($0) })
    }

    /// Answers `GET /:entity?filter=…&sort=…&limit=…&offset=…&$name=value`: the
    /// parameters come as text and take the types the query gives them.
    public func handle(entity: String, queryItems: [(name: String, value: String)]) -> QueryResponse {
        var request = QueryRequest(entity: entity)
        var parameters: [String: ParameterInput] = [:]
        for (name, value) in queryItems {
            switch name {
            case "filter": request.filter = value
            case "sort": request.sort = value
            case "limit", "offset":
                guard let number = Int(value) else {
                    return .json(400, ErrorPayload(error: "'\(name)' must be a whole number, not '\(value)'"))
                }
                if name == "limit" { request.limit = number } else { request.offset = number }
            case _ where name.hasPrefix("$") && name.count > 1:
                parameters[String(name.dropFirst())] = .text(value)
            default:
                return .json(
                    400,
                    ErrorPayload(
                        error: "unknown query item '\(name)'; use filter, sort, limit, offset or $NAME for a parameter"))
            }
        }
        return run(request, parameters: parameters)
    }

    /// Answers a decoded request.
    public func handle(_ request: QueryRequest) -> QueryResponse {
        run(request, parameters: request.parameters.mapValues { .json($0) })
    }

    private func run(_ request: QueryRequest, parameters: [String: ParameterInput]) -> QueryResponse {
        let limit = request.limit ?? Self.defaultRows
        guard (0...Self.maximumRows).contains(limit) else {
            return .json(400, ErrorPayload(error: "'limit' must be between 0 and \(Self.maximumRows), not \(limit)"))
        }
        let offset = request.offset ?? 0
        guard offset >= 0 else {
            return .json(400, ErrorPayload(error: "'offset' must not be negative, not \(offset)"))
        }

        // The entity alone, then each text field alone: a diagnostic's range is in
        // the text of the field it names.
        let entity = Query(entity: Name(request.entity, span: SourceSpan(start: 0, end: request.entity.utf8.count)))
        var warnings: [FieldDiagnostic] = []
        if let failure = check(entity, field: "entity", text: request.entity, status: 404, warnings: &warnings) {
            return failure
        }
        var query = entity
        if let filter = request.filter {
            let parsed = Parser.parsePredicate(filter)
            guard let predicate = parsed.query?.predicate else {
                return failed("the filter does not parse", parsed.diagnostics, field: "filter", text: filter)
            }
            query.predicate = predicate
            if let failure = check(query, field: "filter", text: filter, status: 400, warnings: &warnings) {
                return failure
            }
        }
        if let sort = request.sort {
            let parsed = Parser.parseSortKeys(sort)
            guard let sortKeys = parsed.query?.sortKeys else {
                return failed("the sort does not parse", parsed.diagnostics, field: "sort", text: sort)
            }
            let sortOnly = Query(entity: Name(request.entity), sortKeys: sortKeys)
            if let failure = check(sortOnly, field: "sort", text: sort, status: 400, warnings: &warnings) {
                return failure
            }
            query.sortKeys = sortKeys
        }
        query.limit = QueryCount(.literal(Int64(limit)))
        query.offset = QueryCount(.literal(Int64(offset)))
        let text = Printer.print(query)
        // One row more than asked for tells whether there is another page.
        query.limit = QueryCount(.literal(Int64(limit) + 1))

        let compiled = QueryCompiler.compile(query, schema: store.schema, mapping: store.mapping)
        guard let sql = compiled.compiled, let checked = compiled.checked else {
            return failed("the query cannot run on this store", compiled.diagnostics, field: "filter", text: request.filter ?? "")
        }
        let values: [String: ParameterValue]
        do {
            values = try ParameterBinding.values(for: checked, from: parameters)
        } catch {
            return .json(400, ErrorPayload(error: error.message))
        }
        do {
            var rows = try store.fetch(sql, parameters: values)
            let hasMore = rows.count > limit
            rows = Array(rows.prefix(limit))
            return .json(
                200,
                RowsPayload(
                    entity: checked.entity.name, query: text,
                    rows: rows.map { RowEncoding.json($0, columns: sql.columns, schema: store.schema) },
                    hasMore: hasMore, warnings: warnings.isEmpty ? nil : warnings))
        } catch {
            let status = error.code == 9 ? 503 : 500  // SQLITE_INTERRUPT: the timeout stopped it
            return .json(status, ErrorPayload(error: error.message))
        }
    }

    /// Checks `query`; on errors, the response that reports them; warnings are kept.
    private func check(
        _ query: Query, field: String, text: String, status: Int, warnings: inout [FieldDiagnostic]
    ) -> QueryResponse? {
        let result = TypeChecker.check(query, schema: store.schema)
        let errors = result.diagnostics.filter { $0.severity == .error }
        guard errors.isEmpty else {
            let what = field == "entity" ? "the entity is not in this store" : "the \(field) does not type-check"
            return failed(what, result.diagnostics, field: field, text: text, status: status)
        }
        warnings += result.diagnostics.map { FieldDiagnostic($0, field: field, text: text) }
        return nil
    }

    private func failed(
        _ error: String, _ diagnostics: [Diagnostic], field: String, text: String, status: Int = 400
    ) -> QueryResponse {
        .json(status, ErrorPayload(error: error, diagnostics: diagnostics.map { FieldDiagnostic($0, field: field, text: text) }))
    }

    private static func describe(_ error: any Error) -> String {
        switch error {
        case DecodingError.keyNotFound(let key, _): "'\(key.stringValue)' is missing"
        case DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context):
            "'\(context.codingPath.map(\.stringValue).joined(separator: "."))' has the wrong type"
        case DecodingError.dataCorrupted: "it is not valid JSON"
        default: "\(error)"
        }
    }
}
