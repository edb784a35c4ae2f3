// A plain SQLite store of a million items, for the tests of streamed output: more
// rows than pq could read in the time those tests allow. Made once (a second or
// two, 30 MB) in the temporary folder and kept there for later runs, which check
// it before using it.

import CSQLite
import Foundation

enum LargeStore {
    /// Rows in the store.
    static let rowCount = 1_000_000

    struct SetupError: Error {
        var message: String
    }

    /// The store's path, made if missing or not as expected.
    static let path: Result<String, SetupError> = {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("pq-cli-tests-large-\(rowCount).sqlite").path
        if count(at: path) == rowCount { return .success(path) }
        // Made under another name and moved into place, so a run beside this one
        // never reads it half made.
        let partial = path + ".\(ProcessInfo.processInfo.processIdentifier)"
        try? FileManager.default.removeItem(atPath: partial)
        var handle: OpaquePointer?
        guard sqlite3_open(partial, &handle) == SQLITE_OK else {
            sqlite3_close(handle)
            return .failure(SetupError(message: "cannot create \(partial)"))
        }
        let sql = """
            CREATE TABLE item (id INTEGER PRIMARY KEY, name TEXT NOT NULL, amount REAL, note TEXT);
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < \(rowCount))
            INSERT INTO item SELECT i, 'item ' || i, (i % 10000) / 100.0, CASE WHEN i % 3 = 0 THEN 'note ' || i END FROM n;
            """
        let status = sqlite3_exec(handle, sql, nil, nil, nil)
        let message = String(cString: sqlite3_errmsg(handle))
        sqlite3_close(handle)
        guard status == SQLITE_OK else { return .failure(SetupError(message: message)) }
        guard rename(partial, path) == 0 else { return .failure(SetupError(message: "cannot move \(partial) to \(path)")) }
        return .success(path)
    }()

    /// The number of items in the store at `path`, or nil if there is none to read.
    private static func count(at path: String) -> Int? {
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        var handle: OpaquePointer?
        defer { sqlite3_close(handle) }
        guard sqlite3_open_v2(path, &handle, SQLITE_OPEN_READONLY, nil) == SQLITE_OK else { return nil }
        var statement: OpaquePointer?
        defer { sqlite3_finalize(statement) }
        guard sqlite3_prepare_v2(handle, "SELECT count(*) FROM item", -1, &statement, nil) == SQLITE_OK,
            sqlite3_step(statement) == SQLITE_ROW
        else { return nil }
        return Int(sqlite3_column_int64(statement, 0))
    }
}
