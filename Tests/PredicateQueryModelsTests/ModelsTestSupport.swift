// Helpers for the model reader tests: the Core Data corpus (../shared/corpus/
// coredata beside the repository; tests that need it print a notice and skip
// when it is missing), copies of its stores in a temporary folder, and reading
// a store's tables with the system SQLite.

import CSQLite
import Foundation
import PredicateQuery
import PredicateQueryTestSupport

enum Corpus {
    /// The corpus folder.
    static let root = GoldenFile.repositoryRoot.appendingPathComponent("../shared/corpus/coredata").standardizedFileURL

    /// Whether the corpus is there; prints a notice when it is not, so a skip is never silent.
    static let isAvailable: Bool = {
        let present = FileManager.default.fileExists(atPath: root.appendingPathComponent("models").path)
        if !present { print("notice: the Core Data corpus is not at \(root.path): the corpus tests are skipped") }
        return present
    }()

    /// A path inside the corpus.
    static func path(_ relative: String) -> String { root.appendingPathComponent(relative).path }

    /// Every `.xcdatamodel` folder in the corpus's models.
    static func xcodeModels() -> [String] { files(under: "models") { $0.hasSuffix(".xcdatamodel") } }

    /// Every `.mom` file in the corpus's `.momd` folders.
    static func compiledModels() -> [String] { files(under: "models") { $0.hasSuffix(".mom") } }

    /// Every store file (`*.sqlite`) in the corpus.
    static func stores() -> [String] { files(under: "stores") { $0.hasSuffix(".sqlite") } }

    static func files(under folder: String, _ include: (String) -> Bool) -> [String] {
        let base = root.appendingPathComponent(folder).path
        let all = (FileManager.default.subpaths(atPath: base) ?? []).filter(include).sorted()
        return all.map { (base as NSString).appendingPathComponent($0) }
    }

    /// Copies a store with its -wal and -shm into a new temporary folder; returns the copy's path.
    static func copyStore(_ path: String) throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("pq-models-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let name = (path as NSString).lastPathComponent
        for suffix in ["", "-wal", "-shm"] where FileManager.default.fileExists(atPath: path + suffix) {
            try FileManager.default.copyItem(atPath: path + suffix, toPath: folder.appendingPathComponent(name + suffix).path)
        }
        return folder.appendingPathComponent(name).path
    }
}

/// The first column of every row of a query on a store copy, as blobs or texts.
enum StoreRows {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    static func column(_ sql: String, in path: String) throws -> [Data?] {
        var handle: OpaquePointer?
        guard sqlite3_open_v2(path, &handle, SQLITE_OPEN_READONLY, nil) == SQLITE_OK, let db = handle else {
            sqlite3_close(handle)
            throw Failure(description: "cannot open \(path)")
        }
        defer { sqlite3_close(db) }
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(db, sql, -1, &statement, nil) == SQLITE_OK, let prepared = statement else {
            throw Failure(description: "\(sql): \(String(cString: sqlite3_errmsg(db)))")
        }
        defer { sqlite3_finalize(prepared) }
        var rows: [Data?] = []
        while sqlite3_step(prepared) == SQLITE_ROW {
            let count = Int(sqlite3_column_bytes(prepared, 0))
            if sqlite3_column_type(prepared, 0) == SQLITE_NULL {
                rows.append(nil)
            } else if let bytes = sqlite3_column_blob(prepared, 0) {
                rows.append(Data(bytes: bytes, count: count))
            } else {
                rows.append(Data())
            }
        }
        return rows
    }

    static func table(_ name: String, existsIn path: String) throws -> Bool {
        try !column("SELECT name FROM sqlite_master WHERE type = 'table' AND name = '\(name)'", in: path).isEmpty
    }
}

extension Schema {
    /// The schema with entities, enums and composites sorted by name and each entity's
    /// properties sorted by name: for comparing schemas whose sources order them differently.
    var sortedByName: Schema {
        Schema(
            entities: entities.sorted { $0.name < $1.name }.map { entity in
                var sorted = entity
                sorted.attributes.sort { $0.name < $1.name }
                sorted.relationships.sort { $0.name < $1.name }
                return sorted
            }, enums: enums.sorted { $0.name < $1.name }, composites: composites.sorted { $0.name < $1.name })
    }
}

extension Schema {
    /// The schema with every transformable attribute's class or transformer name blanked.
    var withoutTransformableNames: Schema {
        var result = self
        for index in result.entities.indices {
            for attribute in result.entities[index].attributes.indices {
                if case .transformable = result.entities[index].attributes[attribute].type {
                    result.entities[index].attributes[attribute].type = .transformable("")
                }
            }
        }
        return result
    }
}
