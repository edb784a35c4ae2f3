// The REPL on PostgreSQL across a server restart (issue 23, item 3): pq used to
// answer "no connection to the server" to every query after one. The next query
// connects again, prints a note once, and answers as before.

import Foundation
import PredicateQueryTestSupport
import Testing

@Suite(.serialized)
struct PostgresReconnectionCommandLineTests {
    @Test func theREPLConnectsAgainAfterTheServerRestarts() async throws {
        guard TerminalSession.isAvailable else {
            print("notice: no /usr/bin/script to give pq a terminal; skipping the REPL reconnection test")
            return
        }
        _ = try await PostgresTestServer.withAsync { server in
            try PostgresStoreFixture.create("restart", on: server)
            let url = server.url(database: "restart")
            let loaded = try PQProcess.run(["--store", url, "--load-examples", "--count", "Budget where TRUEPREDICATE"])
            try #require(loaded.status == 0, "\(loaded.error)")
            let count = loaded.output.trimmingCharacters(in: .whitespacesAndNewlines)
            let session = try TerminalSession(pq: ["--store", url, "--count"])
            defer { session.kill() }
            #expect(await session.waitFor("pq> "), "no prompt: \(session.text)")
            session.type("Budget where TRUEPREDICATE\r")
            #expect(await session.waitFor("pq> ", count: 2))
            #expect(await PostgresTestServer.offTaskThreads { server.restart() }, "the server did not come back")
            session.type("Budget where TRUEPREDICATE\r")
            #expect(await session.waitFor("pq> ", count: 3), "\(session.text)")
            session.type("Budget where TRUEPREDICATE\r")
            #expect(await session.waitFor("pq> ", count: 4), "\(session.text)")
            session.type(".quit\r")
            #expect(await session.finish() == 0)
            let text = session.text
            #expect(text.components(separatedBy: "\r\n\(count)\r\n").count - 1 == 3, "\(text)")
            #expect(text.components(separatedBy: "pq: note: the connection to PostgreSQL was lost").count - 1 == 1, "\(text)")
            #expect(!text.contains("no connection to the server"), "\(text)")
        }
    }
}
