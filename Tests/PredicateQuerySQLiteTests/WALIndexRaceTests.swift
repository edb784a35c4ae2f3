// A read of a live WAL store that starts while a writer rewrites the WAL index
// header (see `WALIndexRace`): SQLite fails it with SQLITE_READONLY_RECOVERY, and
// pq starts it again. The race itself lasts microseconds; these tests hold the
// `-shm` in the state a reader sees during it (the header's two copies differ, no
// writer holds the write lock) by changing one byte of the second copy, and put it
// back from another thread a little later, as the writer would finish. Without the
// retry, each test fails with "attempt to write a readonly database".
//
// The writer is the sqlite3 shell in a process of its own, as an app is: a
// connection in pq's own process would share its `-shm` mapping with pq's reader,
// which could then rebuild the header itself, and the race would not show.

import Foundation
import PredicateQuery
import Testing

@testable import PredicateQuerySQLite

@Suite struct WALIndexRaceTests {
    static let shell = "/usr/bin/sqlite3"

    /// A WAL store of three rows, held open by the sqlite3 shell (so its `-wal` and
    /// `-shm` exist and a reader reads it live through them).
    final class Store {
        let folder: URL
        let path: String
        let writer = Process()
        let input = Pipe()

        init() throws {
            folder = FileManager.default.temporaryDirectory.appendingPathComponent("pq-wal-index-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            path = folder.appendingPathComponent("items.sqlite").path
            do {
                let setUp = try SQLiteConnection(path: path, readOnly: false, create: true)
                try setUp.execute(
                    "PRAGMA journal_mode = WAL; CREATE TABLE item(name TEXT); INSERT INTO item VALUES ('a'), ('b'), ('c')")
            }
            let output = Pipe()
            writer.executableURL = URL(fileURLWithPath: WALIndexRaceTests.shell)
            writer.arguments = [path]
            writer.standardInput = input
            writer.standardOutput = output
            try writer.run()
            // Its first read opens the -wal and -shm; its answer says it has.
            try input.fileHandleForWriting.write(contentsOf: Data("SELECT count(*) FROM item;\n".utf8))
            let answer = output.fileHandleForReading.availableData
            #expect(String(decoding: answer, as: UTF8.self) == "3\n")
            #expect(FileManager.default.fileExists(atPath: path + "-shm"))
        }

        deinit {
            try? input.fileHandleForWriting.close()
            writer.waitUntilExit()
            try? FileManager.default.removeItem(at: folder)
        }

        /// Offset of a byte in the second copy of the WAL index header (48 bytes
        /// each, at offsets 0 and 48): its change counter.
        static let secondCopyByte: UInt64 = 48 + 8

        /// Makes the header's two copies differ, as they do while a writer writes
        /// them; returns the byte replaced.
        func tearHeader() throws -> UInt8 {
            let shm = try #require(FileHandle(forReadingAtPath: path + "-shm"))
            defer { try? shm.close() }
            try shm.seek(toOffset: Self.secondCopyByte)
            let byte = try #require(try shm.read(upToCount: 1)?.first)
            try Self.write(byte ^ 0xFF, intoSHM: path + "-shm")
            return byte
        }

        /// Puts the byte back: the writer finished its header.
        func mendHeader(_ byte: UInt8) throws {
            try Self.write(byte, intoSHM: path + "-shm")
        }

        /// Mends the header after `delay` on a thread of its own.
        func mendHeader(_ byte: UInt8, after delay: TimeInterval) {
            let shm = path + "-shm"
            Thread.detachNewThread {
                Thread.sleep(forTimeInterval: delay)
                try? Self.write(byte, intoSHM: shm)
            }
        }

        /// Writes `byte` over the one at `secondCopyByte` of the `-shm` at `path`.
        static func write(_ byte: UInt8, intoSHM path: String) throws {
            guard let shm = FileHandle(forUpdatingAtPath: path) else { throw CocoaError(.fileNoSuchFile) }
            defer { try? shm.close() }
            try shm.seek(toOffset: secondCopyByte)
            try shm.write(contentsOf: [byte])
        }
    }

    static func count(_ statement: SQLiteStatement) throws -> Value {
        #expect(try statement.step())
        return statement.column(0)
    }

    static var hasShell: Bool {
        guard FileManager.default.isExecutableFile(atPath: shell) else {
            print("notice: no \(shell) to write the store from another process; skipping the WAL index race tests")
            return false
        }
        return true
    }

    @Test func aStatementStartingMidHeaderIsStartedAgain() throws {
        guard Self.hasShell else { return }
        let store = try Store()
        let reader = try SQLiteConnection(path: store.path, readOnly: true)
        guard case .uri(let uri) = reader.plan else {
            Issue.record("the store was not read live: \(String(describing: reader.plan))")
            return
        }
        #expect(uri.hasSuffix("readonly_shm=1"))
        #expect(try Self.count(reader.prepare("SELECT count(*) FROM item")) == .int(3))  // schema read
        let statement = try reader.prepare("SELECT count(*) FROM item")
        let byte = try store.tearHeader()
        store.mendHeader(byte, after: 0.05)
        #expect(try Self.count(statement) == .int(3))
    }

    @Test func aFirstReadOfTheSchemaMidHeaderIsStartedAgain() throws {
        guard Self.hasShell else { return }
        let store = try Store()
        let reader = try SQLiteConnection(path: store.path, readOnly: true)
        let byte = try store.tearHeader()
        store.mendHeader(byte, after: 0.05)
        // Preparing reads the schema: that read meets the torn header first.
        #expect(try Self.count(reader.prepare("SELECT count(*) FROM item")) == .int(3))
    }

    @Test func aHeaderThatStaysUnreadableIsReportedAfterTheBusyTimeout() throws {
        guard Self.hasShell else { return }
        let store = try Store()
        let reader = try SQLiteConnection(path: store.path, readOnly: true)
        reader.busyTimeout = .milliseconds(300)
        #expect(try Self.count(reader.prepare("SELECT count(*) FROM item")) == .int(3))
        let statement = try reader.prepare("SELECT count(*) FROM item")
        let byte = try store.tearHeader()
        do {
            _ = try statement.step()
            Issue.record("a read through an unreadable WAL index answered")
        } catch {
            // It waited the busy timeout (the message says how long), not a moment.
            #expect(error.message.contains(/whose index was unreadable for [3-9][0-9]{2} ms/), "\(error.message)")
            #expect(error.message.contains("only a connection that may write the store can rebuild it"))
            #expect(error.kind == .unavailable)
        }
        // Once the header reads again, so does the store, on the same connection.
        try store.mendHeader(byte)
        #expect(try Self.count(statement) == .int(3))
    }
}
