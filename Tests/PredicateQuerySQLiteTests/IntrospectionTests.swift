// Opening SQLite databases pq did not create, without model files: plain databases
// are introspected (entities from tables, attribute types from declared column
// types, relationships from foreign keys) and queried; Core Data stores ask for
// their model; whatever cannot be read is left out with a warning.

import Foundation
import PredicateQuery
import PredicateQueryExamples
import Testing

@testable import PredicateQuerySQLite

struct IntrospectionTests {
    /// A database at a new path in `directory`, made with raw SQL.
    private func database(_ directory: TemporaryDirectory, _ name: String, _ sql: String) throws -> String {
        let path = directory.path(name)
        let connection = try SQLiteConnection(path: path, readOnly: false, create: true)
        try connection.execute(sql)
        return path
    }

    /// The keys of the rows a query returns, in order.
    private func keys(_ text: String, in store: SQLiteStore) throws -> [Int64] {
        let result = QueryCompiler.compile(text, schema: store.schema, mapping: store.mapping)
        let compiled = try #require(result.compiled, "\(text): \(result.diagnostics.map(\.message))")
        return try store.fetch(compiled).map(\.id.key)
    }

    private static let budgets = """
        CREATE TABLE budget(id INTEGER PRIMARY KEY, name TEXT NOT NULL, "limit" REAL);
        CREATE TABLE "transaction"(id INTEGER PRIMARY KEY, note TEXT, amount REAL, budget_id INTEGER REFERENCES budget(id));
        INSERT INTO budget VALUES (1, 'Vacation', 1500), (2, 'Rent', 1200), (3, 'Vacuum Repair', 80), (4, 'Groceries', NULL);
        INSERT INTO "transaction" VALUES (1, 'Flights', 640, 1), (2, 'Hotel', 720.5, 1), (3, 'April rent', 1200, 2),
            (4, 'Cash', 100, NULL), (5, 'May rent', 1200, 2), (6, 'New filter', 25, 3);
        """

