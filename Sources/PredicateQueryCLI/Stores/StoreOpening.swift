// Which store a run uses, and opening it: the example store, a store named with
// --store (with its schema inside, or introspected), or a Core Data / SwiftData
// store described by --model files.

import Foundation
import PredicateQuery
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
    var store: SQLiteStore
    var path: String
    /// Warnings from reading model files, already printed.
    var modelWarnings: [String] = []
}

enum StoreOpening {
    /// The path of the store the options name (creating the example store if that is the one).
    static func path(for options: CommandLineOptions) throws(CLIError) -> String {
        if let path = options.storePath { return path }
        if !options.modelPaths.isEmpty {
            throw CLIError.usage("--model describes the store named with --store; give --store FILE too")
        }
        return try ExampleStore.ensure()
    }

    static func open(_ options: CommandLineOptions, warn: (String) -> Void) throws(CLIError) -> OpenStore {
        let path = try self.path(for: options)
        guard FileManager.default.fileExists(atPath: path) else {
            throw CLIError.io("no store at '\(path)'")
        }
        do {
            if options.modelPaths.isEmpty {
                var warnings: [String] = []
                let store = try SQLiteStore.open(at: path, warnings: &warnings)
                for warning in warnings { warn("pq: warning: \(warning)") }
                return OpenStore(store: store, path: path)
            }
            let (schema, warnings) = try ModelFiles.load(options.modelPaths)
            warnings.forEach(warn)
            let layout: StoreMapping.Layout = options.layout == "plain" ? .plain : .coreData
            let store = try SQLiteStore.open(at: path, schema: schema, layout: layout)
            for warning in store.warnings { warn("pq: warning: \(warning)") }
            return OpenStore(store: store, path: path, modelWarnings: warnings)
        } catch let error as CLIError {
            throw error
        } catch let error as StoreError {
            throw CLIError.io(error.message)
        } catch {
            throw CLIError.io("\(error)")
        }
    }
}

/// Reading `--model` files and folders.
enum ModelFiles {
    static func load(_ paths: [String]) throws -> (Schema, [String]) {
        var files: [SwiftModelSource.File] = []
        for path in paths {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
                throw CLIError.io("cannot read model file '\(path)': no such file or folder")
            }
            let sources: [String]
            if isDirectory.boolValue {
                let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
                sources = names.filter { $0.hasSuffix(".swift") }.sorted().map { (path as NSString).appendingPathComponent($0) }
                if sources.isEmpty { throw CLIError.io("the folder '\(path)' holds no .swift files") }
            } else {
                sources = [path]
            }
            for source in sources {
                guard let data = FileManager.default.contents(atPath: source) else {
                    throw CLIError.io("cannot read model file '\(source)'")
                }
                files.append(SwiftModelSource.File(path: source, text: String(decoding: data, as: UTF8.self)))
            }
        }
        let (schema, warnings) = SwiftModelSource.schema(from: files)
        guard !schema.entities.isEmpty else {
            throw CLIError.io("no @Model classes found in \(paths.joined(separator: ", "))")
        }
        let problems = schema.validate()
        if let first = problems.first {
            throw CLIError.io("the models are inconsistent: \(first.message)")
        }
        return (schema, warnings.map(\.description))
    }
}
