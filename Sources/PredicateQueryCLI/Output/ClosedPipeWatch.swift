// Noticing that standard output's reader has gone while a query has nothing to
// write yet (a sort, or a search of many rows before the first match): on Linux
// poll(2) reports POLLERR for a pipe whose reading end is closed, and a thread
// waiting for that marks the output closed and interrupts the query, which then
// ends as a closed pipe does. That is Linux's documented behaviour for pipes; on
// other systems (not relied on, nor tested) pq finds out at its next write, as
// it does on Linux for output that is not a pipe.

import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Watches standard output for its reader going away while a query runs.
final class ClosedPipeWatch: @unchecked Sendable {
    private let lock = NSLock()
    private var stopped = false

    /// How long one wait lasts before the watch checks whether it was stopped.
    private static let waitMilliseconds: Int32 = 100

    /// Starts watching when standard output is a pipe and the system tells of a
    /// closed one (Linux); `onClosed` then runs on the watching thread. Nil when
    /// there is nothing to watch.
    static func start(onClosed: @escaping @Sendable () -> Void) -> ClosedPipeWatch? {
        #if os(Linux)
            var info = stat()
            guard fstat(STDOUT_FILENO, &info) == 0, info.st_mode & 0o170000 == 0o010000 else { return nil }  // S_IFIFO
            let watch = ClosedPipeWatch()
            Thread.detachNewThread { watch.watch(onClosed) }
            return watch
        #else
            return nil
        #endif
    }

    /// Ends the watch: the query is over.
    func stop() {
        lock.withLock { stopped = true }
    }

    private var isStopped: Bool { lock.withLock { stopped } }

    #if os(Linux)
        private func watch(_ onClosed: @Sendable () -> Void) {
            var entry = pollfd(fd: STDOUT_FILENO, events: 0, revents: 0)
            while !isStopped {
                entry.revents = 0
                guard poll(&entry, 1, Self.waitMilliseconds) > 0 else { continue }
                if entry.revents & Int16(POLLERR) != 0 {
                    guard !isStopped else { return }
                    StandardStream.output.markReaderGone()
                    onClosed()
                    return
                }
                // Anything else (not seen on pipes) ends the watch rather than spin.
                return
            }
        }
    #endif
}
