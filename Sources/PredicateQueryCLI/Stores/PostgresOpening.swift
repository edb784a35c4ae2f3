// Opening a PostgreSQL database as the store: `--store postgresql://…`, or
// `PQ_DATABASE_URL` when no --store is given. `--load-examples` first creates
// pq's example tables and data in it, so every example runs there too.

import Foundation
import PredicateQuery
import PredicateQueryExamples
import PredicateQueryPostgres
import PredicateQuerySQLite

enum PostgresOpening {
    /// The database URL the options name, if the store is a PostgreSQL database.
    static func url(for options: CommandLineOptions) -> String? {
        if let path = options.storePath { return PostgresStore.isDatabaseURL(path) ? path : nil }
        guard options.modelPaths.isEmpty, let url = ProcessInfo.processInfo.environment["PQ_DATABASE_URL"], !url.isEmpty
        else { return nil }
        return url
    }

    /// The URL with any password replaced by `***`, to show.
    static func shown(_ url: String) -> String {
        guard let at = url.range(of: "@"), let scheme = url.range(of: "://"),
            let colon = url[scheme.upperBound..<at.lowerBound].firstIndex(of: ":")
        else { return url }
        return String(url[..<url.index(after: colon)]) + "***" + String(url[at.lowerBound...])
    }

    static func open(_ url: String, _ options: CommandLineOptions, warn: (String) -> Void) throws(CLIError) -> OpenStore {
        if !options.modelPaths.isEmpty {
            guard !options.loadExamples else { throw CLIError.usage("--load-examples loads pq's own examples; give no --model") }
            let (schema, warnings): (Schema, [String])
            do {
                (schema, warnings) = try ModelFiles.load(options.modelPaths, version: options.modelVersion)
            } catch let error as CLIError {
                throw error
            } catch {
                throw CLIError.io("\(error)")
            }
            warnings.forEach(warn)
            do {
                let store = try PostgresStore.open(url, schema: schema)
                store.reconnectionHandler = Self.printNote
                return OpenStore(store: store, path: shown(url), modelWarnings: warnings)
            } catch {
                throw CLIError.io(error.message)
            }
        }
        do {
            if options.loadExamples { try loadExamples(url, warn: warn) }
            let store = try PostgresStore.open(url)
            store.reconnectionHandler = Self.printNote
            for note in store.schemaNotes { warn("pq: warning: \(note)") }
            return OpenStore(store: store, path: shown(url))
        } catch {
            throw CLIError.io(error.message)
        }
    }

    /// Prints a reconnection's note on standard error, where warnings go.
    @Sendable static func printNote(_ note: String) {
        FileHandle.standardError.write(Data("pq: note: \(note)\n".utf8))
    }

    /// Creates pq's example tables and data in the database, unless a run before did:
    /// a second `--load-examples` (as a README walk-through repeats it) says so and
    /// queries what is there. Tables of another schema in the way are still an error.
    private static func loadExamples(_ url: String, warn: (String) -> Void) throws(StoreError) {
        if let existing = try? PostgresStore.open(url), !existing.isSchemaInferred,
            existing.schema == ExampleSchemas.combined
        {
            warn("pq: note: pq's examples are already loaded in \(shown(url)); --load-examples left them as they are")
            return
        }
        let store = try PostgresStore.create(url, schema: ExampleSchemas.combined)
        try store.insert(ExampleData.graph(fillerPerEntity: ExampleStore.fillerPerEntity))
    }
}
