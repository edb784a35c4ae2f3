// The server's HTTP behaviour on a real socket: every error is JSON in the
// service's shape (404, 405, 413), slow requests and 5xx are logged, and a client
// that hangs up mid-query frees its connection at once.

import Foundation
import Hummingbird
import LoopbackSocket
import NIOCore
import QueryService
import Testing

@testable import PQServer

/// Log lines a test collects.
final class LogLines: @unchecked Sendable {
    private let lock = NSLock()
    private var lines: [String] = []
    var all: [String] { lock.withLock { lines } }
    func append(_ line: String) { lock.withLock { lines.append(line) } }
}

struct HTTPBehaviourTests {
    private func application(
        _ service: QueryService, log: LogLines = LogLines(), slow: Duration = .seconds(1),
        onServerRunning: @escaping @Sendable (any Channel) async -> Void
    )
        -> some ApplicationProtocol
    {
        Application(
            router: queryRouter(service, slowRequest: slow, log: { log.append($0) }),
            configuration: .init(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: onServerRunning)
    }

    private func json(_ buffer: ByteBuffer) -> [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(String(buffer: buffer).utf8))) as? [String: Any] ?? [:]
    }

    @Test func frameworkErrorsAreJSONToo() async throws {
        let service = try QueryService(exampleData: 0)
        try await withLiveServer(application: { application(service, onServerRunning: $0) }) { client in
            try await client.execute(uri: "/nothing", method: .get) { response in
                #expect(response.status == .notFound)
                #expect(response.headers[.contentType] == "application/json; charset=utf-8")
                #expect(json(response.body)["code"] as? String == "http.notFound")
            }
        }
        try await withLiveServer(application: { application(service, onServerRunning: $0) }) { client in
            try await client.execute(uri: "/query", method: .get) { response in
                #expect(response.status == .methodNotAllowed)
                #expect(response.headers[.allow] == "POST")
                #expect(json(response.body)["code"] as? String == "http.methodNotAllowed")
            }
        }
        try await withLiveServer(application: { application(service, onServerRunning: $0) }) { client in
            let big = ByteBuffer(string: #"{"entity": "Budget", "filter": ""# + String(repeating: "x", count: 1 << 20) + #""}"#)
            try await client.execute(uri: "/query", method: .post, body: big) { response in
                #expect(response.status == .contentTooLarge)
                #expect(json(response.body)["code"] as? String == "http.contentTooLarge", "\(String(buffer: response.body))")
            }
        }
    }

    @Test func slowRequestsAreLogged() async throws {
        let service = try QueryService(exampleData: 0)
        let log = LogLines()
        try await withLiveServer(application: { application(service, log: log, slow: .zero, onServerRunning: $0) }) { client in
            try await client.execute(uri: "/query", method: .post, body: ByteBuffer(string: #"{"entity": "Budget"}"#)) {
                response in
                #expect(response.status == .ok)
            }
        }
        #expect(log.all.contains { $0.hasPrefix("pq-server: 200 POST /query ") && $0.hasSuffix(" ms") })
    }

    @Test func aClientThatHangsUpFreesItsConnectionAtOnce() async throws {
        // 20,000 transactions in one budget, and a query that compares each with
        // every other: minutes of work, stopped only by the client leaving.
        let file = try ExampleStoreFile()
        try file.addTransactions(20_000)
        let service = try QueryService(storeAt: file.path, connections: 2, timeout: .seconds(20))
        let body = String(decoding: ExampleStoreFile.slowRequest, as: UTF8.self)
        try await withLiveServer(application: { application(service, onServerRunning: $0) }) { client in
            let port = client.port
            let socket = try #require(RawClient(port: port))
            socket.send("POST /query HTTP/1.1\r\nHost: localhost\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)")
            // The query starts, holds a connection…
            let clock = ContinuousClock()
            let sent = clock.now
            while service.idleConnections == 2, clock.now - sent < .seconds(10) { try await Task.sleep(for: .milliseconds(5)) }
            #expect(service.idleConnections == 1)
            try await Task.sleep(for: .milliseconds(200))
            #expect(service.idleConnections == 1)
            // …and the client leaves.
            socket.close()
            let closed = clock.now
            while service.idleConnections < 2, clock.now - closed < .seconds(10) { try await Task.sleep(for: .milliseconds(1)) }
            let freed = clock.now - closed
            print("HTTPBehaviourTests: the connection was free \(freed) after the client hung up")
            #expect(service.idleConnections == 2)
            #expect(freed < .seconds(2), "took \(freed)")
        }
    }
}
