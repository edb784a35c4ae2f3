// The throwaway server the tests start holds none of the test process's
// descriptors. It once held, for the rest of a run, the pipes other tests had
// open when it started: a pq whose reader closed such a pipe never saw the reader
// go, and a reader waiting for the end of a pipe would wait for the server.

import Foundation
import PredicateQueryTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

struct PostgresTestServerTests {
    @Test func theServerHoldsNoneOfTheTestProcesssPipes() throws {
        let pipe = Pipe()
        _ = try PostgresTestServer.with { _ in
            // The server started while the pipe was open. With the test's writing end
            // closed, the reading end sees the pipe hang up only if no process the
            // server started holds a writing end of its own.
            try pipe.fileHandleForWriting.close()
            var entry = pollfd(fd: pipe.fileHandleForReading.fileDescriptor, events: Int16(POLLIN), revents: 0)
            let ready = poll(&entry, 1, 5_000)
            #expect(ready == 1 && entry.revents & Int16(POLLHUP) != 0, "the server holds the pipe's writing end")
        }
    }
}
