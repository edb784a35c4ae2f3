// The routes on a real socket: a live Hummingbird server on a free port, asked
// over HTTP as a client would.

import Foundation
import Hummingbird
import NIOCore
@testable import PQServer
import QueryService
import Testing

struct QueryRoutesTests {
    private func application(
        onServerRunning: @escaping @Sendable (any Channel) async -> Void
    ) throws -> some ApplicationProtocol {
        Application(
            router: queryRouter(try QueryService(exampleData: 0)),
            configuration: .init(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: onServerRunning)
    }

    @Test func postQueryAnswersWithJSONRows() async throws {
        try await withLiveServer(application: { try application(onServerRunning: $0) }) { client in
            let body = #"{"entity": "Budget", "filter": "limit >= 1500", "sort": "limit"}"#
            try await client.execute(uri: "/query", method: .post, body: ByteBuffer(string: body)) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "application/json; charset=utf-8")
                let text = String(buffer: response.body)
                #expect(text.contains(#""name":"Vacation""#))
                #expect(text.contains(#""name":"Emergency""#))
                #expect(!text.contains(#""name":"Rent""#))
            }
        }
    }

    @Test func queryStringsAreReadAsFormsWriteThem() {
        let items = formItems("filter=limit+%2B+1+%3E+%24min&%24min=3&sort=&flag")
        #expect(items.map(\.name) == ["filter", "$min", "sort", "flag"])
        #expect(items.map(\.value) == ["limit + 1 > $min", "3", "", ""])
    }

    @Test func getTakesTheQueryFromTheURL() async throws {
        // Each answer ends its connection (the server watches for clients hanging up),
        // so each request has a client of its own.
        try await withLiveServer(application: { try application(onServerRunning: $0) }) { client in
            // filter=limit > $min, sort=name desc; the parameter's `$` percent-encoded.
            let uri = "/entities/Budget?filter=limit%20%3E%20%24min&sort=name%20desc&%24min=1000"
            try await client.execute(uri: uri, method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.connection] == "close")
                let rows = try JSONSerialization.jsonObject(with: Data(String(buffer: response.body).utf8)) as? [String: Any]
                let names = (rows?["rows"] as? [[String: Any]])?.compactMap { $0["name"] as? String }
                #expect(names == ["Vacation", "Travel", "Rent", "Emergency"])
            }
        }
        try await withLiveServer(application: { try application(onServerRunning: $0) }) { client in
            try await client.execute(uri: "/entities/Budget?filter=limit%20%3E%20'x'", method: .get) { response in
                #expect(response.status == .badRequest)
                #expect(String(buffer: response.body).contains(#""code":"check.typeMismatch""#))
            }
        }
        try await withLiveServer(application: { try application(onServerRunning: $0) }) { client in
            try await client.execute(uri: "/entities/Nothing", method: .get) { response in
                #expect(response.status == .notFound)
                #expect(String(buffer: response.body).contains(#""code":"query.unknownEntity""#))
            }
        }
    }
}
