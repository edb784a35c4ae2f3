// Which store a run uses, and opening it: the example store, a store named with
// --store (with its schema inside, or introspected), or a Core Data / SwiftData
// store described by --model files.

import Foundation
import PredicateQuery
import PredicateQueryModels
import PredicateQuerySQLite

/// An error that ends the run: its message and the exit status it calls for.
struct CLIError: Error {
    var message: String
    var exitCode: Int32

    static func usage(_ message: String) -> CLIError { CLIError(message: message, exitCode: 2) }
    static func io(_ message: String) -> CLIError { CLIError(message: message, exitCode: 2) }
    static func query(_ message: String) -> CLIError { CLIError(message: message, exitCode: 1) }
}

/// A store in use, and where it is.
struct OpenStore {
    var store: any QueryStore
    var path: String
    /// Warnings from reading model files, already printed.
    var modelWarnings: [String] = []
    /// Opened from `--model` files alone, with no store: an empty store in memory laid
    /// out as the models imply, for `--check` and `--sql`; queries do not run.
    var isModelOnly = false
}

enum StoreOpening {
    /// The path of the store the options name (creating the example store if that is the one).
    static func path(for options: CommandLineOptions) throws(CLIError) -> String {
        if options.modelVersion != nil && options.modelPaths.isEmpty {
            throw CLIError.usage("--model-version chooses a version of a --model; give --model too")
        }
        if let url = PostgresOpening.url(for: options) { return PostgresOpening.shown(url) }
        if let path = options.storePath { return path }
        if !options.modelPaths.isEmpty {
            throw CLIError.usage(
                "--model without --store can check a query (--check) or show its SQL (--sql); give --store FILE to run it")
        }
        return try ExampleStore.ensure()
    }

    static func open(_ options: CommandLineOptions, warn: (String) -> Void) throws(CLIError) -> OpenStore {
        if let url = PostgresOpening.url(for: options) { return try PostgresOpening.open(url, options, warn: warn) }
        if options.loadExamples { throw CLIError.usage("--load-examples needs a postgresql:// URL as --store") }
        if options.storePath == nil, !options.modelPaths.isEmpty, options.checkOnly || options.showSQL {
            return try openModelsAlone(options, warn: warn)
        }
        let path = try self.path(for: options)
        guard FileManager.default.fileExists(atPath: path) else {
            throw CLIError.io("no store at '\(path)'")
        }
        return try reportingStoreErrors { () throws -> OpenStore in
            if options.modelPaths.isEmpty {
                var warnings: [String] = []
                let store = try SQLiteStore.open(
                    at: path, includeHistory: options.includeHistory, modelCache: ModelFiles.modelCache, warnings: &warnings)
                for warning in warnings { warn("pq: warning: \(warning)") }
                return OpenStore(store: store, path: path)
            }
            let (schema, warnings) = try ModelFiles.load(options.modelPaths, version: options.modelVersion)
            warnings.forEach(warn)
            let store = try SQLiteStore.open(at: path, schema: schema, layout: layout(options))
            for warning in store.warnings { warn("pq: warning: \(warning)") }
            return OpenStore(store: store, path: path, modelWarnings: warnings)
        }
    }

    private static func layout(_ options: CommandLineOptions) -> StoreMapping.Layout {
        options.layout == "plain" ? .plain : .coreData
    }

    /// `body`'s result; a store's or a model file's error becomes the CLI's (exit 2).
    private static func reportingStoreErrors<T>(_ body: () throws -> T) throws(CLIError) -> T {
        do {
            return try body()
        } catch let error as CLIError {
            throw error
        } catch let error as StoreError {
            throw CLIError.io(error.message)
        } catch {
            throw CLIError.io("\(error)")
        }
    }
}

extension StoreOpening {
    /// Checking a query against model files, in CI or an editor, needs no store: the
    /// schema comes from the models and the layout from the rules (`--layout`).
    static func openModelsAlone(_ options: CommandLineOptions, warn: (String) -> Void) throws(CLIError) -> OpenStore {
        try reportingStoreErrors { () throws -> OpenStore in
            let (schema, warnings) = try ModelFiles.load(options.modelPaths, version: options.modelVersion)
            warnings.forEach(warn)
            let store = try SQLiteStore.create(at: ":memory:", schema: schema, layout: layout(options))
            return OpenStore(store: store, path: ":memory:", modelWarnings: warnings, isModelOnly: true)
        }
    }
}

/// Reading `--model` files and folders, of any model format.
enum ModelFiles {
    /// Reads a Core Data store's own model (its `Z_MODELCACHE`), for `--store` with no `--model`.
    static let modelCache: SQLiteStore.ModelCacheReader = { data in
        let (schema, warnings) = try ModelCache.schema(fromCompressed: data)
        return (schema, warnings.map { "the store's model: \($0.message)" })
    }

    static func load(_ paths: [String], version: String? = nil) throws -> (Schema, [String]) {
        let (schema, warnings): (Schema, [ModelWarning])
        do {
            (schema, warnings) = try ModelSources.load(paths: paths, version: version)
        } catch {
            throw CLIError.io(error.message)
        }
        let problems = schema.validate()
        if let first = problems.first {
            throw CLIError.io("the models are inconsistent: \(first.message)")
        }
        return (schema, warnings.map(\.description))
    }
}
