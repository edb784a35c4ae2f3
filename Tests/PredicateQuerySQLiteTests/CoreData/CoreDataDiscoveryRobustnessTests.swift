// Broken Core Data stores (parent cycles, odd names and values in Z_PRIMARYKEY,
// missing tables and columns) open with or without a model, or fail with one
// StoreError; never a crash.

import Foundation
import PredicateQuery
import Testing

@testable import PredicateQuerySQLite

struct CoreDataDiscoveryRobustnessTests {
    static let broken: [(String, [(Int, String, Int)], String)] = [
        (
            "a parent cycle", [(1, "A", 2), (2, "B", 1)],
            "CREATE TABLE ZA (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER);"
        ),
        ("its own parent", [(1, "A", 1)], "CREATE TABLE ZA (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER);"),
        ("no table", [(1, "A", 0)], ""),
        ("no Z_ENT", [(1, "A", 0)], "CREATE TABLE ZA (Z_PK INTEGER PRIMARY KEY, ZNAME VARCHAR);"),
        (
            "a quote in names", [(1, "A\"B", 0)],
            "CREATE TABLE \"ZA\"\"B\" (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, \"ZX\"\"Y\" VARCHAR);"
        ),
        ("no entities", [], "CREATE TABLE ZA (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER);"),
        (
            "odd values", [(1, "A", 0)],
            """
            CREATE TABLE ZA (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZNAME VARCHAR, ZB INTEGER, Z9_B INTEGER);
            CREATE INDEX ZA_ZB_INDEX ON ZA (ZB);
            INSERT INTO ZA VALUES (1, 'x', NULL, 3.5, 'not a key', 99), (2, NULL, 1, x'00', 7, NULL);
            INSERT INTO Z_PRIMARYKEY VALUES (8, NULL, 'x', NULL), (9, 42, 0, NULL);
            """
        ),
        (
            "a join table of unknown entities", [(1, "A", 0)],
            """
            CREATE TABLE ZA (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER);
            CREATE TABLE Z_1XS (Z_1YS INTEGER, Z_7XS INTEGER);
            CREATE TABLE Z_1WEIRD (Z_1A INTEGER, Z_1A1 INTEGER, Z_1A2 INTEGER);
            """
        ),
    ]

    @Test(arguments: 0..<broken.count) func brokenStoresOpenOrFailWithOneError(_ index: Int) throws {
        let (label, entities, sql) = Self.broken[index]
        let fixture = try CoreDataFixture(entities: entities, sql)
        let schema = Schema(entities: [
            Entity("A", attributes: [Attribute("name", .string, optional: true)], relationships: [Relationship("b", to: "A")])
        ])
        for model in [nil, schema] {
            do {
                let store = try SQLiteStore.open(at: fixture.path, schema: model)
                for entity in store.schema.entities {
                    let result = store.compile("\(entity.name) where TRUEPREDICATE")
                    if let compiled = result.compiled { _ = try store.count(compiled) }
                }
            } catch {
                #expect(!error.message.isEmpty, "\(label)")
            }
        }
    }
}
