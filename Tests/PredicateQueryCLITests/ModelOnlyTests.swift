// Checking a query against model files with no store (issue 14): `--check` and
// `--sql` with `--model` alone, as CI or an editor would run them.

import Foundation
import PredicateQueryTestSupport
import Testing

struct ModelOnlyTests {
    static let budgets = GoldenFile.repositoryRoot.appendingPathComponent("Examples/Models/Budgets").path

    @Test func aQueryChecksAgainstModelFilesWithNoStore() throws {
        let result = try PQProcess.run(["--model", Self.budgets, "--check", "limit > 100 && name contains 'Vac'"])
        #expect(result.status == 0, "\(result.error)")
        // pq's own syntax, with the type of each name (issue 27: the S-expressions were unreadable).
        #expect(
            result.output
                == "Budget where limit > 100 && name contains 'Vac'\n  limit: Double\n  name: String\n  selects Budget objects\n",
            "\(result.output)")
        // --dump keeps the checked tree.
        let dumped = try PQProcess.run(["--model", Self.budgets, "--dump", "limit > 100 && name contains 'Vac'"])
        #expect(dumped.output.hasPrefix("entity Budget\nwhere (and (> (attr limit Double)"), "\(dumped.output)")
        let wrong = try PQProcess.run(["--model", Self.budgets, "--check", "limit > 'x'"])
        #expect(wrong.status == 1)
        #expect(wrong.error.contains("[check.typeMismatch]"), "\(wrong.error)")
    }

    @Test func theSQLComesFromTheLayoutTheModelsImply() throws {
        let result = try PQProcess.run([
            "--model", Self.budgets, "--sql", "Transaction where budget.name beginswith $p && budget in $bs",
        ])
        #expect(result.status == 0, "\(result.error)")
        #expect(result.output.contains("FROM \"ZTRANSACTION\" t0 LEFT JOIN \"ZBUDGET\" t1"), "\(result.output)")
        #expect(
            result.output.contains("bindings: ?1 = $p (String), ?2 = the successor of ?1, ?3 = $bs ([Budget])"),
            "\(result.output)")
        let plain = try PQProcess.run(["--model", Self.budgets, "--layout", "plain", "--sql", "Budget where limit > 1"])
        #expect(plain.output.contains("FROM \"Budget\" t0"), "\(plain.output)")
    }

    @Test func runningAQueryNeedsAStore() throws {
        let result = try PQProcess.run(["--model", Self.budgets, "limit > 100"])
        #expect(result.status == 2)
        #expect(result.error.contains("--model without --store can check a query (--check) or show its SQL (--sql)"))
    }

    /// Issue 27: `--model` reads a folder's subfolders, as `pq lint` does (it refused a
    /// folder whose files are all in subfolders); hidden folders are skipped.
    @Test func aModelFolderIsReadWithItsSubfolders() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("pq-model-tree-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let nested = folder.appendingPathComponent("App/Models")
        let hidden = folder.appendingPathComponent(".hidden")
        try FileManager.default.createDirectory(at: nested, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: hidden, withIntermediateDirectories: true)
        try "@Model class Shelf { var label: String = \"\"\n var books: [Book] = [] }\n".write(
            to: nested.appendingPathComponent("Shelf.swift"), atomically: true, encoding: .utf8)
        try "@Model class Book { var title: String = \"\"\n var shelf: Shelf? }\n".write(
            to: folder.appendingPathComponent("App/Book.swift"), atomically: true, encoding: .utf8)
        try "@Model class Shelf { var other: Int = 0 }\n".write(
            to: hidden.appendingPathComponent("Shelf.swift"), atomically: true, encoding: .utf8)
        let result = try PQProcess.run(["--model", folder.path, "--check", "Book where shelf.books.count > 1"])
        #expect(result.status == 0, "\(result.error)")
        #expect(result.output.hasPrefix("Book where shelf.books.count > 1\n"), "\(result.output)")
        #expect(result.output.contains("  shelf.books: [Book]\n"), "\(result.output)")
        #expect(result.error.isEmpty, "the hidden folder's second Shelf must not be read: \(result.error)")
        // The documentation's own spelling (Documentation/Stores.md): the example models, one folder per app.
        let examples = GoldenFile.repositoryRoot.appendingPathComponent("Examples/Models").path
        let all = try PQProcess.run(["--model", examples, "--check", "Recipe where ingredients.isEmpty"])
        #expect(all.status == 0, "\(all.error)")
        #expect(all.output.hasPrefix("Recipe where ingredients.isEmpty\n"), "\(all.output)")
        let empty = folder.appendingPathComponent("Empty")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        let none = try PQProcess.run(["--model", empty.path, "--check", "true"])
        #expect(none.status != 0)
        #expect(none.error.contains("holds no .swift files, in it or in its subfolders"), "\(none.error)")
    }

    /// `--model .` names a file by its path in the folder, as `pq lint` does
    /// (`Models/Shelf.swift`, not `./Models/Shelf.swift`), in its warnings too.
    @Test func aModelWarningInsideDotNamesTheFileByItsPathInTheFolder() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("pq-model-dot-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let models = folder.appendingPathComponent("Models")
        try FileManager.default.createDirectory(at: models, withIntermediateDirectories: true)
        try """
        @Model class Shelf {
            var label: String = ""
        #if DEBUG
            var note: String = ""
        #else
            var other: Int = 0
        #endif
        }

        """.write(to: models.appendingPathComponent("Shelf.swift"), atomically: true, encoding: .utf8)
        let result = try PQProcess.run(["--model", ".", "--check", "Shelf where label == 'x'"], directory: folder)
        #expect(result.status == 0, "\(result.error)")
        #expect(result.error.hasPrefix("Models/Shelf.swift:5: warning: pq reads only the first branch"), "\(result.error)")
    }
}
