// The benchmark store: pq's example schema in the Core Data layout, filled by SQL
// that derives every value from the row number, so the same scale gives the same
// file on every machine.
//
// Budgets: `scale` of them, named "<word> <n>", limits 0…4990 in steps of 10.
// Transactions: 5 to 15 per budget (10 on average), amounts 0.00…999.99, dates in
// 2024, a third with a receipt, one in 64 in no budget.
// Movies: scale / 5, genres action, kids, horror in turn-ish.
// Snippets: scale / 10, in 100 folders, each with 0 to 3 of 50 tags.
//
// Indexes: those SwiftData creates (every to-one foreign key, both columns of a
// join table), plus those a user would add with #Index for these queries: budget
// name, transaction date, movie genre.

import Foundation
import PredicateQuery
import PredicateQueryExamples
import PredicateQuerySQLite

public enum DataGenerator {
    /// The words budget names, notes and tags are made of.
    static let words = [
        "Alpine", "Basil", "Cedar", "Cobalt", "Dune", "Ember", "Harbor", "Maple", "Nova", "Orbit", "Pixel", "Quartz",
        "Rhythm", "Solace", "Tundra", "Velvet",
    ]

    /// Creates the store at `path` (which must not exist) with `scale` budgets.
    public static func generate(at path: String, scale: Int, log: (String) -> Void = { _ in }) throws {
        let store = try SQLiteStore.create(at: path, schema: ExampleSchemas.combined)
        let mapping = store.mapping
        func table(_ entity: String) -> String { quote(mapping.entities[entity]?.table ?? entity) }
        func column(_ entity: String, _ name: String) -> String { quote(mapping.entities[entity]?.columns[name] ?? name) }
        func number(_ entity: String) -> Int { mapping.entityNumbers[entity] ?? 0 }
        func foreignKey(_ entity: String, _ relationship: String) -> String {
            if case .foreignKey(let column)? = mapping.relationship(relationship, of: entity) { return quote(column) }
            return quote(relationship)
        }
        let wordCase = "(CASE (%@) % 16 " + words.enumerated().map { "WHEN \($0.offset) THEN '\($0.element)'" }.joined(separator: " ")
            + " END)"
        func word(of expression: String) -> String { wordCase.replacingOccurrences(of: "%@", with: expression) }
        // Seconds from 2001-01-01 to 2024-01-01, as Core Data stores dates.
        let year2024 = 725_846_400

        try store.execute("PRAGMA journal_mode = OFF")
        try store.execute("PRAGMA synchronous = OFF")
        try store.execute("BEGIN")

        log("budgets")
        try store.execute(
            """
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < \(scale))
            INSERT INTO \(table("Budget")) ("Z_PK", "Z_ENT", "Z_OPT", \(column("Budget", "name")), \(column("Budget", "limit")))
            SELECT i, \(number("Budget")), 1, \(word(of: "i * 7")) || ' ' || i, ((i * 2654435761) % 500) * 10.0 FROM n
            """)

        log("transactions")
        // (budget, k): k runs 0 ..< 5 + budget's hash % 11, then the next budget.
        let count = "(5 + ((b * 40503) % 11))"
        try store.execute(
            """
            WITH RECURSIVE t(i, b, k) AS (
                SELECT 1, 1, 0
                UNION ALL
                SELECT i + 1, CASE WHEN k + 1 < \(count) THEN b ELSE b + 1 END, CASE WHEN k + 1 < \(count) THEN k + 1 ELSE 0 END
                FROM t WHERE b <= \(scale)
            ), numbered(i, b) AS (SELECT i, b FROM t WHERE b <= \(scale))
            INSERT INTO \(table("Transaction")) ("Z_PK", "Z_ENT", "Z_OPT", \(column("Transaction", "note")),
                \(column("Transaction", "amount")), \(column("Transaction", "date")), \(column("Transaction", "hasReceipt")),
                \(foreignKey("Transaction", "budget")))
            SELECT i, \(number("Transaction")), 1, \(word(of: "i * 13")) || ' ' || (i % 1000),
                ((i * 48271) % 100000) / 100.0, \(year2024) + (i * 7919) % 31536000, (i * 31) % 3 = 0,
                CASE WHEN i % 64 = 0 THEN NULL ELSE b END
            FROM numbered
            """)

        log("movies")
        try store.execute(
            """
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < \(max(1, scale / 5)))
            INSERT INTO \(table("Movie")) ("Z_PK", "Z_ENT", "Z_OPT", \(column("Movie", "name")), \(column("Movie", "genre")))
            SELECT i, \(number("Movie")), 1, \(word(of: "i * 5")) || ' ' || i, 1 + (i * 7) % 3 FROM n
            """)

        log("folders, tags and snippets")
        try store.execute(
            """
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 100)
            INSERT INTO \(table("Folder")) ("Z_PK", "Z_ENT", "Z_OPT", \(column("Folder", "id")), \(column("Folder", "newName")),
                \(column("Folder", "creationDate")))
            SELECT i, \(number("Folder")), 1, 'folder-' || i, \(word(of: "i")) || ' folder ' || i, \(year2024) + i * 86400 FROM n
            """)
        try store.execute(
            """
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 50)
            INSERT INTO \(table("Tag")) ("Z_PK", "Z_ENT", "Z_OPT", \(column("Tag", "name")))
            SELECT i, \(number("Tag")), 1, lower(\(word(of: "i"))) || '-' || i FROM n
            """)
        let snippets = max(1, scale / 10)
        try store.execute(
            """
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < \(snippets))
            INSERT INTO \(table("Snippet")) ("Z_PK", "Z_ENT", "Z_OPT", \(column("Snippet", "code")), \(column("Snippet", "notes")),
                \(column("Snippet", "isFavorite")), \(column("Snippet", "language")),
                \(column("Snippet", "creationDate")), \(foreignKey("Snippet", "folder")))
            SELECT i, \(number("Snippet")), 1, 'let x = ' || i, \(word(of: "i * 3")) || ' notes', i % 5 = 0,
                CASE i % 4 WHEN 0 THEN 'swift' WHEN 1 THEN 'python' WHEN 2 THEN 'css' ELSE 'typescript' END,
                \(year2024) + (i * 3571) % 31536000, 1 + i % 100
            FROM n
            """)
        if case .joinTable(let joinTable, let snippetColumn, let tagColumn)? = mapping.relationship("tags", of: "Snippet") {
            try store.execute(
                """
                WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < \(snippets)),
                k(j) AS (VALUES (0), (1), (2))
                INSERT INTO \(quote(joinTable)) (\(quote(snippetColumn)), \(quote(tagColumn)))
                SELECT DISTINCT i, 1 + (i * 17 + j * 23) % 50 FROM n, k WHERE j < (i * 7) % 4
                """)
        }

        log("Z_PRIMARYKEY and indexes")
        for entity in ["Budget", "Transaction", "Movie", "Folder", "Tag", "Snippet"] {
            try store.execute(
                "UPDATE Z_PRIMARYKEY SET Z_MAX = (SELECT coalesce(max(Z_PK), 0) FROM \(table(entity))) WHERE Z_ENT = \(number(entity))")
        }
        let userIndexes: [(String, String)] = [("Budget", "name"), ("Transaction", "date"), ("Movie", "genre")]
        for (entity, attribute) in userIndexes {
            let name = quote("Z\(entity.uppercased())_BY_\(attribute.uppercased())")
            try store.execute("CREATE INDEX \(name) ON \(table(entity)) (\(column(entity, attribute)))")
        }
        // No ANALYZE: SwiftData does not run it, so the planner works without statistics.
        try store.execute("COMMIT")
    }

    static func quote(_ identifier: String) -> String {
        "\"" + identifier.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
