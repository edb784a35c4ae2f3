// Ctrl-C on PostgreSQL: the `pq` binary, on a live throwaway server, stops a
// slow query through PostgreSQL's cancel request. A single query ends with pq's
// interrupt status and message (as on SQLite); in the REPL (on a terminal, made
// with `script`) the session goes on to the next query. Afterwards the server
// runs no query: the backend stopped, not only pq. Skips with a notice when no
// server can be started. Each test waits (for pq, the server and its own sleeps:
// most of its 2 to 12 seconds) on a thread of its own, not on one of Swift's few
// task threads, so that other tests run meanwhile. Each has a server of its own,
// so they run side by side: one after another, their 45 s of mostly sleeping (CI's
// 50 Ctrl-Cs) began only when a task thread came free for each, and the suite ended
// some 17 s after every other in a CI run.

import Foundation
import PredicateQueryTestSupport
import Testing

struct PostgresInterruptTests {
    /// Each of 20,000 transactions of one budget compared with every other: minutes of work.
    static let slowQuery = "Transaction where SUBQUERY(budget.transactions, $t, $t.amount > amount).@count > 1000000"

    /// The example data and 20,000 more transactions in budget 1, in database `name`.
    static func slowDatabase(_ name: String, on server: PostgresTestServer) throws -> String {
        try PostgresStoreFixture.create(name, on: server)
        let url = server.url(database: name)
        let loaded = try PQProcess.run(["--store", url, "--load-examples", "--count", "Budget where TRUEPREDICATE"])
        try #require(loaded.status == 0, "\(loaded.error)")
        let filled = server.run(
            "psql",
            [
                "-h", server.folder, "-U", "pq", "-d", name, "-c",
                "INSERT INTO \"Transaction\" (id, amount, note, budget_id) SELECT 100000 + i, i, 'n' || i, 1 FROM generate_series(1, 20000) i",
            ])
        try #require(filled)
        return url
    }

    /// How many statements other than its own the server is running.
    static func runningQueries(on server: PostgresTestServer) throws -> Int {
        let asked = server.run(
            "psql",
            [
                "-h", server.folder, "-U", "pq", "-d", "postgres", "-t", "-A", "-c",
                "SELECT count(*) FROM pg_stat_activity WHERE state = 'active' AND pid <> pg_backend_pid()",
            ])
        try #require(asked)
        let text = try String(contentsOfFile: server.folder + "/psql.out", encoding: .utf8)
        return try #require(Int(text.trimmingCharacters(in: .whitespacesAndNewlines)))
    }

    @Test("Ctrl-C stops a query on PostgreSQL through the cancel request")
    func ctrlCStopsTheQuery() async throws {
        _ = try await PostgresTestServer.withAsync { server in
            let (result, elapsed, running) = try await PostgresTestServer.offTaskThreads {
                () throws -> (PQResult, Duration, Int) in
                let url = try Self.slowDatabase("slow", on: server)
                let clock = ContinuousClock()
                var result = PQResult(status: -1, output: "", error: "")
                let elapsed = try clock.measure {
                    result = try PQProcess.run(["--store", url, Self.slowQuery], interruptingAfter: .milliseconds(1500))
                }
                return (result, elapsed, try Self.runningQueries(on: server))
            }
            #expect(result.status == 1)
            #expect(result.error == "error: the query was interrupted\n", "\(result.error)")
            #expect(elapsed < .seconds(5), "stopping took \(elapsed)")
            #expect(running == 0, "the server still runs the query")
        }
    }

    /// SIGTERM and SIGHUP: pq sends the cancel request before it exits, so no backend
    /// goes on running its query for minutes.
    @Test("SIGTERM and SIGHUP cancel the query on the server before pq exits", arguments: [SIGTERM, SIGHUP])
    func terminationCancelsTheQueryOnTheServer(_ signal: Int32) async throws {
        _ = try await PostgresTestServer.withAsync { server in
            let (result, running) = try await PostgresTestServer.offTaskThreads { () throws -> (PQResult, Int) in
                let url = try Self.slowDatabase("slow", on: server)
                let result = try PQProcess.run(
                    ["--store", url, Self.slowQuery], interruptingAfter: .milliseconds(1500), with: signal)
                // The backend notices the cancel at its next check; give it a moment.
                var running = try Self.runningQueries(on: server)
                for _ in 0..<20 where running > 0 {
                    Thread.sleep(forTimeInterval: 0.1)
                    running = try Self.runningQueries(on: server)
                }
                return (result, running)
            }
            #expect(result.status == 128 + signal, "\(result.error)")
            #expect(running == 0, "the server still runs the query after pq ended")
        }
    }

