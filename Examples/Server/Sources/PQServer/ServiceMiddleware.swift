// What every route shares: errors the framework raises (no such path, a wrong
// method, a body too large) answered as JSON in the service's error shape, and a
// log line for every 5xx and every request slower than a threshold.

import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import QueryService

struct ServiceMiddleware<Context: RequestContext>: RouterMiddleware {
    let slowRequest: Duration
    let log: @Sendable (String) -> Void

    /// The paths the service answers, and the method each takes.
    static func allowedMethod(for path: String) -> String? {
        if path == "/query" { return "POST" }
        if path.hasPrefix("/entities/"), path.count > "/entities/".count { return "GET" }
        return nil
    }

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        let start = ContinuousClock.now
        var response: Response
        do {
            response = try await next(request, context)
        } catch let error as HTTPError {
            response = errorResponse(error, for: request)
        } catch is NIOTooManyBytesError {
            // A body over the limit, read through the stream that watches for hang-ups.
            response = errorResponse(HTTPError(.contentTooLarge), for: request)
        } catch is CancellationError {
            // The client hung up; nobody reads this.
            response = jsonResponse(.error(499, "the client closed the request", code: "query.cancelled"))
        } catch {
            response = jsonResponse(.error(500, "internal error: \(error)", code: "store.internal"))
        }
        let elapsed = ContinuousClock.now - start
        let status = response.status.code
        if status >= 500 || elapsed > slowRequest {
            let milliseconds = elapsed.components.seconds * 1000 + elapsed.components.attoseconds / 1_000_000_000_000_000
            log("pq-server: \(status) \(request.method) \(request.uri.path) \(milliseconds) ms")
        }
        return response
    }

    private func errorResponse(_ error: HTTPError, for request: Request) -> Response {
        switch error.status {
        case .notFound:
            if let allowed = Self.allowedMethod(for: request.uri.path) {
                var response = jsonResponse(
                    .error(405, "\(request.uri.path) takes \(allowed), not \(request.method)", code: "http.methodNotAllowed"))
                response.headers[.allow] = allowed
                return response
            }
            return jsonResponse(
                .error(
                    404, "no such path: \(request.uri.path); use POST /query or GET /entities/NAME",
                    code: "http.notFound"))
        case .contentTooLarge:
            return jsonResponse(
                .error(413, "the body is larger than \(maximumBodySize) bytes", code: "http.contentTooLarge"))
        default:
            return jsonResponse(
                .error(error.status.code, error.body ?? error.status.reasonPhrase, code: "http.\(error.status.code)"))
        }
    }
}
