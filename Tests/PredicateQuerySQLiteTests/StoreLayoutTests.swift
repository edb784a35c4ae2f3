// The Core Data layout, as read off real Core Data and SwiftData stores, and the
// plain layout: table and column names, join tables, indexes, bookkeeping tables,
// and how values are encoded.

import Foundation
import PredicateQueryExamples
import Testing

@testable import PredicateQuery
@testable import PredicateQuerySQLite

struct StoreLayoutTests {
    /// Every table of a store with its columns, as `TABLE(COLUMN, …)`.
    private func tables(_ store: SQLiteStore) throws -> [String] {
        let names = try store.rawRows("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
        return try names.compactMap { row -> String? in
            guard case .string(let name) = row[0] else { return nil }
            let columns = try store.rawRows("SELECT name FROM pragma_table_info('\(name)') ORDER BY cid").compactMap {
                column -> String? in
                if case .string(let text) = column[0] { return text }
                return nil
            }
            return "\(name)(\(columns.joined(separator: ", ")))"
        }
    }

    private func indexes(_ store: SQLiteStore) throws -> [String] {
        try store.rawRows("SELECT name FROM sqlite_master WHERE type = 'index' AND name NOT LIKE 'sqlite_%' ORDER BY name")
            .compactMap { row in
                if case .string(let name) = row[0] { return name }
                return nil
            }
    }

    @Test func coreDataLayoutOfSnippetBox() throws {
        let store = try SQLiteStore.create(at: ":memory:", schema: ExampleSchemas.snippetBox)
        #expect(store.mapping.entityNumbers == ["Folder": 1, "Snippet": 2, "Tag": 3])
        #expect(
            try tables(store) == [
                "PQ_SCHEMA(Z_VERSION, Z_SCHEMA, Z_MAPPING)",
                "ZFOLDER(Z_PK, Z_ENT, Z_OPT, ZID, ZNAME, ZCREATIONDATE)",
                "ZSNIPPET(Z_PK, Z_ENT, Z_OPT, ZUUID, ZCREATIONDATE, ZCODE, ZIMAGE, ZISFAVORITE, ZNOTES, ZLANGUAGE, ZFOLDER)",
                "ZTAG(Z_PK, Z_ENT, Z_OPT, ZNAME, ZCOLORDATA)",
                "Z_2TAGS(Z_2SNIPPETS, Z_3TAGS)",
                "Z_METADATA(Z_VERSION, Z_UUID, Z_PLIST)",
                "Z_MODELCACHE(Z_CONTENT)",
                "Z_PRIMARYKEY(Z_ENT, Z_NAME, Z_SUPER, Z_MAX)",
            ])
        #expect(try indexes(store) == ["ZSNIPPET_ZFOLDER_INDEX", "Z_2TAGS_Z_3TAGS_INDEX", "Z_Folder_UNIQUE_id"])
        let primaryKeys = try store.rawRows("SELECT Z_ENT, Z_NAME, Z_SUPER FROM Z_PRIMARYKEY ORDER BY Z_ENT")
        #expect(
            primaryKeys.map { $0.map(\.description).joined(separator: " ") } == ["1 'Folder' 0", "2 'Snippet' 0", "3 'Tag' 0"])
    }

    @Test func manyToManyJoinTableIsNamedAfterTheLowerNumberedEntity() {
        let recipes = StoreMapping.make(for: ExampleSchemas.recipes, layout: .coreData)
        #expect(recipes.entityNumbers == ["Ingredient": 1, "Recipe": 2])
        #expect(
            recipes.relationship("recipes", of: "Ingredient")
                == .joinTable(table: "Z_1RECIPES", sourceColumn: "Z_1INGREDIENTS", destinationColumn: "Z_2RECIPES"))
        #expect(
            recipes.relationship("ingredients", of: "Recipe")
                == .joinTable(table: "Z_1RECIPES", sourceColumn: "Z_2RECIPES", destinationColumn: "Z_1INGREDIENTS"))
        let budgets = StoreMapping.make(for: ExampleSchemas.budgets, layout: .coreData)
        #expect(budgets.relationship("transactions", of: "Budget") == .inverseForeignKey(column: "ZBUDGET"))
        #expect(budgets.relationship("budget", of: "Transaction") == .foreignKey(column: "ZBUDGET"))
    }

    @Test func subEntitiesShareTheirRootsTable() throws {
        let schema = Schema(entities: [
            Entity("Item", attributes: [Attribute("name", .string)]),
            Entity("Book", attributes: [Attribute("isbn", .string, optional: true)], parent: "Item"),
            Entity("Album", attributes: [Attribute("artist", .string, optional: true)], parent: "Item"),
        ])
        let store = try SQLiteStore.create(at: ":memory:", schema: schema)
        #expect(store.mapping.entityNumbers == ["Item": 1, "Album": 2, "Book": 3])
        let itemTables = try tables(store)
        #expect(itemTables.contains("ZITEM(Z_PK, Z_ENT, Z_OPT, ZNAME, ZARTIST, ZISBN)"), "\(itemTables)")
        var graph = ObjectGraph(schema: schema)
        graph.insert("Item", ["name": .string("plain")])
        graph.insert("Book", ["name": .string("Dune"), "isbn": .string("978")])
        graph.insert("Album", ["name": .string("Kind of Blue"), "artist": .string("Miles Davis")])
        try store.insert(graph)
        let all = QueryCompiler.compile("Item sort by name", schema: schema, mapping: store.mapping).compiled
        let allItems = try all.map { try store.fetch($0).map(\.id.description) }
        #expect(allItems == ["Book#2", "Album#3", "Item#1"], "\(String(describing: allItems))")
        let books = QueryCompiler.compile("Book where name != ''", schema: schema, mapping: store.mapping).compiled
        #expect(try books.map { try store.fetch($0).map(\.id.description) } == ["Book#2"])
        let rawEntities = try store.rawRows("SELECT Z_ENT FROM ZITEM ORDER BY Z_PK").map(\.[0])
        #expect(rawEntities == [.int(1), .int(3), .int(2)])
    }

    @Test func valuesAreEncodedAsCoreDataDoes() throws {
        let (store, _) = try ExampleStore.make()
        let transaction = try store.rawRows("SELECT ZDATE, ZHASRECEIPT, typeof(ZDATE) FROM ZTRANSACTION WHERE Z_PK = 1")[0]
        // 2024-03-02 00:00:00 UTC is 731030400 seconds after 2001-01-01.
        #expect(transaction[0] == .int(731_030_400) || transaction[0] == .double(731_030_400))
        #expect(transaction[1] == .int(1))
        let snippet = try store.rawRows("SELECT ZUUID, ZLANGUAGE FROM ZSNIPPET WHERE Z_PK = 1")[0]
        guard case .data(let bytes) = snippet[0] else {
            Issue.record("UUIDs are stored as blobs")
            return
        }
        #expect(bytes.count == 16)
        #expect(snippet[1] == .string("swift"))
        let movie = try store.rawRows("SELECT ZGENRE FROM ZMOVIE WHERE ZNAME = 'Toy Story'")[0]
        #expect(movie[0] == .int(2))
    }

    @Test func plainLayoutNamesTablesAndColumnsAsTheSchemaDoes() throws {
        let store = try SQLiteStore.create(at: ":memory:", schema: ExampleSchemas.snippetBox, layout: .plain)
        #expect(
            try tables(store) == [
                "Folder(pk, id, name, creationDate)",
                "PQ_SCHEMA(Z_VERSION, Z_SCHEMA, Z_MAPPING)",
                "Snippet(id, uuid, creationDate, code, image, isFavorite, notes, language, folder_id)",
                "Snippet_tags(Snippet_id, Tag_id)",
                "Tag(id, name, colorData)",
            ])
    }
}
