// Opening stores with their model: the store's own entity numbers (Z_PRIMARYKEY)
// win over pq's alphabetical ones, and a store that lacks a table or column the
// model needs is refused with one sentence before any query runs.

import Foundation
import PredicateQuery
import PredicateQueryExamples
import Testing

@testable import PredicateQuerySQLite

struct VerificationTests {
    /// The keys of the rows a query returns, in order.
    private func keys(_ text: String, in store: SQLiteStore) throws -> [Int64] {
        let result = QueryCompiler.compile(text, schema: store.schema, mapping: store.mapping)
        let compiled = try #require(result.compiled, "\(text): \(result.diagnostics.map(\.message))")
        return try store.fetch(compiled).map(\.id.key)
    }

    /// A store pq created at a new path, changed with raw SQL (its PQ_SCHEMA table
    /// dropped, as if another program had written it).
    private func makeStore(
        _ directory: TemporaryDirectory, schema: Schema, layout: StoreMapping.Layout = .coreData,
        graph: ObjectGraph? = nil, _ sql: String = ""
    ) throws -> String {
        let path = directory.path("store-\(UUID().uuidString).sqlite")
        let store = try SQLiteStore.create(at: path, schema: schema, layout: layout)
        if let graph { try store.insert(graph) }
        try store.execute("DROP TABLE PQ_SCHEMA")
        if !sql.isEmpty { try store.execute(sql) }
        return path
    }

    /// The message of the StoreError `body` throws, if it throws one.
    private func message(_ body: () throws -> Void) -> String? {
        do {
            try body()
            return nil
        } catch let error as StoreError {
            return error.message
        } catch {
            return "\(error)"
        }
    }

    /// Queries over the combined example data whose answers do not depend on the entity numbers.
    private func checkExampleQueries(_ store: SQLiteStore) throws {
        #expect(try keys("Snippet where any tags.name == 'swift'", in: store) == [1, 2, 6])
        #expect(try keys("Tag where snippets.count >= 2 sort by name", in: store) == [1])
        #expect(try keys("Recipe where ingredients.count >= 3", in: store) == [1, 2, 3, 4])
        #expect(try keys("Ingredient where any recipes.name == 'Tea' sort by name", in: store) == [9, 7])
        #expect(try keys("Budget where transactions.@sum.amount > 500", in: store) == [1, 3])
        #expect(try keys("User where any children.name == 'Sophie'", in: store) == [1])
        #expect(try keys("Movie where genre == .kids sort by name", in: store) == [4, 7, 2])
        #expect(try keys("Pet where owner.name == 'Paul' sort by name", in: store) == [5, 1])
    }

    @Test func coreDataStoreReopensWithItsModel() throws {
        let directory = try TemporaryDirectory()
        let path = try makeStore(directory, schema: ExampleSchemas.combined, graph: ExampleData.graph())
        let store = try SQLiteStore.open(at: path, schema: ExampleSchemas.combined)
        #expect(store.isReadOnly)
        var layout = store.mapping
        layout.indexedColumns = nil
        #expect(layout == StoreMapping.make(for: ExampleSchemas.combined, layout: .coreData))
        // The store's own indexes come with it: SwiftData's, on every foreign key.
        #expect(store.mapping.indexedColumns?["ztransaction"] == ["zbudget"])
        try checkExampleQueries(store)
    }

