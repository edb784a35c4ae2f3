// The network layer's limits, each held with a slow or broken client over a real
// socket: the header timeout and the body timeout answer 408 in the service's JSON
// error shape and close; the idle timeout closes a connection on which nothing was
// sent; a request HTTP's parser rejects is answered 400 in the same JSON shape.

import Foundation
import Hummingbird
import LoopbackSocket
import QueryService
import Testing

@testable import PQServer

@Suite(.serialized)
struct ServerTimeoutTests {
    /// The JSON body of a raw HTTP answer, after its head.
    private func body(_ answer: String) -> [String: Any] {
        guard let range = answer.range(of: "\r\n\r\n") else { return [:] }
        let data = Data(answer[range.upperBound...].utf8)
        return (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] ?? [:]
    }

    /// What `client` receives until the server closes, read off Swift's task threads.
    private func receive(_ client: RawClient, timeout: Duration) async -> (text: String, closed: Bool) {
        await offTaskThreads { client.receive(timeout: timeout) }
    }

    private func serve(
        _ timeouts: ServerTimeouts, _ body: @escaping @Sendable (Int) async throws -> Void
    ) async throws {
        let service = try QueryService(exampleData: 0)
        try await withLiveServer(application: { queryApplication(service, port: 0, timeouts: timeouts, onServerRunning: $0) }) {
            client in
            try await body(client.port)
        }
    }

    @Test func theDefaultsAreTheREADMEsNumbers() {
        #expect(ServerTimeouts.standard.header == .seconds(10))
        #expect(ServerTimeouts.standard.body == .seconds(30))
        #expect(ServerTimeouts.standard.idle == .seconds(30))
    }

    @Test func aHeadThatComesTooSlowlyIsAnswered408() async throws {
        // The header timeout is 3 s, far above the 100 ms between the pieces of the
        // prompt head: on a loaded machine, a 1 s limit was once exceeded by the pause
        // itself, which made the prompt client look slow.
        try await serve(ServerTimeouts(header: .seconds(3), body: .seconds(10), idle: .seconds(10))) { port in
            // A head sent in pieces, within the header timeout: answered.
            let prompt = try #require(RawClient(port: port))
            prompt.send("GET /entities/Budget?limit=1 HTTP/1.1\r\n")
            try await Task.sleep(for: .milliseconds(100))
            prompt.send("Host: localhost\r\n\r\n")
            let answered = await receive(prompt, timeout: .seconds(5))
            #expect(answered.text.hasPrefix("HTTP/1.1 200"), "\(answered.text)")
            // Half a request line, then nothing.
            let slow = try #require(RawClient(port: port))
            let clock = ContinuousClock()
            let start = clock.now
            slow.send("POST /query HTTP/1.1\r\nHost: loc")
            let answer = await receive(slow, timeout: .seconds(10))
            let after = clock.now - start
            #expect(answer.closed)
            #expect(answer.text.hasPrefix("HTTP/1.1 408"), "\(answer.text)")
            #expect(answer.text.lowercased().contains("content-type: application/json"), "\(answer.text)")
            #expect(body(answer.text)["code"] as? String == "http.requestTimeout")
            #expect((body(answer.text)["error"] as? String)?.contains("head did not arrive within 3 s") == true)
            #expect(after >= .milliseconds(2950) && after < .seconds(8), "answered after \(after)")
        }
    }

    @Test func aBodyThatComesTooSlowlyIsAnswered408() async throws {
        try await serve(ServerTimeouts(header: .seconds(10), body: .milliseconds(400), idle: .seconds(10))) { port in
            let slow = try #require(RawClient(port: port))
            let clock = ContinuousClock()
            slow.send("POST /query HTTP/1.1\r\nHost: localhost\r\nContent-Length: 100\r\n\r\n{\"entity\":")
            let start = clock.now
            let answer = await receive(slow, timeout: .seconds(8))
            let after = clock.now - start
            #expect(answer.closed)
            #expect(answer.text.hasPrefix("HTTP/1.1 408"), "\(answer.text)")
            #expect(body(answer.text)["code"] as? String == "http.requestTimeout")
            #expect((body(answer.text)["error"] as? String)?.contains("body did not arrive within 400 ms") == true)
            #expect(after >= .milliseconds(350) && after < .seconds(5), "answered after \(after)")
        }
    }

