// The HTTP face of QueryService:
//
//   POST /query                 a QueryRequest as JSON
//   GET  /entities/:entity      ?filter=…&sort=…&limit=…&offset=…&$name=value
//
// Every answer is JSON: rows with status 200, or an error (400 for a bad request,
// 404 for an unknown entity, 503 when a query runs past the service's timeout)
// whose diagnostics point into the request's filter or sort text.

import Foundation
import Hummingbird
import QueryService

/// The largest request body the server reads.
public let maximumBodySize = 1 << 20

/// A router with the query routes, answering from `service`.
public func queryRouter(_ service: QueryService) -> Router<BasicRequestContext> {
    let router = Router()
    router.post("query") { request, _ -> Response in
        let body = try await request.body.collect(upTo: maximumBodySize)
        return jsonResponse(await service.handle(body: Data(body.readableBytesView)))
    }
    router.get("entities/:entity") { request, context -> Response in
        let entity = try context.parameters.require("entity")
        return jsonResponse(await service.handle(entity: entity, queryItems: formItems(request.uri.query ?? "")))
    }
    return router
}

/// The items of a query string as HTML forms and `curl --data-urlencode` write it:
/// `+` is a space, so pq's `+` operator travels as `%2B`.
func formItems(_ query: String) -> [(name: String, value: String)] {
    query.split(separator: "&").map { item in
        let parts = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
        func decoded(_ part: Substring) -> String {
            let spaced = part.replacingOccurrences(of: "+", with: " ")
            return spaced.removingPercentEncoding ?? spaced
        }
        return (name: decoded(parts[0]), value: parts.count > 1 ? decoded(parts[1]) : "")
    }
}

private func jsonResponse(_ response: QueryResponse) -> Response {
    Response(
        status: HTTPResponse.Status(code: response.status),
        headers: [.contentType: "application/json; charset=utf-8"],
        body: ResponseBody(byteBuffer: ByteBuffer(bytes: response.body)))
}
