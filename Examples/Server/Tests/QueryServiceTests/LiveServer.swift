// A live server for a test: the application on a free port of 127.0.0.1 for the
// length of the test, asked over a plain socket as curl asks (one request per
// connection, `Connection: close`, the answer read until the server closes).
//
// Written here instead of taken from HummingbirdTesting: its live client brings
// AsyncHTTPClient, SwiftNIO's TLS and HTTP/2 and BoringSSL into the build, which
// took about 120 of the 250 s this package needed to build in pq's CI, for the
// twenty lines of HTTP/1.1 these tests speak.

import Foundation
import HTTPTypes
import Hummingbird
import LoopbackSocket
import NIOCore
import ServiceLifecycle
import Testing

/// The port a server was given, as its `onServerRunning` tells it.
private final class ServerPort: Sendable {
    private let ports: AsyncStream<Int?>
    private let continuation: AsyncStream<Int?>.Continuation

    init() {
        (ports, continuation) = AsyncStream.makeStream(of: Int?.self)
    }

    /// Called from `Application(onServerRunning:)` with the bound channel's port.
    func told(_ port: Int?) {
        continuation.yield(port)
    }

    /// Called when the server stopped, so that nobody waits for a port that never comes.
    func stopped() {
        continuation.finish()
    }

    /// The port, or nil when the server stopped before it listened.
    func wait() async -> Int? {
        for await port in ports { return port }
        return nil
    }
}

/// Why a live test could not ask its server.
struct LiveServerError: Error, CustomStringConvertible {
    var description: String
}

/// Runs the application `makeApplication` builds (handing its `onServerRunning`
/// to `Application`) until `body` returns, then stops it.
func withLiveServer<App: ApplicationProtocol, Value>(
    application makeApplication: (_ onServerRunning: @escaping @Sendable (any Channel) async -> Void) throws -> App,
    _ body: (LiveClient) async throws -> Value
) async throws -> Value {
    let port = ServerPort()
    let application = try makeApplication { channel in port.told(channel.localAddress?.port) }
    // In a service group of its own, so that it stops as a deployed server does: by a
    // graceful shutdown, which lets the connections it is answering finish.
    let group = ServiceGroup(configuration: .init(services: [application], logger: application.logger))
    return try await withThrowingTaskGroup(of: Void.self) { tasks in
        tasks.addTask {
            defer { port.stopped() }
            try await group.run()
        }
        guard let number = await port.wait() else {
            // The server stopped before it listened: its error says why.
            try await tasks.waitForAll()
            throw LiveServerError(description: "the server stopped before it listened on a port")
        }
        do {
            let value = try await body(LiveClient(port: number))
            await group.triggerGracefulShutdown()
            return value
        } catch {
            await group.triggerGracefulShutdown()
            throw error
        }
    }
}

/// Asks a live server over HTTP/1.1.
struct LiveClient: Sendable {
    let port: Int

    /// Sends one request on a connection of its own and hands the answer to `check`.
    @discardableResult
    func execute<Value>(
        uri: String, method: HTTPRequest.Method, body: ByteBuffer? = nil, _ check: (LiveResponse) async throws -> Value
    ) async throws -> Value {
        let content = body.map { Array($0.readableBytesView) } ?? []
        let length = body == nil ? "" : "Content-Length: \(content.count)\r\n"
        let request = "\(method.rawValue) \(uri) HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\(length)\r\n"
        let port = port
        let answer = await offTaskThreads { () -> Result<[UInt8], LiveServerError> in
            guard let connection = RawClient(port: port) else {
                return .failure(LiveServerError(description: "cannot connect to port \(port)"))
            }
            // A server may answer before the body is all sent (413) and close: what it
            // answered is still read.
            if connection.send(request) { connection.send(content) }
            let (bytes, closed) = connection.receiveBytes(timeout: .seconds(20))
            return closed ? .success(bytes) : .failure(LiveServerError(description: "no answer within 20 s"))
        }
        return try await check(try LiveResponse(parsing: answer.get()))
    }
}

/// `work`'s result, with `work` run on a dispatch thread: a blocking read or write on one of
/// Swift's few task threads could stall the server it waits for.
func offTaskThreads<Result: Sendable>(_ work: @escaping @Sendable () -> Result) async -> Result {
    await withCheckedContinuation { continuation in
        DispatchQueue.global().async { continuation.resume(returning: work()) }
    }
}

/// An HTTP/1.1 answer: its status, its header fields and its body.
struct LiveResponse: Sendable {
    var status: HTTPResponse.Status
    var headers: HTTPFields
    var body: ByteBuffer

    /// Reads an answer as the server sent it, up to its close.
    init(parsing bytes: [UInt8]) throws {
        let separator: [UInt8] = Array("\r\n\r\n".utf8)
        guard let end = bytes.indices.first(where: { bytes[$0...].starts(with: separator) }) else {
            throw LiveServerError(description: "the answer has no end of head: \(String(decoding: bytes, as: UTF8.self))")
        }
        let lines = String(decoding: bytes[..<end], as: UTF8.self).components(separatedBy: "\r\n")
        let statusLine = lines[0].split(separator: " ", maxSplits: 2)
        guard statusLine.count >= 2, statusLine[0].hasPrefix("HTTP/1."), let code = Int(statusLine[1]) else {
            throw LiveServerError(description: "not an HTTP/1 status line: \(lines[0])")
        }
        status = HTTPResponse.Status(code: code)
        headers = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":"), let name = HTTPField.Name(String(line[..<colon])) else {
                throw LiveServerError(description: "not a header field: \(line)")
            }
            headers.append(HTTPField(name: name, value: line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)))
        }
        var content = Array(bytes[(end + separator.count)...])
        if headers[.transferEncoding]?.lowercased() == "chunked" {
            content = try Self.dechunked(content)
        } else if let length = headers[.contentLength].flatMap({ Int($0) }) {
            guard content.count >= length else {
                throw LiveServerError(description: "the body has \(content.count) of its \(length) bytes")
            }
            content = Array(content.prefix(length))
        }
        body = ByteBuffer(bytes: content)
    }

    /// A chunked body's content.
    private static func dechunked(_ bytes: [UInt8]) throws -> [UInt8] {
        var content: [UInt8] = []
        var index = 0
        while true {
            guard let lineEnd = bytes[index...].firstIndex(of: UInt8(ascii: "\r")),
                let size = Int(String(decoding: bytes[index..<lineEnd].prefix { $0 != UInt8(ascii: ";") }, as: UTF8.self), radix: 16)
            else { throw LiveServerError(description: "a chunk without its size") }
            let start = lineEnd + 2
            if size == 0 { return content }
            guard start + size <= bytes.count else { throw LiveServerError(description: "a chunk cut short") }
            content += bytes[start..<(start + size)]
            index = start + size + 2
            guard index <= bytes.count else { throw LiveServerError(description: "a chunk cut short") }
        }
    }
}
