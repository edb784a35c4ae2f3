// A bare TCP client on 127.0.0.1: it sends exactly the bytes it is given and reads
// until the server closes. The tests use it to be the slow, broken or vanishing
// client a server meets (a head in pieces, a body that never comes, a hang-up
// mid-query) and to ask plain HTTP/1.1 questions as curl would; pq-load, to send
// its requests.

import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One connection to a port of 127.0.0.1, used from one thread at a time.
public final class RawClient: @unchecked Sendable {
    private var descriptor: Int32

    /// A connection to `port` on 127.0.0.1, or nil when it cannot be made.
    public init?(port: Int) {
        #if canImport(Glibc)
            descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
            descriptor = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard descriptor >= 0 else { return nil }
        #if canImport(Darwin)
            // A write after the server closed fails with EPIPE instead of killing the test process.
            var on: Int32 = 1
            setsockopt(descriptor, SOL_SOCKET, SO_NOSIGPIPE, &on, socklen_t(MemoryLayout<Int32>.size))
        #endif
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
            close()
            return nil
        }
    }

    /// Sends `text`; returns whether all of it was sent (a server that has closed
    /// the connection takes no more).
    @discardableResult
    public func send(_ text: String) -> Bool {
        send(Array(text.utf8))
    }

    /// Sends `bytes`; returns whether all of them were sent.
    @discardableResult
    public func send(_ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes { rest -> Int in
                guard let start = rest.baseAddress else { return 0 }
                #if canImport(Glibc)
                    return Glibc.send(descriptor, start, rest.count, Int32(MSG_NOSIGNAL))
                #else
                    return Darwin.send(descriptor, start, rest.count, 0)
                #endif
            }
            if sent > 0 {
                offset += sent
            } else if sent < 0, errno == EINTR {
                continue
            } else {
                return false
            }
        }
        return true
    }

    /// Everything the server sends until it closes the connection, and whether it
    /// closed it within `timeout`.
    public func receive(timeout: Duration) -> (text: String, closed: Bool) {
        let (bytes, closed) = receiveBytes(timeout: timeout)
        return (String(decoding: bytes, as: UTF8.self), closed)
    }

    /// The bytes the server sends until it closes the connection, and whether it
    /// closed it within `timeout`.
    public func receiveBytes(timeout: Duration) -> (bytes: [UInt8], closed: Bool) {
        let seconds = Int(timeout.components.seconds)
        let micros = Int(timeout.components.attoseconds / 1_000_000_000_000)
        var limit = timeval(tv_sec: seconds, tv_usec: .init(micros))
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count > 0 {
                received += buffer[0..<count]
                continue
            }
            if count < 0, errno == EINTR { continue }
            return (received, count == 0 || errno == ECONNRESET)
        }
    }

    /// Hangs up.
    public func close() {
        guard descriptor >= 0 else { return }
        #if canImport(Glibc)
            _ = Glibc.close(descriptor)
        #else
            _ = Darwin.close(descriptor)
        #endif
        descriptor = -1
    }

    deinit { close() }
}
