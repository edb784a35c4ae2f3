// Standard output and standard error, written with write(2). A reader that has
// gone (`pq … | head -1` after its line) shows as EPIPE: the stream notes it,
// drops what follows, and the command stops its query and ends as a closed pipe
// does (see `CommandLineTool`). pq ignores SIGPIPE so that it sees EPIPE instead
// of dying mid-query, and Foundation's `FileHandle.write` is not used because it
// traps (Linux) or raises (Darwin) on a failed write.

import Foundation

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// One of the process's standard streams, written whole or not at all after a failure.
final class StandardStream: @unchecked Sendable {
    static let output = StandardStream(descriptor: STDOUT_FILENO)
    static let error = StandardStream(descriptor: STDERR_FILENO)

    /// How writing has gone so far.
    enum State: Equatable {
        case open
        /// The reader closed its end of the pipe (EPIPE): nothing more can be read.
        case readerGone
        /// A write failed otherwise (a full disk, an I/O error), with its errno.
        case failed(Int32)
    }

    private let descriptor: Int32
    private let lock = NSLock()
    private var current = State.open

    private init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    /// How writing has gone so far.
    var state: State { lock.withLock { current } }

    /// Writes all of `text`, unless an earlier write failed.
    func write(_ text: String) {
        var text = text
        text.withUTF8 { bytes in lock.withLock { writeAll(bytes) } }
    }

    /// Notes that the reader has gone, found without writing (see `ClosedPipeWatch`).
    func markReaderGone() {
        lock.withLock {
            if current == .open { current = .readerGone }
        }
    }

    /// Writes all of `bytes` (UTF-8 text), unless an earlier write failed.
    func write(utf8 bytes: UnsafeRawBufferPointer) {
        lock.withLock { writeAll(bytes.assumingMemoryBound(to: UInt8.self)) }
    }

    private func writeAll(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard current == .open, var next = bytes.baseAddress else { return }
        var remaining = bytes.count
        while remaining > 0 {
            let written = Self.systemWrite(descriptor, next, remaining)
            if written > 0 {
                next += written
                remaining -= written
                continue
            }
            let code = written < 0 ? errno : EIO
            switch code {
            case EINTR: continue
            case EAGAIN, EWOULDBLOCK:
                // A descriptor left non-blocking by whoever opened it: wait until it takes more.
                var waiting = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
                _ = poll(&waiting, 1, -1)
            case EPIPE:
                current = .readerGone
                return
            default:
                current = .failed(code)
                return
            }
        }
    }

    private static func systemWrite(_ descriptor: Int32, _ bytes: UnsafePointer<UInt8>, _ count: Int) -> Int {
        #if canImport(Darwin)
            Darwin.write(descriptor, bytes, count)
        #elseif canImport(Glibc)
            Glibc.write(descriptor, bytes, count)
        #else
            Musl.write(descriptor, bytes, count)
        #endif
    }

    /// Makes a write to a closed pipe fail with EPIPE instead of ending the process,
    /// so that pq can stop its query first.
    static func ignoreBrokenPipeSignal() {
        signal(SIGPIPE, SIG_IGN)
    }

    /// Ends the process as a program whose reader went away does (`cat`, `seq`):
    /// killed by SIGPIPE, quietly, which a shell reports as status 141.
    static func endAsClosedPipe() -> Never {
        signal(SIGPIPE, SIG_DFL)
        raise(SIGPIPE)
        exit(128 + SIGPIPE)
    }
}
