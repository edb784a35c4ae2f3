// A throwaway SwiftData app for `pq lint`'s command-line tests: a model in one
// file and, in another, a query with an error and one with a warning.

import Foundation
import Testing

struct LintFixture {
    let folder: URL

    static let models = """
        import SwiftData
        @Model final class Trip { var name: String = ""; var note: String?; init() {} }
        """
    /// Line 2: a warning (nil-inequality); line 3: an error (unknown-property).
    static let queries = """
        import SwiftData
        let a = #Predicate<Trip> { $0.note != "x" }
        let b = #Predicate<Trip> { $0.nam == "x" }
        """

    /// The app in a new folder: `App/Models.swift` and `App/<queryFile>`, and any other files given.
    init(queryFile: String = "Queries.swift", queries: String = Self.queries, files: [String: String] = [:]) throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("pq-lint-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("App"), withIntermediateDirectories: true)
        try write("App/Models.swift", Self.models)
        try write("App/" + queryFile, queries)
        for (path, text) in files { try write(path, text) }
    }

    func write(_ path: String, _ text: String) throws {
        let url = folder.appendingPathComponent(path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try text.write(to: url, atomically: true, encoding: .utf8)
    }

    func read(_ path: String) throws -> String {
        try String(contentsOf: folder.appendingPathComponent(path), encoding: .utf8)
    }

    /// Runs `pq lint` with `arguments` in the fixture's folder.
    func lint(_ arguments: [String]) throws -> PQResult {
        try PQProcess.run(["lint"] + arguments, directory: folder)
    }

    func remove() { try? FileManager.default.removeItem(at: folder) }
}
