// A plain SQLite store of a million items, made once per test run, for the tests
// of streamed output: more rows than pq could read in the time those tests allow.

import CSQLite
import Foundation

enum LargeStore {
    /// Rows in the store.
    static let rowCount = 1_000_000

    struct SetupError: Error {
        var message: String
    }

    /// The store's path, made on first use (a second or two).
    static let path: Result<String, SetupError> = {
        let path = PQProcess.cacheDirectory.appendingPathComponent("large-\(rowCount).sqlite").path
        try? FileManager.default.removeItem(atPath: path)
        var handle: OpaquePointer?
        defer { sqlite3_close(handle) }
        guard sqlite3_open(path, &handle) == SQLITE_OK else { return .failure(SetupError(message: "cannot create \(path)")) }
        let sql = """
            CREATE TABLE item (id INTEGER PRIMARY KEY, name TEXT NOT NULL, amount REAL, note TEXT);
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < \(rowCount))
            INSERT INTO item SELECT i, 'item ' || i, (i % 10000) / 100.0, CASE WHEN i % 3 = 0 THEN 'note ' || i END FROM n;
            """
        guard sqlite3_exec(handle, sql, nil, nil, nil) == SQLITE_OK else {
            return .failure(SetupError(message: String(cString: sqlite3_errmsg(handle))))
        }
        return .success(path)
    }()
}
