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
            // The session runs on a thread of its own (see `TerminalSession.waitFor`).
            let (answers, status, text) = try await TerminalSession.offTaskThreads { () throws -> ([Bool], Int32, String) in
                let session = try TerminalSession(pq: ["--store", url, "--count"])
                defer { session.kill() }
                var answers = [session.waitFor("pq> ")]
                session.type("Budget where TRUEPREDICATE\r")
                answers.append(session.waitFor("pq> ", count: 2))
                answers.append(server.restart())
                session.type("Budget where TRUEPREDICATE\r")
                answers.append(session.waitFor("pq> ", count: 3))
                session.type("Budget where TRUEPREDICATE\r")
                answers.append(session.waitFor("pq> ", count: 4))
                session.type(".quit\r")
                let status = session.finish()
                return (answers, status, session.text)
            }
            #expect(answers == [true, true, true, true, true], "prompts, restart, answers: \(answers)\n\(text)")
            #expect(status == 0)
            #expect(text.components(separatedBy: "\r\n\(count)\r\n").count - 1 == 3, "\(text)")
            #expect(text.components(separatedBy: "pq: note: the connection to PostgreSQL was lost").count - 1 == 1, "\(text)")
            #expect(!text.contains("no connection to the server"), "\(text)")
        }
    }
}