    /// `REPLInterruptTests.rounds` Ctrl-Cs (50 in CI) in one REPL session on a terminal,
    /// each during a slow query: every one cancels its query on the server and the
    /// session goes on.
    @Test("Ctrl-Cs in one PostgreSQL REPL session (50 in CI) are every one honoured")
    func everyCtrlCInOneSessionIsHonoured() async throws {
        guard TerminalSession.isAvailable else {
            print("notice: no /usr/bin/script to give pq a terminal; skipping the REPL Ctrl-C test")
            return
        }
        _ = try await PostgresTestServer.withAsync { server in
            let url = try await PostgresTestServer.offTaskThreads { try Self.slowDatabase("fifty", on: server) }
            // The session runs on a thread of its own (see `TerminalSession.waitFor`).
            let (prompt, honoured, running, status, text) = try await TerminalSession.offTaskThreads {
                () throws -> (Bool, Int, Int, Int32, String) in
                let session = try TerminalSession(pq: ["--store", url, "--count"])
                defer { session.kill() }
                let prompt = session.waitFor("pq> ")
                var honoured = 0
                for round in 1...REPLInterruptTests.rounds {
                    session.type(Self.slowQuery + "\r")
                    Thread.sleep(forTimeInterval: 0.2)
                    session.type("\u{03}")
                    guard session.waitFor("the query was interrupted", count: round, timeout: .seconds(10)) else { break }
                    honoured += 1
                    _ = session.waitFor("pq> ", count: round + 1)
                }
                let running = try Self.runningQueries(on: server)
                session.type(".quit\r")
                return (prompt, honoured, running, session.finish(), session.text)
            }
            #expect(prompt, "no prompt: \(text.prefix(500))")
            #expect(honoured == REPLInterruptTests.rounds, "\(honoured) of \(REPLInterruptTests.rounds) Ctrl-Cs honoured:\n\(text.suffix(2000))")
            #expect(running == 0, "the server still runs a query")
            #expect(status == 0)
        }
    }

    /// A cancel from outside pq (pg_cancel_backend from another session) says so, rather
    /// than calling itself a statement timeout.
    @Test("a cancel from outside pq is reported as one")
    func aCancelFromOutsideSaysSo() async throws {
        _ = try await PostgresTestServer.withAsync { server in
            let result = try await PostgresTestServer.offTaskThreads { () throws -> PQResult in
                let url = try Self.slowDatabase("slow", on: server)
                let canceller = Thread {
                    Thread.sleep(forTimeInterval: 1.5)
                    _ = server.run(
                        "psql",
                        [
                            "-h", server.folder, "-U", "pq", "-d", "postgres", "-t", "-A", "-c",
                            "SELECT pg_cancel_backend(pid) FROM pg_stat_activity WHERE state = 'active' AND pid <> pg_backend_pid()",
                        ])
                }
                canceller.start()
                return try PQProcess.run(["--store", url, Self.slowQuery])
            }
            #expect(result.status == 1)
            #expect(
                result.error
                    == "error: the query was cancelled by a request from outside pq (PostgreSQL: canceling statement due to user request)\n",
                "\(result.error)")
        }
    }

    @Test("Ctrl-C in the REPL on PostgreSQL stops the query and keeps the session")
    func ctrlCInTheREPLKeepsTheSession() async throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/script") else {
            print("notice: no /usr/bin/script to give pq a terminal; skipping the REPL Ctrl-C test")
            return
        }
        _ = try await PostgresTestServer.withAsync { server in
            let (runningBefore, runningAfter, text, status) = try await PostgresTestServer.offTaskThreads {
                () throws -> (Int, Int, String, Int32) in
                let url = try Self.slowDatabase("repl", on: server)
                let process = Process()
                process.executableURL = URL(fileURLWithPath: "/usr/bin/script")
                // `exec`: pq replaces the shell `script` starts. A shell left waiting
                // (dash, when SHELL is /bin/sh or unset) is in the terminal's foreground
                // group too, dies of the same Ctrl-C once pq exits, and `script -e`
                // then reports 130 for a session that ended well.
                let command = "exec '\(PQProcess.executable.path)' --store '\(url)'"
                process.arguments = ["-q", "-f", "-e", "-c", command, "/dev/null"]
                var environment = ProcessInfo.processInfo.environment
                environment["SHELL"] = "/bin/sh"
                environment["PQ_HISTORY"] = ""
                environment["PQ_CACHE_DIR"] = PQProcess.cacheDirectory.path
                process.environment = environment
                let input = Pipe()
                let output = Pipe()
                process.standardInput = input
                process.standardOutput = output
                process.standardError = output
                try process.run()
                func type(_ text: String) { input.fileHandleForWriting.write(Data(text.utf8)) }
                Thread.sleep(forTimeInterval: 1)
                type(Self.slowQuery + "\r")
                Thread.sleep(forTimeInterval: 2)
                let runningBefore = try Self.runningQueries(on: server)
                // Ctrl-C, as the terminal sends it.
                type("\u{03}")
                Thread.sleep(forTimeInterval: 1)
                let runningAfter = try Self.runningQueries(on: server)
                type("Movie where name == 'Frozen'\r")
                Thread.sleep(forTimeInterval: 1)
                type(".quit\r")
                try input.fileHandleForWriting.close()
                let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
                process.waitUntilExit()
                return (runningBefore, runningAfter, text, process.terminationStatus)
            }
            #expect(runningBefore == 1, "the slow query was not running: \(text)")
            #expect(runningAfter == 0, "the server still runs the query: \(text)")
            #expect(text.contains("error: the query was interrupted"), "\(text)")
            let afterInterrupt = text.components(separatedBy: "the query was interrupted").last ?? ""
            #expect(afterInterrupt.contains("Frozen"), "the session did not go on: \(text)")
            #expect(status == 0)
        }
    }
}
