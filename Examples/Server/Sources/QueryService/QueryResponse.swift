// What the service answers: rows as JSON objects, or an error with diagnostics
// that point into the text the client sent.

import Foundation
import PredicateQuery

/// An HTTP status and a JSON body.
public struct QueryResponse: Sendable {
    public var status: Int
    public var body: Data
    /// Headers beyond the content type, such as `Retry-After` on a 503.
    public var headers: [String: String] = [:]

    /// The body as text, for logs and tests.
    public var text: String { String(decoding: body, as: UTF8.self) }

    static func json(_ status: Int, _ payload: some Encodable) -> QueryResponse {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        let body = (try? encoder.encode(payload)) ?? Data(#"{"error":"the response could not be encoded"}"#.utf8)
        return QueryResponse(status: status, body: body)
    }

    /// An error answer with the stable shape every error has: `error`, and `code` when known.
    public static func error(_ status: Int, _ message: String, code: String? = nil) -> QueryResponse {
        json(status, ErrorPayload(error: message, code: code))
    }
}

/// The body of a successful query.
struct RowsPayload: Encodable {
    var entity: String
    /// The query as pq reads it (filter and sort together, in pq's own spelling).
    var query: String
    var rows: [[String: JSONValue]]
    /// Whether there are more rows after these (fetch the next page with `offset`).
    var hasMore: Bool
    var warnings: [FieldDiagnostic]?
}

/// The body of a failed query.
struct ErrorPayload: Encodable {
    var error: String
    /// A stable code for errors that have one (`query.limitExceeded`, `store.busy`, `http.notFound`, …).
    var code: String?
    var diagnostics: [FieldDiagnostic]?
}

/// A diagnostic with the request field its range points into.
struct FieldDiagnostic: Encodable {
    /// `entity`, `filter`, `sort` or `parameters`.
    var field: String
    var severity: String
    var code: String
    var message: String
    /// UTF-8 offsets into the field's text.
    var range: Diagnostic.JSONForm.Range
    var line: Int
    var column: Int
    var notes: [Diagnostic.JSONForm.Note]
    /// The diagnostic as pq prints it, with the line and a caret under the range.
    var rendered: String

    init(_ diagnostic: Diagnostic, field: String, in source: SourceText) {
        let form = diagnostic.jsonForm(in: source)
        self.field = field
        severity = form.severity.rawValue
        code = form.code
        message = form.message
        range = form.range
        line = form.line
        column = form.column
        notes = form.notes
        rendered = DiagnosticRenderer(fileName: field).render(diagnostic, in: source)
    }
}
