// Streamed output is the output pq printed before it streamed: every entity of the
// example store in every format, byte for byte, against files recorded with the
// pq that collected all rows before printing them (Golden/StreamedOutput/). The
// example store's entities have fewer rows than a table page, so tables align
// exactly as they did.

import Foundation
import PredicateQueryTestSupport
import Testing

struct StreamedOutputTests {
    static let entities = [
        "Budget", "Folder", "Ingredient", "Movie", "Pet", "Recipe", "Snippet", "Tag", "Transaction", "User",
    ]
    static let formats = ["table", "json", "csv", "markdown"]

    /// Other options that change what each format prints, on one entity.
    static let variations: [(name: String, arguments: [String])] = [
        ("Transaction.null-columns", ["--entity", "Transaction", "--null", "∅", "--columns", "note,budget.name,amount"]),
        ("Budget.limit", ["--entity", "Budget", "--limit", "3", "--offset", "2"]),
        ("Budget.empty", ["--entity", "Budget"]),
    ]

    static let directory = GoldenFile.directory(of: "PredicateQueryCLITests").appendingPathComponent("StreamedOutput")

    /// Runs pq with `arguments` in `format` and compares what it prints with the file `name.format`.
    private func check(_ name: String, _ arguments: [String], query: String, format: String) throws {
        let result = try PQProcess.run(arguments + ["--format", format, query])
        #expect(result.status == 0, "\(name) \(format): \(result.error)")
        #expect(result.error.isEmpty, "\(name) \(format): \(result.error)")
        let url = Self.directory.appendingPathComponent("\(name).\(format)")
        if GoldenFile.isUpdating {
            try FileManager.default.createDirectory(at: Self.directory, withIntermediateDirectories: true)
            try Data(result.output.utf8).write(to: url)
        } else {
            let expected = try String(contentsOf: url, encoding: .utf8)
            #expect(result.output == expected, "\(name) \(format) differs from \(url.lastPathComponent)")
        }
    }

    @Test("every entity of the example store prints as before in every format", arguments: formats)
    func everyEntity(format: String) throws {
        for entity in Self.entities {
            try check(entity, ["--entity", entity], query: "TRUEPREDICATE", format: format)
        }
    }

    @Test("--null, --columns, --limit and an empty result print as before", arguments: formats)
    func variations(format: String) throws {
        for variation in Self.variations {
            let query = variation.name == "Budget.empty" ? "limit > 1000000" : "TRUEPREDICATE"
            try check(variation.name, variation.arguments, query: query, format: format)
        }
    }
}
