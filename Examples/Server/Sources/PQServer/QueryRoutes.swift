// The HTTP face of QueryService:
//
//   POST /query                 a QueryRequest as JSON
//   GET  /entities/:entity      ?filter=…&sort=…&limit=…&offset=…&$name=value
//
// Every answer is JSON with one shape for errors, `{"error", "code", …}`: rows
// with 200; 400 for a bad request, 404 for an unknown entity or path, 405 for a
// wrong method, 413 for a body over 1 MiB or a query over a limit, 503 (with
// Retry-After) when the store is busy, the queue is full or the budget ran out.
// A client that hangs up cancels its request, which stops its query at once.

import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import QueryService

/// The largest request body the server reads.
public let maximumBodySize = 1 << 20

/// A router with the query routes, answering from `service`, and the middleware
/// that gives every answer a JSON body and logs failures and slow requests.
public func queryRouter(
    _ service: QueryService, slowRequest: Duration = .seconds(1),
    log: @escaping @Sendable (String) -> Void = { FileHandle.standardError.write(Data(($0 + "\n").utf8)) }
) -> Router<BasicRequestContext> {
    let router = Router()
    router.add(middleware: ServiceMiddleware(slowRequest: slowRequest, log: log))
    router.post("query") { request, _ -> Response in
        // Cancelled if the client closes the connection: the query is interrupted.
        try await request.body.consumeWithCancellationOnInboundClose { body in
            let bytes = try await body.collect(upTo: maximumBodySize)
            return jsonResponse(await service.handle(body: Data(bytes.readableBytesView)))
        }
    }
    router.get("entities/:entity") { request, context -> Response in
        let entity = try context.parameters.require("entity")
        let items = formItems(request.uri.query ?? "")
        return try await request.body.consumeWithCancellationOnInboundClose { _ in
            jsonResponse(await service.handle(entity: entity, queryItems: items))
        }
    }
    return router
}

/// The server: the query routes on 127.0.0.1 at `port` (0 for any free one), with
/// `timeouts` for slow and idle clients (see `ServerTimeouts`); `onServerRunning`
/// is told the listening channel (its port, when `port` is 0).
public func queryApplication(
    _ service: QueryService, port: Int, timeouts: ServerTimeouts = .standard,
    log: @escaping @Sendable (String) -> Void = { FileHandle.standardError.write(Data(($0 + "\n").utf8)) },
    onServerRunning: @escaping @Sendable (any Channel) async -> Void = { _ in }
) -> some ApplicationProtocol {
    // No idle timeout of Hummingbird's: the guard runs it (see ConnectionGuard).
    Application(
        router: queryRouter(service, log: log),
        server: .http1(configuration: .init(additionalChannelHandlers: [ConnectionGuard(timeouts: timeouts)])),
        configuration: .init(address: .hostname("127.0.0.1", port: port), serverName: "pq-server"),
        onServerRunning: onServerRunning)
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

func jsonResponse(_ response: QueryResponse) -> Response {
    // Watching for the client to hang up (so that its query stops) ends the
    // connection after the answer; clients are told so.
    var headers: HTTPFields = [.contentType: "application/json; charset=utf-8", .connection: "close"]
    for (name, value) in response.headers.sorted(by: { $0.key < $1.key }) {
        if let field = HTTPField.Name(name) { headers[field] = value }
    }
    return Response(
        status: HTTPResponse.Status(code: response.status), headers: headers,
        body: ResponseBody(byteBuffer: ByteBuffer(bytes: response.body)))
}
