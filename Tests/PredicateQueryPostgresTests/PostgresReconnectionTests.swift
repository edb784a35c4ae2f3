// PostgreSQL comes back (issue 23, item 3): a server restarted under a connected
// store and pool (a fast shutdown ends every session, as a restart or a failover
// does): the next query connects again, once, with a note, and answers as before;
// the session keeps its statement timeout and the pool's read-only setting. While
// the server is down, a query fails saying so; the one after it is up succeeds.

import Foundation
import PredicateQuery
import PredicateQueryExamples
import PredicateQueryStore
import PredicateQueryTestSupport
import Testing

@testable import PredicateQueryPostgres

@Suite(.serialized)
struct PostgresReconnectionTests {
    /// Notes a store's reconnections, from whatever thread it calls.
    final class Notes: @unchecked Sendable {
        private let lock = NSLock()
        private var notes: [String] = []
        func append(_ note: String) { lock.withLock { notes.append(note) } }
        var all: [String] { lock.withLock { notes } }
    }

    @Test func aStoreConnectsAgainAfterTheServerRestartsAndKeepsItsSettings() throws {
        _ = try PostgresTestServer.with { server in
            let url = try PostgresStorePoolTests.exampleDatabase(on: server)
            let store = try PostgresStore.open(url)
            let notes = Notes()
            store.reconnectionHandler = { notes.append($0) }
            store.timeout = .seconds(7)
            try store.keepSessionSetting("SET application_name = 'pq-reconnection-test'")
            let query = try #require(store.compile("Budget where limit > 100 sort by name").compiled)
            let before = try store.fetch(query).map(\.id)
            #expect(!before.isEmpty)

            #expect(server.restart(), "the server did not come back")
            #expect(try store.fetch(query).map(\.id) == before)
            #expect(store.reconnectionCount == 1)
            #expect(notes.all.count == 1 && notes.all.first?.contains("connected again") == true, "\(notes.all)")
            let settings = try store.connection.query(
                "SELECT current_setting('statement_timeout'), current_setting('application_name'), current_setting('jit')")
            // jit off: pq's long exact-arithmetic expressions cost PostgreSQL's JIT tens of seconds to compile.
            #expect(settings.first == ["7s", "pq-reconnection-test", "off"], "\(settings)")
            // Once only: the next queries use the new connection.
            #expect(try store.count(try #require(store.compile("Budget where limit > 100").compiled)) > 0)
            #expect(store.reconnectionCount == 1)
        }
    }

    @Test func whileTheServerIsDownAQueryFailsSayingSoAndTheNextOneAfterSucceeds() throws {
        _ = try PostgresTestServer.with { server in
            let url = try PostgresStorePoolTests.exampleDatabase(on: server)
            let store = try PostgresStore.open(url)
            let query = try #require(store.compile("Budget where limit > 100").compiled)
            let before = try store.fetch(query).count
            #expect(server.run("pg_ctl", ["stop", "-w", "-m", "fast", "-D", server.folder + "/data"]))
            do throws(StoreError) {
                _ = try store.fetch(query)
                Issue.record("a query answered with the server down")
            } catch {
                #expect(error.kind == .unavailable, "\(error)")
                #expect(error.message.contains("connecting again failed"), "\(error.message)")
            }
            #expect(
                server.run(
                    "pg_ctl",
                    ["start", "-w", "-D", server.folder + "/data", "-l", server.folder + "/log", "-o", server.serverOptions]))
            #expect(try store.fetch(query).count == before)
        }
    }

    @Test func aPoolConnectsAgainAfterTheServerRestarts() async throws {
        _ = try await PostgresTestServer.withAsync { server in
            let url = try await PostgresTestServer.offTaskThreads { try PostgresStorePoolTests.exampleDatabase(on: server) }
            let pool = try PostgresStorePool(url, size: 2)
            let query = try #require(pool.compile("Budget where limit > 100 sort by name").compiled)
            let before = try await pool.fetch(query, budget: QueryBudget(timeout: .seconds(10)))
            #expect(await PostgresTestServer.offTaskThreads { server.restart() })
            for _ in 0..<4 {
                #expect(try await pool.fetch(query, budget: QueryBudget(timeout: .seconds(10))).count == before.count)
            }
            // The sessions made again are read-only, as the pool's were.
            do {
                try await pool.withStore(budget: QueryBudget(timeout: .seconds(10))) { store throws(StoreError) in
                    try store.execute("DELETE FROM \"Budget\"")
                }
                Issue.record("a session made again wrote")
            } catch let error as StoreError {
                #expect(error.message.contains("read-only"), "\(error)")
            }
        }
    }
}
