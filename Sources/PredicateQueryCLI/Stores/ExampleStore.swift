// The example store: the models of Examples/Models with deterministic sample
// data, created on first use in a cache folder. It is built in a temporary file
// and linked into place, so an interrupted or concurrent first run never leaves
// a half-written store behind, nor replaces the store another run made.

import Foundation
import PredicateQuery
import PredicateQueryExamples
import PredicateQuerySQLite
import PredicateQueryLintCommand

enum ExampleStore {
    /// Bump when the example schema or data change, so caches are rebuilt.
    static let version = 1
    /// Filler objects per entity, on top of the hand-written ones.
    static let fillerPerEntity = 300
    /// The entity a query runs against when several fit and none is named, as the
    /// README's first examples (`name contains 'Vac'`) expect.
    static let defaultEntity = "Budget"

    /// The folder pq caches files in (see `StatePaths.cache`).
    static var cacheDirectory: URL { StatePaths.cache() }

    static var path: String {
        cacheDirectory.appendingPathComponent("example-\(version).sqlite").path
    }

    /// The path of the example store, creating it first if needed.
    static func ensure() throws(CLIError) -> String {
        let path = self.path
        if FileManager.default.fileExists(atPath: path) { return path }
        do {
            try FileManager.default.createDirectory(at: cacheDirectory, withIntermediateDirectories: true)
        } catch {
            throw CLIError.io("cannot create the cache folder '\(cacheDirectory.path)': \(error.localizedDescription)")
        }
        let temporary = cacheDirectory.appendingPathComponent(
            "example-\(version)-\(ProcessInfo.processInfo.processIdentifier).partial"
        ).path
        try? FileManager.default.removeItem(atPath: temporary)
        do {
            let store = try SQLiteStore.create(at: temporary, schema: ExampleSchemas.combined)
            try store.insert(ExampleData.graph(fillerPerEntity: fillerPerEntity))
        } catch {
            try? FileManager.default.removeItem(atPath: temporary)
            throw CLIError.io("cannot create the example store: \(error)")
        }
        // A hard link, not a rename: it never replaces a store a concurrent first run
        // put there meanwhile, which another pq may already be reading.
        // (A file system without hard links gets the rename.)
        let linked = link(temporary, path) == 0 || (errno != EEXIST && rename(temporary, path) == 0)
        try? FileManager.default.removeItem(atPath: temporary)
        if !linked, !FileManager.default.fileExists(atPath: path) {
            throw CLIError.io("cannot move the example store into '\(path)'")
        }
        return path
    }
}