    @Test func aConnectionWithNothingSentIsClosedWhenIdle() async throws {
        try await serve(ServerTimeouts(header: .milliseconds(200), body: .milliseconds(200), idle: .milliseconds(800))) {
            port in
            let silent = try #require(RawClient(port: port))
            let clock = ContinuousClock()
            let start = clock.now
            let answer = await receive(silent, timeout: .seconds(8))
            let after = clock.now - start
            #expect(answer.closed)
            #expect(answer.text.isEmpty, "\(answer.text)")
            // The idle timeout, not the shorter header one: no byte started a head.
            #expect(after >= .milliseconds(700) && after < .seconds(5), "closed after \(after)")
        }
    }

    @Test(arguments: [
        "GARBAGE\r\n\r\n",
        "GET /entities/Budget HTTP/1.1\r\nHost: x\r\nContent-Length: lots\r\n\r\n",
        "POST /query HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n",
    ])
    func aRequestHTTPCannotParseIsAJSON400(_ request: String) async throws {
        try await serve(.standard) { port in
            let client = try #require(RawClient(port: port))
            client.send(request)
            let answer = await receive(client, timeout: .seconds(5))
            #expect(answer.text.hasPrefix("HTTP/1.1 400"), "\(answer.text)")
            #expect(answer.text.lowercased().contains("content-type: application/json"), "\(answer.text)")
            #expect(body(answer.text)["code"] as? String == "http.badRequest", "\(answer.text)")
            #expect(answer.closed)
        }
    }
    /// Every stalled request is answered 408, whatever the idle timeout: a partial
    /// body that goes silent (a plain one and a chunked one), with an idle timeout
    /// shorter than the body timeout, and a head begun late on a connection that was
    /// silent for most of the idle timeout. Hummingbird's own idle timer, which the
    /// guard used to leave running, closed these connections without a word.
    @Test(arguments: [
        "POST /query HTTP/1.1\r\nHost: localhost\r\nContent-Length: 100\r\n\r\n{\"entity\":",
        "POST /query HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: chunked\r\n\r\nA\r\n{\"entity\":\r\n",
    ])
    func aSilentPartialBodyIs408EvenPastTheIdleTimeout(_ request: String) async throws {
        try await serve(ServerTimeouts(header: .seconds(10), body: .milliseconds(1500), idle: .milliseconds(300))) { port in
            let slow = try #require(RawClient(port: port))
            let clock = ContinuousClock()
            slow.send(request)
            let start = clock.now
            let answer = await receive(slow, timeout: .seconds(10))
            let after = clock.now - start
            #expect(answer.closed)
            #expect(answer.text.hasPrefix("HTTP/1.1 408"), "\(answer.text)")
            #expect(body(answer.text)["code"] as? String == "http.requestTimeout")
            #expect((body(answer.text)["error"] as? String)?.contains("body did not arrive within 1500 ms") == true)
            #expect(after >= .milliseconds(1400) && after < .seconds(8), "answered after \(after)")
        }
    }

    @Test func aHeadBegunLateIs408NotClosedAtTheIdleDeadline() async throws {
        try await serve(ServerTimeouts(header: .milliseconds(1500), body: .seconds(10), idle: .seconds(1))) { port in
            let late = try #require(RawClient(port: port))
            let clock = ContinuousClock()
            let start = clock.now
            // Silent for 600 ms of the 1 s idle timeout, then half a head.
            try await Task.sleep(for: .milliseconds(600))
            late.send("GET /entities/Budget HTTP/1.1\r\nHo")
            let answer = await receive(late, timeout: .seconds(10))
            let after = clock.now - start
            #expect(answer.closed)
            #expect(answer.text.hasPrefix("HTTP/1.1 408"), "\(answer.text)")
            #expect((body(answer.text)["error"] as? String)?.contains("head did not arrive within 1500 ms") == true)
            // The header clock started with the first byte, at 600 ms.
            #expect(after >= .milliseconds(2000) && after < .seconds(8), "answered after \(after)")
        }
    }
}
