// Opening, creating, reopening and reading stores; read-only means unchanged.

import Foundation
import PredicateQuery
import PredicateQueryExamples
import Testing

@testable import PredicateQuerySQLite

struct StoreTests {
    @Test func storesPQCreatesReopenWithoutModelFiles() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("example.sqlite")
        do {
            let store = try SQLiteStore.create(at: path, schema: ExampleSchemas.combined)
            try store.insert(ExampleData.graph())
        }
        let reopened = try SQLiteStore.open(at: path)
        #expect(reopened.schema == ExampleSchemas.combined)
        #expect(reopened.isReadOnly)
        let compiled = QueryCompiler.compile("genre == .kids sort by name", schema: reopened.schema, mapping: reopened.mapping)
            .compiled
        let names = try compiled.map { try reopened.fetch($0).compactMap { $0.values["name"] } }
        #expect(names == [.string("Frozen"), .string("Paddington"), .string("Toy Story")])
    }

    @Test func aQueryRunAgainReusesItsStatementAndStillAnswersRight() throws {
        let (store, graph) = try ExampleStore.make()
        let result = store.compile("Budget where limit > $min sort by name")
        let compiled = try #require(result.compiled)
        let checked = try #require(result.checked)
        func expected(_ minimum: Double) throws -> [Int64] {
            try Evaluator(graph: graph, parameters: ["min": .single(.double(minimum))]).run(checked).map(\.key)
        }
        func fetched(_ minimum: Double) throws -> [Int64] {
            try store.fetch(compiled, parameters: ["min": .single(.double(minimum))]).map(\.id.key)
        }
        for minimum in [100.0, 1000.0, 0.0, 100.0] {
            #expect(try fetched(minimum) == (try expected(minimum)))
        }
        // Two cursors of the same query at once get a statement each.
        let first = try store.rows(compiled, parameters: ["min": .single(.double(0))])
        let second = try store.rows(compiled, parameters: ["min": .single(.double(1000))])
        var keys: ([Int64], [Int64]) = ([], [])
        var done = (false, false)
        while !done.0 || !done.1 {
            if !done.0 { if let row = try first.next() { keys.0.append(row.id.key) } else { done.0 = true } }
            if !done.1 { if let row = try second.next() { keys.1.append(row.id.key) } else { done.1 = true } }
        }
        #expect(keys.0 == (try expected(0)))
        #expect(keys.1 == (try expected(1000)))
        // A kept statement follows a change of schema.
        try store.execute("CREATE INDEX ZBUDGET_ZLIMIT_INDEX ON ZBUDGET (ZLIMIT)")
        #expect(try fetched(100) == (try expected(100)))
        #expect(
            try store.queryPlan(compiled, parameters: ["min": .single(.double(100))]).joined().contains("ZBUDGET_ZLIMIT_INDEX"))
    }

    @Test func readOnlyStoresStayByteIdentical() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("store.sqlite")
        do {
            let store = try SQLiteStore.create(at: path, schema: ExampleSchemas.combined)
            try store.insert(ExampleData.graph())
        }
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        do {
            let store = try SQLiteStore.open(at: path)
            for text in ["limit > 100", "any tags.name == 'swift'", "Budget sort by name"] {
                let compiled = QueryCompiler.compile(text, schema: store.schema, mapping: store.mapping).compiled
                _ = try compiled.map { try store.fetch($0) }
            }
            #expect(throws: StoreError.self) { try store.insert(ExampleData.graph()) }
            #expect(throws: StoreError.self) { try store.execute("DELETE FROM ZBUDGET") }
        }
        let after = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(before == after)
    }

    @Test func missingAndForeignFilesGetOneClearError() throws {
        let directory = try TemporaryDirectory()
        #expect {
            _ = try SQLiteStore.open(at: directory.path("missing.sqlite"))
        } throws: { error in
            (error as? StoreError)?.message.contains("no store at") == true
        }
        let text = directory.path("notes.txt")
        try Data("just some text, not a database at all".utf8).write(to: URL(fileURLWithPath: text))
        #expect {
            _ = try SQLiteStore.open(at: text)
        } throws: { error in
            (error as? StoreError)?.message.contains("is not a SQLite database") == true
        }
        let coreData = directory.path("coredata.sqlite")
        do {
            let other = try SQLiteStore.create(at: coreData, schema: ExampleSchemas.budgets)
            try other.connection.execute("DROP TABLE PQ_SCHEMA")
        }
        // A Core Data store with no model inside opens with a model inferred from its tables.
        #expect(try SQLiteStore.open(at: coreData).isSchemaInferred)
        #expect(throws: StoreError.self) { _ = try SQLiteStore.create(at: text, schema: ExampleSchemas.budgets) }
    }

    @Test func cursorsStreamRowsAndCountsCount() throws {
        let (store, _) = try ExampleStore.make()
        let compiled = try #require(
            QueryCompiler.compile("Transaction sort by amount desc", schema: store.schema, mapping: store.mapping).compiled)
        let cursor = try store.rows(compiled)
        let first = try #require(try cursor.next())
        #expect(first.values["note"] == .string("April rent"))
        #expect(first.toOne["budget"] == 3)
        var remaining = 0
        while try cursor.next() != nil { remaining += 1 }
        #expect(remaining == 13)
        let counting = try #require(
            QueryCompiler.compile("Transaction where hasReceipt", schema: store.schema, mapping: store.mapping, count: true)
                .compiled)
        #expect(try store.count(counting) == 8)
        let page = try #require(
            QueryCompiler.compile(
                "Transaction where hasReceipt limit 3 offset 6", schema: store.schema, mapping: store.mapping, count: true
            ).compiled)
        #expect(try store.count(page) == 2)
    }

    /// A query compiled for another store's layout is refused, not run: its SQL
    /// would read that layout's tables and entity numbers here. A query compiled
    /// for an equal layout (another store made the same way) runs.
    @Test func aQueryCompiledForAnotherLayoutIsRefused() throws {
        let (coreData, _) = try ExampleStore.make(layout: .coreData)
        let (plain, _) = try ExampleStore.make(layout: .plain)
        let (twin, _) = try ExampleStore.make(layout: .coreData)
        let text = "Transaction where hasReceipt"
        let forPlain = try #require(plain.compile(text).compiled)
        #expect(try plain.fetch(forPlain).count == 8)
        for run in [{ _ = try coreData.fetch(forPlain) }, { _ = try coreData.count(forPlain) }, { _ = try coreData.rows(forPlain) }] {
            do {
                try run()
                Issue.record("a query compiled for the plain layout ran on a Core Data store")
            } catch let error as StoreError {
                #expect(error.message.hasPrefix("the query was compiled for another store's layout"), "\(error.message)")
                #expect(error.kind == .invalidParameter)
            }
        }
        // Entity numbers are part of the layout: the same tables numbered otherwise are another.
        var renumbered = coreData.mapping
        renumbered.entityNumbers = Dictionary(uniqueKeysWithValues: renumbered.entityNumbers.map { ($0.key, $0.value + 1) })
        let misnumbered = try #require(
            QueryCompiler.compile(text, schema: coreData.schema, mapping: renumbered).compiled)
        #expect(throws: StoreError.self) { _ = try coreData.fetch(misnumbered) }
        // Indexes are not: they change the plan, not what the SQL reads.
        var indexed = coreData.mapping
        indexed.indexedColumns = ["ztransaction": ["zhasreceipt"]]
        let withIndexes = try #require(QueryCompiler.compile(text, schema: coreData.schema, mapping: indexed).compiled)
        #expect(try coreData.fetch(withIndexes).count == 8)
        // Compiled by a twin store (an equal layout, built apart), it runs.
        #expect(try coreData.fetch(try #require(twin.compile(text).compiled)).count == 8)
    }

    /// Fetching a query compiled to count is refused: its one row is a number, not
    /// an object, and reading it as one would make up an object.
    @Test func fetchingAQueryCompiledToCountIsRefused() throws {
        let (store, _) = try ExampleStore.make()
        let counting = try #require(
            QueryCompiler.compile("Transaction where hasReceipt", schema: store.schema, mapping: store.mapping, count: true)
                .compiled)
        do {
            let rows = try store.fetch(counting)
            Issue.record("fetched \(rows.count) rows of a count: \(rows.map(\.id))")
        } catch {
            #expect(error.message.contains("compiled to count returns a number"), "\(error.message)")
            #expect(error.kind == .invalidParameter)
        }
        #expect(throws: StoreError.self) { _ = try store.rows(counting) }
    }

    /// `count` of a query compiled for rows is its number of matches, as for one
    /// compiled to count. It once ran the rows' statement and returned the first
    /// row's first column: an object's key, without a word.
    @Test func countingAQueryOfRowsGivesItsNumberOfMatches() throws {
        let (store, _) = try ExampleStore.make()
        let cases: [(String, [String: ParameterValue], Int64?)] = [
            ("Transaction where hasReceipt", [:], 8),
            ("Transaction where hasReceipt limit 3 offset 6", [:], 2),
            ("Transaction where amount > $min", ["min": .single(.double(100))], nil),
            ("Transaction where note in $notes", ["notes": .list([.string("April rent"), .string("nothing")])], 1),
            ("Budget where FALSEPREDICATE", [:], 0),
        ]
        for (text, parameters, expected) in cases {
            let rows = try #require(store.compile(text).compiled, "\(text)")
            #expect(!rows.isCount)
            let counted = try store.count(rows, parameters: parameters)
            #expect(counted == Int64(try store.fetch(rows, parameters: parameters).count), "\(text)")
            if let expected { #expect(counted == expected, "\(text)") }
            let compiledToCount = try #require(
                QueryCompiler.compile(text, schema: store.schema, mapping: store.mapping, count: true).compiled)
            #expect(counted == (try store.count(compiledToCount, parameters: parameters)), "\(text)")
        }
    }

    @Test func aTimeoutStopsOnlyTheQueryThatRunsPastIt() throws {
        let store = try SQLiteStore.create(at: ":memory:", schema: ExampleSchemas.movies)
        var graph = ObjectGraph(schema: ExampleSchemas.movies)
        // Each name costs `matches '(a+)+b'` a few hundredths of a second: minutes in all,
        // so a stop within the bound below (generous for a loaded machine) is the timeout's.
        for _ in 0..<3_000 { graph.insert("Movie", ["name": .string(String(repeating: "a", count: 21)), "genre": .int(1)]) }
        try store.insert(graph)
        let slow = try #require(
            QueryCompiler.compile("name matches '(a+)+b'", schema: store.schema, mapping: store.mapping).compiled)
        let quick = try #require(QueryCompiler.compile("genre == .action", schema: store.schema, mapping: store.mapping).compiled)
        store.timeout = .milliseconds(200)
        let clock = ContinuousClock()
        let start = clock.now
        #expect {
            _ = try store.fetch(slow)
        } throws: { error in
            (error as? StoreError)?.message == "the query ran longer than its 200 ms timeout and was stopped"
        }
        #expect(clock.now - start < .seconds(10))
        // The next query gets its own clock, and writes run untimed after a stale deadline.
        #expect(try store.fetch(quick).count == 3_000)
        Thread.sleep(forTimeInterval: 0.3)
        var more = ObjectGraph(schema: ExampleSchemas.movies)
        for key in 3_001...3_300 { more.insert("Movie", ["name": .string("Up"), "genre": .int(1)], key: Int64(key)) }
        try store.insert(more)
        #expect(try store.fetch(quick).count == 3_300)
        store.timeout = nil
        #expect(store.timeout == nil)
    }

    @Test func listsBeyondSQLitesPlaceholderLimitWorkOrFailCleanly() throws {
        let (store, graph) = try ExampleStore.make()
        let result = QueryCompiler.compile("Budget where name in $names", schema: store.schema, mapping: store.mapping)
        let compiled = try #require(result.compiled)
        let checked = try #require(result.checked)
        // Within the limit: 30,000 values bind, and the answer is the evaluator's.
        let many = (0..<30_000).map { Value.string("name \($0)") } + [.string("Rent")]
        let parameters: [String: ParameterValue] = ["names": .list(many)]
        let expected = try Evaluator(graph: graph, parameters: parameters).run(checked)
        #expect(try store.fetch(compiled, parameters: parameters).map(\.id) == expected)
        #expect(expected.count == 1)
        // Beyond it: one clear error, and the store goes on working.
        let tooMany: [String: ParameterValue] = ["names": .list((0..<40_000).map { .string("name \($0)") })]
        #expect {
            _ = try store.fetch(compiled, parameters: tooMany)
        } throws: { error in
            (error as? StoreError)?.message
                == "the query needs 40001 bound values (the list '$names' has 40000); SQLite allows at most 32766 in one query"
        }
        // Lists written in the query, four of 9,000 literals: refused when compiled,
        // before lowering (the values are counted on the checked query), with the message a run gives.
        let lists = (0..<4).map { list in
            "name in {" + (0..<9_000).map { "'n\(list)-\($0)'" }.joined(separator: ", ") + "}"
        }
        let text = "Budget where " + lists.joined(separator: " || ")
        let literal = QueryCompiler.compile(text, schema: store.schema, mapping: store.mapping)
        #expect(literal.compiled == nil)
        #expect(
            literal.diagnostics.map(\.message) == [
                "the query needs 36000 bound values; SQLite allows at most 32766 in one query"
            ])
        #expect(try store.fetch(compiled, parameters: parameters).count == 1)
    }

    @Test func parametersAreBoundByNameAndChecked() throws {
        let (store, _) = try ExampleStore.make()
        let compiled = try #require(
            QueryCompiler.compile("limit > $min && name in $names", schema: store.schema, mapping: store.mapping).compiled)
        let rows = try store.fetch(
            compiled,
            parameters: [
                "min": .single(.int(100)), "names": .list([.string("Rent"), .string("Gifts"), .string("Vacuum Repair")]),
            ])
        #expect(rows.map(\.id.key) == [3, 6])
        #expect(throws: StoreError.self) { try store.fetch(compiled, parameters: ["min": .single(.int(1))]) }
        #expect(throws: StoreError.self) {
            try store.fetch(compiled, parameters: ["min": .single(.string("x")), "names": .list([])])
        }
        let none = try store.fetch(compiled, parameters: ["min": .single(.double(0)), "names": .list([])])
        #expect(none.isEmpty)
    }
}
