// `pq … | head -1` on a million rows: the real pq binary writes into a pipe whose
// reader closes it after the first line; pq must notice at its next write, stop
// its query and end quietly, killed by SIGPIPE as `cat` or `seq` are there (a
// shell reports status 141 and prints nothing). Before output streamed, pq read
// every row before writing any (32 s for a million rows in a release build).
// On PostgreSQL pq also cancels the statement, so the server is left running none.

import Foundation
import PredicateQueryTestSupport
import Testing

@Suite(.serialized)
struct ClosedPipeTests {
    /// How pq ended, what it printed on standard error, and how long it took.
    struct Ending {
        var reason: Process.TerminationReason
        var status: Int32
        var error: String
        var seconds: Double
        var firstLine: String
    }

    /// Runs pq with `arguments`, reads its output up to the first newline, closes
    /// the pipe, and waits for pq to end (killing it `limit` seconds after the pipe closed).
    static func runClosingAfterOneLine(_ arguments: [String], limit: Double) throws -> Ending {
        let process = Process()
        process.executableURL = PQProcess.executable
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment["PQ_CACHE_DIR"] = PQProcess.cacheDirectory.path
        environment["PQ_HISTORY"] = ""
        process.environment = environment
        let output = Pipe()
        let errors = Pipe()
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        try output.fileHandleForWriting.close()
        var received = Data()
        while !received.contains(UInt8(ascii: "\n")) {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            received += chunk
        }
        try output.fileHandleForReading.close()
        // Timed from when the reader left, as the tests' messages say: how long pq's own
        // start and first line took is not what they hold. (Twice pq ran on to the
        // limit here because a PostgreSQL server another test started had inherited
        // this pipe, so its reader never went: see `PostgresTestServer.closeOtherDescriptors`.)
        let left = Date()
        while process.isRunning, Date().timeIntervalSince(left) < limit { Thread.sleep(forTimeInterval: 0.01) }
        let seconds = Date().timeIntervalSince(left)
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
        }
        process.waitUntilExit()
        try errors.fileHandleForWriting.close()
        let error = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let firstLine = String(decoding: received.prefix(while: { $0 != UInt8(ascii: "\n") }), as: UTF8.self)
        return Ending(
            reason: process.terminationReason, status: process.terminationStatus, error: error, seconds: seconds,
            firstLine: firstLine)
    }

    @Test(
        "pq stops at once and quietly when its reader closes the pipe after one line",
        arguments: ["csv", "table", "json", "markdown"])
    func stopsWhenTheReaderGoes(format: String) throws {
        let store = try LargeStore.path.get()
        // Generous: the machine running the tests may be loaded. Reading every row takes
        // far longer (a debug build decodes a million rows in tens of seconds).
        let limit = 5.0
        let ending = try Self.runClosingAfterOneLine(
            ["--store", store, "--format", format, "item where TRUEPREDICATE"], limit: limit)
        #expect(ending.seconds < limit, "pq ran \(ending.seconds) s after its reader left")
        #expect(!ending.firstLine.isEmpty)
        #expect(ending.error.isEmpty, "pq complained: \(ending.error)")
        #expect(ending.reason == .uncaughtSignal && ending.status == SIGPIPE, "ended \(ending.reason) \(ending.status)")
    }

    #if os(Linux)
        @Test("a query with nothing to print yet stops when the reader goes (Linux: poll tells)")
        func aQueryWithNothingToPrintYetStops() throws {
            let store = try LargeStore.path.get()
            // No row matches: a debug build searches the million rows for 8 s or more,
            // printing nothing after CSV's header (the line the reader takes).
            let limit = 2.0
            let ending = try Self.runClosingAfterOneLine(
                ["--store", store, "--format", "csv", "item where name matches '.*x.*y' || note matches '.*x.*y'"], limit: limit)
            #expect(ending.seconds < limit, "pq ran \(ending.seconds) s after its reader left")
            #expect(ending.firstLine.hasPrefix("#,id,name"))
            #expect(ending.error.isEmpty, "pq complained: \(ending.error)")
            #expect(ending.reason == .uncaughtSignal && ending.status == SIGPIPE, "ended \(ending.reason) \(ending.status)")
        }
    #endif

    @Test("on PostgreSQL pq stops and cancels the statement when its reader closes the pipe")
    func postgresStatementIsCancelled() throws {
        _ = try PostgresTestServer.with { server in
            try PostgresStoreFixture.create("pipe", on: server)
            let url = server.url(database: "pipe")
            let loaded = try PQProcess.run(["--store", url, "--load-examples", "--count", "Budget where TRUEPREDICATE"])
            try #require(loaded.status == 0, "\(loaded.error)")
            let filled = server.run(
                "psql",
                [
                    "-h", server.folder, "-U", "pq", "-d", "pipe", "-c",
                    "INSERT INTO \"Transaction\" (id, amount, note, budget_id) SELECT 100000 + i, i, 'n' || i, 1 FROM generate_series(1, \(LargeStore.rowCount)) i",
                ])
            try #require(filled)
            let limit = 5.0
            let ending = try Self.runClosingAfterOneLine(
                ["--store", url, "--format", "csv", "Transaction where TRUEPREDICATE"], limit: limit)
            #expect(ending.seconds < limit, "pq ran \(ending.seconds) s after its reader left")
            #expect(ending.firstLine.hasPrefix("#,"))
            #expect(ending.error.isEmpty, "pq complained: \(ending.error)")
            #expect(ending.reason == .uncaughtSignal && ending.status == SIGPIPE, "ended \(ending.reason) \(ending.status)")
            #expect(try PostgresInterruptTests.runningQueries(on: server) == 0, "the server still runs the query")
        }
    }
}
