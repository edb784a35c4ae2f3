// The server's HTTP behaviour on a real socket: every error is JSON in the
// service's shape (404, 405, 413), slow requests and 5xx are logged, and a client
// that hangs up mid-query frees its connection at once.

import Foundation
import Hummingbird
import HummingbirdTesting
import QueryService
import Testing

@testable import PQServer

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Log lines a test collects.
final class LogLines: @unchecked Sendable {
    private let lock = NSLock()
    private var lines: [String] = []
    var all: [String] { lock.withLock { lines } }
    func append(_ line: String) { lock.withLock { lines.append(line) } }
}

struct HTTPBehaviourTests {
    private func application(
        _ service: QueryService, log: LogLines = LogLines(), slow: Duration = .seconds(1)
    )
        -> some ApplicationProtocol
    {
        Application(
            router: queryRouter(service, slowRequest: slow, log: { log.append($0) }),
            configuration: .init(address: .hostname("127.0.0.1", port: 0)))
    }

    private func json(_ buffer: ByteBuffer) -> [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(String(buffer: buffer).utf8))) as? [String: Any] ?? [:]
    }

    @Test func frameworkErrorsAreJSONToo() async throws {
        let service = try QueryService(exampleData: 0)
        try await application(service).test(.live) { client in
            try await client.execute(uri: "/nothing", method: .get) { response in
                #expect(response.status == .notFound)
                #expect(response.headers[.contentType] == "application/json; charset=utf-8")
                #expect(json(response.body)["code"] as? String == "http.notFound")
            }
        }
        try await application(service).test(.live) { client in
            try await client.execute(uri: "/query", method: .get) { response in
                #expect(response.status == .methodNotAllowed)
                #expect(response.headers[.allow] == "POST")
                #expect(json(response.body)["code"] as? String == "http.methodNotAllowed")
            }
        }
        try await application(service).test(.live) { client in
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
        try await application(service, log: log, slow: .zero).test(.live) { client in
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
        try await application(service).test(.live) { client in
            let port = try #require(client.port)
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

/// A bare TCP client, to hang up mid-request as a browser or a killed script does.
final class RawClient: @unchecked Sendable {
    private var descriptor: Int32

    init?(port: Int) {
        #if canImport(Glibc)
            descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
            descriptor = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard descriptor >= 0 else { return nil }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let status = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard status == 0 else {
            _ = Glibc.close(descriptor)
            return nil
        }
    }

    func send(_ text: String) {
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
    }

    /// Everything the server sends until it closes the connection, and whether it
    /// closed it within `timeout`.
    func receive(timeout: Duration) -> (text: String, closed: Bool) {
        let seconds = Int(timeout.components.seconds)
        let micros = Int(timeout.components.attoseconds / 1_000_000_000_000)
        var limit = timeval(tv_sec: seconds, tv_usec: micros)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count > 0 {
                received += buffer[0..<count]
                continue
            }
            return (String(decoding: received, as: UTF8.self), count == 0 || errno == ECONNRESET)
        }
    }

    func close() {
        guard descriptor >= 0 else { return }
        _ = Glibc.close(descriptor)
        descriptor = -1
    }

    deinit { close() }
}
