// Helpers for the Swift model source tests: reading inline sources and the
// example model folders, and comparing schemas whatever their declaration order.

import Foundation
import PredicateQuery
import PredicateQueryTestSupport

@testable import PredicateQueryModels

enum SwiftModelSourceTestSupport {
    /// The schema and warnings of one inline file.
    static func load(_ text: String, path: String = "Models.swift") -> (schema: Schema, warnings: [SwiftModelSource.Warning]) {
        SwiftModelSource.schema(from: [SwiftModelSource.File(path: path, text: text)])
    }

    /// The .swift files of Examples/Models/<folder>, by name.
    static func exampleFiles(_ folder: String) throws -> [SwiftModelSource.File] {
        let directory = GoldenFile.repositoryRoot.appendingPathComponent("Examples/Models").appendingPathComponent(folder)
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
            .filter { $0.hasSuffix(".swift") }.sorted()
        return try names.map { name in
            let text = try String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8)
            return SwiftModelSource.File(path: "Examples/Models/\(folder)/\(name)", text: text)
        }
    }

    /// The schema with its entities, enums and composites sorted by name, so that
    /// schemas read from files in another order compare equal.
    static func normalized(_ schema: Schema) -> Schema {
        Schema(
            entities: schema.entities.sorted { $0.name < $1.name }, enums: schema.enums.sorted { $0.name < $1.name },
            composites: schema.composites.sorted { $0.name < $1.name })
    }
}
