// Errors that name the real cause (issue 23, item 5): a folder, a FIFO and a device
// are refused before SQLite opens them (a FIFO used to hang pq); a file that is not
// SQLite, one cut short, and one whose header says more pages than it holds are
// told apart (all were "not a SQLite database" or "disk I/O error"). Both ways of
// opening a store say the same.

import Foundation
import PredicateQuery
import PredicateQueryExamples
import Testing

@testable import PredicateQuerySQLite

struct StoreFileDiagnosisTests {
    /// A real store of the example data, written to `path`, and its bytes.
    static func realStore(at path: String) throws -> Data {
        let store = try SQLiteStore.create(at: path, schema: ExampleSchemas.combined)
        try store.insert(ExampleData.graph())
        withExtendedLifetime(store) {}
        return try Data(contentsOf: URL(fileURLWithPath: path))
    }

    /// The error each way of opening `path` gives; both must agree.
    static func openingError(_ path: String) -> StoreError? {
        var first: StoreError?
        do { _ = try SQLiteStore.open(at: path) } catch { first = error }
        var warnings: [String] = []
        do {
            _ = try SQLiteStore.open(at: path, warnings: &warnings)
            Issue.record("opened without a model: \(path)")
        } catch {
            #expect(error.message == first?.message, "the two ways of opening disagree")
        }
        return first
    }

    @Test func whatIsNotARegularFileIsRefusedBeforeOpening() throws {
        let directory = try TemporaryDirectory()
        let folder = directory.path("folder.sqlite")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        let fifo = directory.path("fifo.sqlite")
        #expect(mkfifo(fifo, 0o644) == 0)
        let clock = ContinuousClock()
        let start = clock.now
        for (path, expected) in [
            (folder, "'\(folder)' is a folder, not a store file"),
            (fifo, "'\(fifo)' is a FIFO (a named pipe), not a store file: pq reads only regular files"),
            ("/dev/null", "'/dev/null' is a device, not a store file: pq reads only regular files"),
            (directory.path("missing.sqlite"), "no store at '\(directory.path("missing.sqlite"))'"),
        ] {
            let error = Self.openingError(path)
            #expect(error?.message == expected)
            #expect(error?.kind == .unavailable)
        }
        #expect(clock.now - start < .seconds(5), "opening a FIFO waited")
    }

    @Test func notSQLiteTruncatedAndDamagedAreToldApart() throws {
        let directory = try TemporaryDirectory()
        let bytes = try Self.realStore(at: directory.path("good.sqlite"))
        let cases: [(name: String, content: Data, message: String)] = [
            ("text.sqlite", Data("hello, this is text and not a database at all".utf8), "is not a SQLite database (it does not begin with SQLite's header)"),
            ("header.sqlite", bytes.prefix(60), "is truncated: it ends inside SQLite's 100-byte header (60 bytes)"),
            ("half.sqlite", bytes.prefix(bytes.count / 2), "is truncated: its header says it holds \(bytes.count) bytes, the file has \(bytes.count / 2) (a copy cut short?)"),
        ]
        for (name, content, message) in cases {
            let path = directory.path(name)
            try content.write(to: URL(fileURLWithPath: path))
            let error = Self.openingError(path)
            #expect(error?.message == "'\(path)' " + message, "\(name)")
            #expect(error?.kind == .corrupt, "\(name)")
        }
        // The header of a whole store declares exactly its size.
        #expect(StoreFileDiagnosis.declaredSize([UInt8](bytes.prefix(100))) == UInt64(bytes.count))
    }

    @Test func aFilePqMayNotReadSaysSo() throws {
        // Root reads whatever the permissions say: run the check as another user only where it is not root.
        guard getuid() != 0 else {
            print("notice: running as root, which reads any file; the permission check is tested by the CLI as 'nobody'")
            return
        }
        let directory = try TemporaryDirectory()
        let path = directory.path("locked.sqlite")
        _ = try Self.realStore(at: path)
        chmod(path, 0)
        defer { chmod(path, 0o644) }
        #expect(Self.openingError(path)?.message == "cannot read '\(path)': permission denied")
    }
}