    @Test func renumberedCoreDataStoreFollowsItsOwnNumbers() throws {
        let directory = try TemporaryDirectory()
        // pq numbers the combined schema's entities 1 (Budget) to 10 (User); a store
        // written by a different history numbers them the other way round, 10 to 1,
        // and names its join tables after those numbers.
        let tables = [
            "ZBUDGET", "ZFOLDER", "ZINGREDIENT", "ZMOVIE", "ZPET", "ZRECIPE", "ZSNIPPET", "ZTAG", "ZTRANSACTION", "ZUSER",
        ]
        let path = try makeStore(
            directory, schema: ExampleSchemas.combined, graph: ExampleData.graph(),
            """
            UPDATE Z_PRIMARYKEY SET Z_ENT = Z_ENT + 100;
            UPDATE Z_PRIMARYKEY SET Z_ENT = 111 - Z_ENT;
            \(tables.map { "UPDATE \($0) SET Z_ENT = 11 - Z_ENT;" }.joined(separator: "\n"))
            ALTER TABLE Z_7TAGS RENAME TO Z_3SNIPPETS;
            ALTER TABLE Z_3SNIPPETS RENAME COLUMN Z_7SNIPPETS TO Z_4SNIPPETS;
            ALTER TABLE Z_3SNIPPETS RENAME COLUMN Z_8TAGS TO Z_3TAGS;
            ALTER TABLE Z_3RECIPES RENAME TO Z_5INGREDIENTS;
            ALTER TABLE Z_5INGREDIENTS RENAME COLUMN Z_3INGREDIENTS TO Z_8INGREDIENTS;
            ALTER TABLE Z_5INGREDIENTS RENAME COLUMN Z_6RECIPES TO Z_5RECIPES;
            ALTER TABLE Z_10CHILDREN RENAME TO Z_1CHILDREN;
            ALTER TABLE Z_1CHILDREN RENAME COLUMN Z_10CHILDREN TO Z_1CHILDREN;
            ALTER TABLE Z_1CHILDREN RENAME COLUMN Z_10CHILDREN1 TO Z_1CHILDREN1;
            """)
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        do {
            let store = try SQLiteStore.open(at: path, schema: ExampleSchemas.combined)
            #expect(store.mapping.entityNumbers["Budget"] == 10)
            #expect(store.mapping.entityNumbers["User"] == 1)
            #expect(
                store.mapping.relationship("tags", of: "Snippet")
                    == .joinTable(table: "Z_3SNIPPETS", sourceColumn: "Z_4SNIPPETS", destinationColumn: "Z_3TAGS"))
            #expect(
                store.mapping.relationship("snippets", of: "Tag")
                    == .joinTable(table: "Z_3SNIPPETS", sourceColumn: "Z_3TAGS", destinationColumn: "Z_4SNIPPETS"))
            #expect(
                store.mapping.relationship("ingredients", of: "Recipe")
                    == .joinTable(table: "Z_5INGREDIENTS", sourceColumn: "Z_5RECIPES", destinationColumn: "Z_8INGREDIENTS"))
            #expect(
                store.mapping.relationship("children", of: "User")
                    == .joinTable(table: "Z_1CHILDREN", sourceColumn: "Z_1CHILDREN", destinationColumn: "Z_1CHILDREN1"))
            try checkExampleQueries(store)
        }
        let after = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(before == after)
    }

    @Test func subEntitiesMatchTheStoresEntityNumbers() throws {
        let schema = Schema(entities: [
            Entity("Item", attributes: [Attribute("name", .string)]),
            Entity("Book", attributes: [Attribute("isbn", .string, optional: true)], parent: "Item"),
            Entity("Album", attributes: [Attribute("artist", .string, optional: true)], parent: "Item"),
        ])
        var graph = ObjectGraph(schema: schema)
        graph.insert("Item", ["name": .string("plain")])
        graph.insert("Book", ["name": .string("Dune"), "isbn": .string("978")])
        graph.insert("Album", ["name": .string("Kind of Blue"), "artist": .string("Miles Davis")])
        let directory = try TemporaryDirectory()
        // pq numbers Item 1, Album 2, Book 3; this store has Book 2 and Album 3.
        let path = try makeStore(
            directory, schema: schema, graph: graph,
            """
            UPDATE Z_PRIMARYKEY SET Z_ENT = Z_ENT + 100 WHERE Z_ENT IN (2, 3);
            UPDATE Z_PRIMARYKEY SET Z_ENT = 105 - Z_ENT WHERE Z_ENT > 100;
            UPDATE ZITEM SET Z_ENT = 5 - Z_ENT WHERE Z_ENT IN (2, 3);
            """)
        let store = try SQLiteStore.open(at: path, schema: schema)
        #expect(store.mapping.entityNumbers == ["Item": 1, "Book": 2, "Album": 3])
        #expect(store.mapping.entity("Book")?.entityNumbers == [2])
        #expect(store.mapping.entity("Item")?.entityNumbers == [1, 3, 2])
        func ids(_ text: String) throws -> [String] {
            let compiled = try #require(QueryCompiler.compile(text, schema: schema, mapping: store.mapping).compiled)
            return try store.fetch(compiled).map { $0.id.description }
        }
        #expect(try ids("Book where name != ''") == ["Book#2"])
        #expect(try ids("Album where name != ''") == ["Album#3"])
        #expect(try ids("Item sort by name") == ["Book#2", "Album#3", "Item#1"])
    }

    @Test func entitiesMissingFromZPrimaryKeyAreLeftOutWithAWarning() throws {
        let directory = try TemporaryDirectory()
        let one = try makeStore(
            directory, schema: ExampleSchemas.budgets, graph: ExampleData.graph(),
            "DELETE FROM Z_PRIMARYKEY WHERE Z_NAME = 'Transaction'")
        let store = try SQLiteStore.open(at: one, schema: ExampleSchemas.budgets)
        #expect(
            store.warnings == ["the store holds no entity Transaction of the model (not in its Z_PRIMARYKEY table); left out"])
        #expect(store.mapping.entity("Transaction") == nil)
        #expect(store.mapping.relationship("transactions", of: "Budget") == nil)
        let expected = try store.rawRows("SELECT Z_PK FROM ZBUDGET WHERE ZLIMIT > 100 ORDER BY Z_PK").map { $0[0] }
        #expect(try keys("Budget where limit > 100", in: store).sorted().map(Value.int) == expected)
        #expect(!expected.isEmpty)
        let all = try makeStore(directory, schema: ExampleSchemas.budgets, "DELETE FROM Z_PRIMARYKEY")
        #expect(
            message { _ = try SQLiteStore.open(at: all, schema: ExampleSchemas.budgets) }
                == "the store does not match the model: its Z_PRIMARYKEY table has none of the model's entities (Budget, Transaction)"
        )
        let shared = try makeStore(
            directory, schema: ExampleSchemas.budgets, "UPDATE Z_PRIMARYKEY SET Z_NAME = 'Budget' WHERE Z_ENT = 2")
        #expect(
            try SQLiteStore.open(at: shared, schema: ExampleSchemas.budgets).warnings
                == ["the store holds no entity Transaction of the model (not in its Z_PRIMARYKEY table); left out"])
    }

    @Test func missingColumnsAndTablesAreOneSentence() throws {
        let directory = try TemporaryDirectory()
        let budgets = ExampleSchemas.budgets
        func open(
            _ path: String, _ schema: Schema = ExampleSchemas.budgets, layout: StoreMapping.Layout = .coreData
        )
            -> String?
        {
            message { _ = try SQLiteStore.open(at: path, schema: schema, layout: layout) }
        }
        let column = try makeStore(directory, schema: budgets, "ALTER TABLE ZBUDGET DROP COLUMN ZLIMIT")
        #expect(open(column) == "the store does not match the model: table ZBUDGET has no column ZLIMIT (Budget.limit)")
        let columns = try makeStore(
            directory, schema: budgets, "ALTER TABLE ZBUDGET DROP COLUMN ZLIMIT; ALTER TABLE ZTRANSACTION DROP COLUMN ZNOTE")
        #expect(
            open(columns)
                == "the store does not match the model: table ZBUDGET has no column ZLIMIT (Budget.limit); table ZTRANSACTION has no column ZNOTE (Transaction.note)"
        )
        let foreignKey = try makeStore(
            directory, schema: budgets,
            "DROP INDEX ZTRANSACTION_ZBUDGET_INDEX; ALTER TABLE ZTRANSACTION DROP COLUMN ZBUDGET")
        #expect(
            open(foreignKey)
                == "the store does not match the model: table ZTRANSACTION has no column ZBUDGET (Transaction.budget)")
        let table = try makeStore(directory, schema: budgets, "DROP TABLE ZTRANSACTION")
        #expect(open(table) == "the store does not match the model: it has no table ZTRANSACTION (Transaction)")
        let join = try makeStore(directory, schema: ExampleSchemas.combined, "DROP TABLE Z_7TAGS")
        #expect(
            open(join, ExampleSchemas.combined)
                == "the store does not match the model: it has no table Z_7TAGS or Z_8SNIPPETS with columns Z_7SNIPPETS and Z_8TAGS (Snippet.tags)"
        )
        let joinColumn = try makeStore(
            directory, schema: ExampleSchemas.combined, "ALTER TABLE Z_7TAGS RENAME COLUMN Z_8TAGS TO Z_9TAGS")
        #expect(
            open(joinColumn, ExampleSchemas.combined)
                == "the store does not match the model: table Z_7TAGS has no column Z_8TAGS (Snippet.tags)")
        let entityColumn = try makeStore(directory, schema: budgets, "ALTER TABLE ZBUDGET RENAME COLUMN Z_ENT TO Z_ENTITY")
        #expect(
            open(entityColumn)
                == "the store does not match the model: table ZBUDGET has no column Z_ENT (the entity number of Budget)")
    }

    @Test func modelsWithMoreColumnsThanTheStoreAreRefusedMoreEntitiesWarnedOf() throws {
        let directory = try TemporaryDirectory()
        let path = try makeStore(directory, schema: ExampleSchemas.budgets)
        var schema = ExampleSchemas.budgets
        schema.entities[0].attributes.append(Attribute("summary", .string, transient: true))
        let store = try SQLiteStore.open(at: path, schema: schema)
        #expect(store.mapping.entity("Budget")?.columns["summary"] == nil)
        schema.entities[0].attributes.append(Attribute("currency", .string))
        #expect(
            message { _ = try SQLiteStore.open(at: path, schema: schema) }
                == "the store does not match the model: table ZBUDGET has no column ZCURRENCY (Budget.currency)")
        schema.entities[0].attributes.removeLast()
        schema.entities.append(Entity("Account", attributes: [Attribute("name", .string)]))
        #expect(
            try SQLiteStore.open(at: path, schema: schema).warnings
                == ["the store holds no entity Account of the model (not in its Z_PRIMARYKEY table); left out"])
    }

    @Test func plainStoresAreVerifiedTooAndTheWrongLayoutIsNamed() throws {
        let directory = try TemporaryDirectory()
        let budgets = ExampleSchemas.budgets
        let plain = try makeStore(
            directory, schema: budgets, layout: .plain, graph: nil, "ALTER TABLE Budget DROP COLUMN \"limit\"")
        #expect(
            message { _ = try SQLiteStore.open(at: plain, schema: budgets, layout: .plain) }
                == "the store does not match the model: table Budget has no column limit (Budget.limit)")
        #expect(
            message { _ = try SQLiteStore.open(at: plain, schema: budgets) }
                == "the store does not match the model: it has none of the model's tables (ZBUDGET, ZTRANSACTION), but has them in the plain layout (Budget, Transaction)"
        )
        let coreData = try makeStore(directory, schema: budgets)
        #expect(
            message { _ = try SQLiteStore.open(at: coreData, schema: budgets, layout: .plain) }
                == "the store does not match the model: it has none of the model's tables (Budget, Transaction), but has them in the Core Data layout (ZBUDGET, ZTRANSACTION)"
        )
        let other = directory.path("other.sqlite")
        do {
            let connection = try SQLiteConnection(path: other, readOnly: false, create: true)
            try connection.execute("CREATE TABLE note(id INTEGER PRIMARY KEY, text TEXT)")
        }
        #expect(
            message { _ = try SQLiteStore.open(at: other, schema: ExampleSchemas.combined) }
                == "the store does not match the model: it has none of the model's tables (ZBUDGET, ZFOLDER, ZINGREDIENT, ZMOVIE and 6 more)"
        )
    }

    @Test func storesPQCreatedStillOpenWithAModel() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("kept.sqlite")
        do {
            let store = try SQLiteStore.create(at: path, schema: ExampleSchemas.combined)
            try store.insert(ExampleData.graph())
        }
        let store = try SQLiteStore.open(at: path, schema: ExampleSchemas.combined)
        try checkExampleQueries(store)
    }
}
