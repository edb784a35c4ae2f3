// What the network layer does for the service before a request reaches a route:
// a client that sends its request head too slowly (header timeout) or its body too
// slowly (body timeout) is answered 408 and disconnected, and a request HTTP's
// parser rejects is answered 400; both in the service's JSON error shape, where
// Hummingbird alone would answer 400 with an empty body and close a slow client
// without a word. A connection with no request in progress is closed after the
// idle timeout.
//
// The guard runs all three clocks itself, the idle one included: Hummingbird's
// idle timer counts from the last whole request part, so when it ran beside the
// guard it could close a connection whose head or body had stalled, silently,
// before the guard's 408 (a partial body and the 30 s body and idle timeouts
// raced; a connection silent for most of the idle timeout and then sent half a
// head was closed at the idle deadline). Now only the guard's clocks run, one at a
// time, and a stalled request always ends in a 408.
//
// The guard sits after Hummingbird's HTTP decoder, so it sees requests as parts
// (head, body, end) and learns that bytes arrived from `channelReadComplete`,
// which the decoder passes on even when the bytes make no part yet: the first
// bytes of a head start the header clock.

import Foundation
import HTTPTypes
import NIOCore
import NIOHTTP1
import NIOHTTPTypes
import QueryService

/// The server's timeouts for a client's connection.
public struct ServerTimeouts: Sendable {
    /// From a request's first byte to the end of its head (request line and headers).
    public var header: Duration
    /// From the end of a request's head to the end of its body.
    public var body: Duration
    /// A connection with no request in progress: nothing sent since it opened or since its last answer.
    public var idle: Duration

    public init(header: Duration = .seconds(10), body: Duration = .seconds(30), idle: Duration = .seconds(30)) {
        self.header = header
        self.body = body
        self.idle = idle
    }

    /// 10 s for a head, 30 s for a body, 30 s idle.
    public static let standard = ServerTimeouts()

    /// "10 s", "250 ms": a timeout in a message.
    static func describe(_ duration: Duration) -> String {
        let milliseconds = duration.components.seconds * 1000 + duration.components.attoseconds / 1_000_000_000_000_000
        return milliseconds % 1000 == 0 ? "\(milliseconds / 1000) s" : "\(milliseconds) ms"
    }
}

final class ConnectionGuard: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    private enum State {
        /// No request in progress.
        case idle
        case readingHead
        case readingBody
        /// The request is whole; the route answers.
        case answering
        /// The guard answered and closed the connection; nothing more goes out.
        case closed
    }

    private let timeouts: ServerTimeouts
    private var state = State.idle
    private var responseStarted = false
    private var timer: Scheduled<Void>?

    init(timeouts: ServerTimeouts) {
        self.timeouts = timeouts
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { startIdleClock(context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        startIdleClock(context)
        context.fireChannelActive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard state != .closed else { return }
        switch unwrapInboundIn(data) {
        case .head:
            state = .readingBody
            startClock(timeouts.body, context, "the request's body did not arrive within")
        case .body:
            break
        case .end:
            state = .answering
            stopClock()
        }
        context.fireChannelRead(data)
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        // Bytes came that made no whole head yet: the header clock starts.
        if state == .idle {
            state = .readingHead
            startClock(timeouts.header, context, "the request's head did not arrive within")
        }
        context.fireChannelReadComplete()
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        guard state != .closed else {
            promise?.fail(ChannelError.ioOnClosedChannel)
            return
        }
        switch unwrapOutboundIn(data) {
        case .head: responseStarted = true
        case .body: break
        case .end:
            responseStarted = false
            if state == .answering {
                state = .idle
                startIdleClock(context)
            }
        }
        context.write(data, promise: promise)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        guard error is HTTPParserError, state != .closed, !responseStarted else {
            context.fireErrorCaught(error)
            return
        }
        answer(
            .error(400, "the request is not valid HTTP/1.1: \(error)", code: "http.badRequest"), context)
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        stopClock()
    }

    /// Nothing in progress: the connection is closed, without an answer, after the idle timeout.
    private func startIdleClock(_ context: ChannelHandlerContext) {
        guard state == .idle else { return }
        stopClock()
        let loop = context.eventLoop.assumeIsolatedUnsafeUnchecked()
        timer = loop.scheduleTask(in: Self.amount(timeouts.idle)) { [self] in
            timer = nil
            guard state == .idle else { return }
            state = .closed
            context.close(promise: nil)
        }
    }

    private static func amount(_ duration: Duration) -> TimeAmount {
        .nanoseconds(duration.components.seconds * 1_000_000_000 + duration.components.attoseconds / 1_000_000_000)
    }

    private func startClock(_ limit: Duration, _ context: ChannelHandlerContext, _ what: String) {
        stopClock()
        let loop = context.eventLoop.assumeIsolatedUnsafeUnchecked()
        timer = loop.scheduleTask(in: Self.amount(limit)) { [self] in
            timer = nil
            guard state == .readingHead || state == .readingBody, !responseStarted else { return }
            answer(
                .error(408, "\(what) \(ServerTimeouts.describe(limit))", code: "http.requestTimeout"), context)
        }
    }

    private func stopClock() {
        timer?.cancel()
        timer = nil
    }

    /// Sends `response` and closes the connection; the route's answer, if one comes, is dropped.
    private func answer(_ response: QueryResponse, _ context: ChannelHandlerContext) {
        stopClock()
        state = .closed
        let fields: HTTPFields = [
            .contentType: "application/json; charset=utf-8", .connection: "close",
            .contentLength: "\(response.body.count)",
        ]
        let head = HTTPResponse(status: HTTPResponse.Status(code: response.status), headerFields: fields)
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        context.write(wrapOutboundOut(.body(ByteBuffer(bytes: response.body))), promise: nil)
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
        context.close(promise: nil)
    }
}