    @Test func plainDatabaseBecomesASchemaAndAMapping() throws {
        let directory = try TemporaryDirectory()
        let path = try database(directory, "budgets.sqlite", Self.budgets)
        var warnings: [String] = []
        let store = try SQLiteStore.open(at: path, warnings: &warnings)
        #expect(warnings.isEmpty)
        #expect(store.isReadOnly)
        #expect(
            store.schema
                == Schema(entities: [
                    Entity(
                        "budget",
                        attributes: [
                            Attribute("id", .integer(bits: 64)), Attribute("name", .string),
                            Attribute("limit", .double, optional: true),
                        ],
                        relationships: [Relationship("transactions", toMany: "transaction", inverse: "budget")]),
                    Entity(
                        "transaction",
                        attributes: [
                            Attribute("id", .integer(bits: 64)), Attribute("note", .string, optional: true),
                            Attribute("amount", .double, optional: true),
                            Attribute("budget_id", .integer(bits: 64), optional: true),
                        ],
                        relationships: [Relationship("budget", to: "budget", inverse: "transactions")]),
                ]))
        #expect(store.schema.validate().isEmpty)
        #expect(store.mapping.layout == .plain)
        #expect(
            store.mapping.entity("budget")
                == EntityMapping(table: "budget", primaryKey: "id", columns: ["id": "id", "name": "name", "limit": "limit"]))
        #expect(store.mapping.relationship("budget", of: "transaction") == .foreignKey(column: "budget_id"))
        #expect(store.mapping.relationship("transactions", of: "budget") == .inverseForeignKey(column: "budget_id"))
    }

    @Test func plainDatabaseAnswersQueries() throws {
        let directory = try TemporaryDirectory()
        let store = try SQLiteStore.open(at: try database(directory, "budgets.sqlite", Self.budgets))
        #expect(try keys("budget where limit > 100 && name contains 'Vac'", in: store) == [1])
        #expect(try keys("transaction where budget.name == 'Rent'", in: store) == [3, 5])
        #expect(try keys("budget where transactions.count > 1", in: store) == [1, 2])
        #expect(try keys("budget where transactions.@sum.amount > 1000 sort by name", in: store) == [2, 1])
        #expect(try keys("budget where limit == nil", in: store) == [4])
        #expect(try keys("transaction where budget == nil", in: store) == [4])
        #expect(try keys("transaction where id in [2, 4, 9] sort by id desc", in: store) == [4, 2])
        #expect(try keys("transaction where budget_id == 1", in: store) == [1, 2])
        #expect(try keys("transaction where budget.id == 3", in: store) == [6])
        #expect(try keys("transaction where budget.limit < 100 || amount >= 1200 sort by note", in: store) == [3, 5, 6])
        let result = QueryCompiler.compile("transaction where amount > 700", schema: store.schema, mapping: store.mapping)
        let compiled = try #require(result.compiled)
        let rows = try store.fetch(compiled)
        #expect(rows.map(\.id) == [ObjectID("transaction", 2), ObjectID("transaction", 3), ObjectID("transaction", 5)])
        #expect(rows.first?.values["note"] == .string("Hotel"))
        #expect(rows.first?.toOne["budget"] == 1)
    }

    @Test func columnTypesFollowSQLiteAffinity() throws {
        let directory = try TemporaryDirectory()
        let path = try database(
            directory, "types.sqlite",
            """
            CREATE TABLE sample(a INT, b VARCHAR(20), c CLOB, d BLOB, e, f REAL, g FLOAT, h DOUBLE PRECISION,
                i NUMERIC, j DECIMAL(10, 2), k BOOLEAN NOT NULL, l DATE, m DATETIME, n TIMESTAMP, o BIGINT NOT NULL,
                p POINT, q UNSIGNED BIG INT);
            INSERT INTO sample(a, b, k, l, m, o) VALUES (1, 'x', 1, '2024-05-01', 1714521600, 10),
                (2, 'y', 0, '2024-04-01', 1711929600.5, 20), (3, 'z', 1, NULL, NULL, 30);
            """)
        let store = try SQLiteStore.open(at: path)
        let entity = try #require(store.schema.entity(named: "sample"))
        let types = Dictionary(uniqueKeysWithValues: entity.attributes.map { ($0.name, $0.type) })
        #expect(
            types == [
                "rowid": .integer(bits: 64), "a": .integer(bits: 64), "b": .string, "c": .string, "d": .data, "e": .data,
                "f": .double, "g": .double, "h": .double, "i": .double, "j": .double, "k": .bool, "l": .string,
                "m": .date, "n": .string, "o": .integer(bits: 64), "p": .integer(bits: 64), "q": .integer(bits: 64),
            ])
        let optional = Set(entity.attributes.filter(\.isOptional).map(\.name))
        #expect(optional == ["a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "l", "m", "n", "p", "q"])
        // No INTEGER PRIMARY KEY: the rowid is the key, and an attribute.
        #expect(store.mapping.entity("sample")?.primaryKey == "rowid")
        #expect(try keys("sample where rowid >= 2", in: store) == [2, 3])
        #expect(try keys("sample where k", in: store) == [1, 3])
        #expect(try keys("sample where !k", in: store) == [2])
        #expect(try keys("sample where l >= '2024-04-15'", in: store) == [1])
        #expect(try keys("sample where m > date('2024-04-15')", in: store) == [1])
        #expect(try keys("sample where m < date('2024-04-15') && m != nil", in: store) == [2])
        let result = QueryCompiler.compile("sample where a == 1", schema: store.schema, mapping: store.mapping)
        let compiled = try #require(result.compiled)
        let row = try #require(try store.fetch(compiled).first)
        #expect(row.values["m"] == .date(Date(timeIntervalSince1970: 1_714_521_600)))
        #expect(row.values["k"] == .bool(true))
        #expect(row.values["l"] == .string("2024-05-01"))
    }

    @Test func oddTablesColumnsAndKeysAreLeftOutWithWarnings() throws {
        let directory = try TemporaryDirectory()
        let path = try database(
            directory, "odd.sqlite",
            """
            CREATE TABLE "my table"(x TEXT);
            CREATE TABLE "2fast"(x TEXT);
            CREATE TABLE ok("bad col" TEXT, good TEXT, "ünïcode" TEXT);
            CREATE TABLE tag(name TEXT PRIMARY KEY) WITHOUT ROWID;
            CREATE TABLE counter(k INT PRIMARY KEY, v TEXT) WITHOUT ROWID;
            CREATE TABLE keyed(rowid TEXT, v TEXT);
            CREATE TABLE labelled(id INTEGER PRIMARY KEY, tag_name TEXT REFERENCES tag(name),
                ok_id INTEGER REFERENCES ok(rowid), a INTEGER, b INTEGER, FOREIGN KEY (a, b) REFERENCES counter(k, v));
            INSERT INTO ok VALUES ('?', 'yes', 'ü'), ('?', 'no', NULL);
            INSERT INTO counter VALUES (7, 'seven'), (8, 'eight');
            INSERT INTO keyed VALUES ('first', 'a'), ('second', 'b');
            """)
        var warnings: [String] = []
        let store = try SQLiteStore.open(at: path, warnings: &warnings)
        #expect(store.schema.entities.map(\.name) == ["ok", "counter", "keyed", "labelled"])
        #expect(store.schema.entity(named: "ok")?.attributes.map(\.name) == ["rowid", "good", "ünïcode"])
        #expect(store.mapping.entity("counter")?.primaryKey == "k")
        #expect(store.mapping.entity("keyed")?.primaryKey == "_rowid_")
        #expect(store.schema.entity(named: "labelled")?.relationships.isEmpty == true)
        #expect(
            warnings == [
                "table 'my table' is left out: its name is not one pq can spell (letters, digits and underscores, not starting with a digit)",
                "table '2fast' is left out: its name is not one pq can spell (letters, digits and underscores, not starting with a digit)",
                "table 'tag' is left out: it is a WITHOUT ROWID table whose primary key is not one integer column, so its rows have no integer key",
                "column 'bad col' of 'ok' is left out: its name is not one pq can spell (letters, digits and underscores, not starting with a digit)",
                "the foreign key (a, b) of 'labelled' to 'counter' is left out: pq follows only single-column foreign keys",
                "the foreign key 'labelled.tag_name' is left out: it refers to 'tag', which is not a table pq reads",
                "the foreign key 'labelled.ok_id' is left out: it refers to 'ok.rowid', which is not an INTEGER PRIMARY KEY column",
            ], "\(warnings)")
        #expect(try keys("ok where good == 'yes'", in: store) == [1])
        #expect(try keys("counter where v == 'eight'", in: store) == [8])
        #expect(try keys("keyed where rowid == 'second'", in: store) == [2])
        #expect(try keys("keyed where _rowid_ == 1", in: store) == [1])
    }

    @Test func relationshipsAreNamedFromColumnsAndTables() throws {
        let directory = try TemporaryDirectory()
        let path = try database(
            directory, "people.sqlite",
            """
            CREATE TABLE Person(id INTEGER PRIMARY KEY, name TEXT NOT NULL);
            CREATE TABLE employee(id INTEGER PRIMARY KEY, name TEXT, managerId INTEGER REFERENCES employee);
            CREATE TABLE pet(id INTEGER PRIMARY KEY, name TEXT, owner INTEGER NOT NULL REFERENCES Person(id));
            CREATE TABLE profile(id INTEGER PRIMARY KEY REFERENCES Person(id), bio TEXT);
            CREATE TABLE account(id INTEGER PRIMARY KEY, name TEXT);
            CREATE TABLE transfer(id INTEGER PRIMARY KEY, from_id INTEGER REFERENCES account(id),
                to_id INTEGER REFERENCES account(id), amount REAL);
            CREATE TABLE order_line(id INTEGER PRIMARY KEY, category_id INTEGER REFERENCES category(id));
            CREATE TABLE category(id INTEGER PRIMARY KEY, orderLines TEXT, parent_id INTEGER REFERENCES category(id));
            CREATE TABLE box(id INTEGER PRIMARY KEY, owner_id INTEGER REFERENCES Person(id), owner TEXT);
            INSERT INTO Person VALUES (1, 'Ann'), (2, 'Bob');
            INSERT INTO employee VALUES (1, 'Ann', NULL), (2, 'Bob', 1), (3, 'Cy', 1), (4, 'Di', 2);
            INSERT INTO pet VALUES (1, 'Rex', 1), (2, 'Tom', 2), (3, 'Kit', 2);
            INSERT INTO profile VALUES (2, 'Builder');
            INSERT INTO account VALUES (1, 'Checking'), (2, 'Savings');
            INSERT INTO transfer VALUES (1, 1, 2, 100), (2, 2, 1, 40);
            """)
        var warnings: [String] = []
        let store = try SQLiteStore.open(at: path, warnings: &warnings)
        #expect(store.schema.validate().isEmpty)
        func relationships(_ entity: String) -> [String] {
            (store.schema.entity(named: entity)?.relationships ?? []).map {
                "\($0.name)\($0.isToMany ? "*" : "") → \($0.destination)\($0.inverse.map { " (\($0))" } ?? "")"
            }
        }
        #expect(relationships("Person") == ["pets* → pet (owner)", "profiles* → profile (person)"])
        #expect(relationships("employee") == ["manager → employee (employees)", "employees* → employee (manager)"])
        #expect(relationships("pet") == ["owner → Person (pets)"])
        #expect(relationships("profile") == ["person → Person (profiles)"])
        #expect(relationships("transfer") == ["from → account", "to → account"])
        #expect(relationships("account").isEmpty)
        #expect(relationships("category") == ["parent → category (categories)", "categories* → category (parent)"])
        #expect(relationships("order_line") == ["category → category"])
        #expect(relationships("box").isEmpty)
        // A foreign-key column without an `_id` suffix is the relationship, not an attribute.
        #expect(store.schema.entity(named: "pet")?.attributes.map(\.name) == ["id", "name"])
        #expect(store.schema.entity(named: "pet")?.relationships.first?.isOptional == false)
        #expect(
            warnings == [
                "the foreign key 'box.owner_id' is left out: its relationship would be called 'owner', which is a column of 'box'",
                "'account' gets no relationship back for the foreign key 'transfer.from_id': several foreign keys to 'account' would give it a relationship called 'transfers'",
                "'account' gets no relationship back for the foreign key 'transfer.to_id': several foreign keys to 'account' would give it a relationship called 'transfers'",
                "'category' gets no relationship back for the foreign key 'order_line.category_id': 'category' already has a property called 'orderLines'",
            ], "\(warnings)")
        #expect(try keys("employee where manager.name == 'Ann'", in: store) == [2, 3])
        #expect(try keys("employee where employees.count >= 2", in: store) == [1])
        #expect(try keys("employee where manager.manager.name == 'Ann'", in: store) == [4])
        #expect(try keys("pet where owner.name == 'Bob'", in: store) == [2, 3])
        #expect(try keys("Person where pets.count == 1", in: store) == [1])
        #expect(try keys("Person where any profiles.bio contains 'Build'", in: store) == [2])
        #expect(try keys("transfer where from.name == 'Savings' && to.name == 'Checking'", in: store) == [2])
    }

    @Test func names() {
        #expect(Introspector.lowerCamel("transaction") == "transaction")
        #expect(Introspector.lowerCamel("Transaction") == "transaction")
        #expect(Introspector.lowerCamel("order_line") == "orderLine")
        #expect(Introspector.lowerCamel("ORDER_LINE") == "orderLine")
        #expect(Introspector.lowerCamel("URLCache") == "urlCache")
        #expect(Introspector.lowerCamel("_private") == "private")
        #expect(Introspector.lowerCamel("___") == "___")
        #expect(Introspector.strippingKeySuffix("budget_id") == "budget")
        #expect(Introspector.strippingKeySuffix("budgetId") == "budget")
        #expect(Introspector.strippingKeySuffix("BUDGETID") == "BUDGET")
        #expect(Introspector.strippingKeySuffix("ID") == nil)
        #expect(Introspector.strippingKeySuffix("budget") == nil)
        #expect(PlainName.isPlain("ünïcode") && PlainName.isPlain("_x1"))
        #expect(!PlainName.isPlain("2fast") && !PlainName.isPlain("my table") && !PlainName.isPlain(""))
    }

    @Test func coreDataStoresWithNoModelOpenWithOneInferredFromTheirTables() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("CoreData.sqlite")
        do {
            let store = try SQLiteStore.create(at: path, schema: ExampleSchemas.budgets)
            try store.insert(ExampleData.graph())
            try store.execute("DROP TABLE PQ_SCHEMA")
        }
        let store = try SQLiteStore.open(at: path)
        #expect(store.isSchemaInferred)
        #expect(store.schema.entities.map(\.name) == ["Budget", "Transaction"])
        let budget = try #require(store.schema.entity(named: "Budget"))
        #expect(budget.attributes.map(\.name).contains("limit"))
        #expect(budget.relationships.map(\.name) == ["transactions"])
        let transaction = try #require(store.schema.entity(named: "Transaction"))
        #expect(transaction.relationships.first?.destination == "Budget")
        let result = store.compile("Budget where transactions.@count >= 1")
        let compiled = try #require(result.compiled, "\(result.diagnostics.map(\.message))")
        let expected = try store.rawRows("SELECT count(DISTINCT ZBUDGET) FROM ZTRANSACTION WHERE ZBUDGET IS NOT NULL")
        #expect([[Value.int(try store.count(compiled))]] == expected)
    }

    @Test func storesPQCreatedInThePlainLayoutReopenByIntrospection() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("plain.sqlite")
        do {
            let store = try SQLiteStore.create(at: path, schema: ExampleSchemas.combined, layout: .plain)
            try store.insert(ExampleData.graph())
            try store.execute("DROP TABLE PQ_SCHEMA")
        }
        var warnings: [String] = []
        let store = try SQLiteStore.open(at: path, warnings: &warnings)
        #expect(warnings.isEmpty, "\(warnings)")
        #expect(
            store.schema.entities.map(\.name) == [
                "Budget", "Folder", "Ingredient", "Movie", "Pet", "Recipe", "Snippet", "Tag", "Transaction", "User",
                "Snippet_tags", "Ingredient_recipes", "User_children",
            ])
        // pq's plain tables declare no foreign keys, so their links are plain Int columns.
        #expect(store.schema.entities.allSatisfy { $0.relationships.isEmpty })
        #expect(
            store.schema.entity(named: "Transaction")?.attributes.map { "\($0.name): \($0.type)\($0.isOptional ? "?" : "")" } == [
                "id: Int", "note: String?", "amount: Double?", "date: Double?", "hasReceipt: Int?", "budget_id: Int?",
            ])
        #expect(store.mapping.entity("Folder")?.primaryKey == "pk")
        #expect(store.mapping.entity("Snippet_tags")?.primaryKey == "rowid")
        #expect(try keys("Budget where limit > 1000 sort by name", in: store) == [7, 3, 4, 1])
        #expect(try keys("Transaction where budget_id == 1 sort by amount", in: store) == [3, 1, 2])
        #expect(try keys("Folder where id == 'work'", in: store) == [1])
    }

    @Test func emptyDatabasesAndNonDatabasesGetOneClearError() throws {
        let directory = try TemporaryDirectory()
        let empty = try database(directory, "empty.sqlite", "CREATE TABLE \"a b\"(x)")
        #expect {
            _ = try SQLiteStore.open(at: empty)
        } throws: { error in
            (error as? StoreError)?.message
                == "'\(empty)' has no tables pq can query: table 'a b' is left out: its name is not one pq can spell (letters, digits and underscores, not starting with a digit)"
        }
        let text = directory.path("notes.txt")
        try Data("just some text, not a database at all".utf8).write(to: URL(fileURLWithPath: text))
        var warnings: [String] = []
        #expect {
            _ = try SQLiteStore.open(at: text, warnings: &warnings)
        } throws: { error in
            (error as? StoreError)?.message == "'\(text)' is not a SQLite database (it does not begin with SQLite's header)"
        }
    }

    @Test func introspectedDatabasesStayByteIdentical() throws {
        let directory = try TemporaryDirectory()
        let path = try database(directory, "budgets.sqlite", Self.budgets)
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        do {
            var warnings: [String] = []
            let store = try SQLiteStore.open(at: path, warnings: &warnings)
            _ = try keys("budget where transactions.count > 1", in: store)
            _ = try keys("transaction where budget.name == 'Rent'", in: store)
            #expect(throws: StoreError.self) { try store.execute("DELETE FROM budget") }
            let again = try SQLiteStore.open(at: path)
            _ = try keys("budget where TRUEPREDICATE sort by name", in: again)
        }
        let after = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(before == after)
    }
}
