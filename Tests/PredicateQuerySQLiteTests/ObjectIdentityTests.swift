// Objects as values (issue 14): a to-one relationship, SELF and SwiftData's
// persistentModelID compare with parameters bound to store keys, lowered to key
// comparisons with no join, and the rows equal hand-written SQL on the same store.

import Foundation
import PredicateQuery
import PredicateQueryExamples
import PredicateQuerySQLite
import Testing

struct ObjectIdentityTests {
    private func compile(_ text: String, _ store: SQLiteStore) throws -> CompiledQuery {
        let result = QueryCompiler.compile(text, schema: store.schema, mapping: store.mapping)
        guard let compiled = result.compiled else {
            throw StoreError(DiagnosticRenderer().render(result.diagnostics, in: text))
        }
        return compiled
    }

    /// The keys hand-written SQL selects, in key order.
    private func keys(_ sql: String, _ store: SQLiteStore) throws -> [Int64] {
        try store.rawRows(sql).compactMap { row -> Int64? in
            if case .int(let value)? = row.first { return value }
            return nil
        }.sorted()
    }

    @Test func aToOneRelationshipComparesWithAnObjectByItsKeyWithoutAJoin() throws {
        let (store, _) = try ExampleStore.make()
        let compiled = try compile("Transaction where budget == $b", store)
        // `=` or `IS`, chosen when the value is bound (`=` for a key, which an index answers).
        #expect(compiled.sql.contains("t0.\"ZBUDGET\" =?1= ?1"))
        #expect(!compiled.sql.contains("JOIN"), "\(compiled.sql)")
        for key: Int64 in [1, 3, 99] {
            let rows = try store.fetch(compiled, parameters: ["b": .single(.int(key))]).map(\.id.key)
            #expect(rows == (try keys("SELECT Z_PK FROM ZTRANSACTION WHERE ZBUDGET = \(key) ORDER BY Z_PK", store)))
        }
        let unequal = try store.fetch(try compile("Transaction where budget != $b", store), parameters: ["b": .single(.int(3))])
        #expect(
            unequal.map(\.id.key)
                == (try keys("SELECT Z_PK FROM ZTRANSACTION WHERE ZBUDGET IS NOT 3 ORDER BY Z_PK", store)))
    }

    @Test func everySpellingOfIdentityMeansTheSame() throws {
        let (store, _) = try ExampleStore.make()
        let ids: ParameterValue = .list([.int(1), .int(8), .int(500)])
        let expected = try keys("SELECT Z_PK FROM ZBUDGET WHERE Z_PK IN (1, 8, 500) ORDER BY Z_PK", store)
        #expect(expected == [1, 8])
        for text in [
            "Budget where SELF in $ids", "Budget where $ids.contains(persistentModelID)",
            "Budget where persistentModelID in $ids", "Budget where id in $ids",
        ] {
            #expect(try store.fetch(try compile(text, store), parameters: ["ids": ids]).map(\.id.key) == expected, "\(text)")
        }
        let throughToOne = try keys("SELECT Z_PK FROM ZTRANSACTION WHERE ZBUDGET IN (1, 8, 500) ORDER BY Z_PK", store)
        for text in ["Transaction where budget in $ids", "Transaction where budget?.persistentModelID in $ids"] {
            #expect(
                try store.fetch(try compile(text, store), parameters: ["ids": ids]).map(\.id.key) == throughToOne, "\(text)")
        }
    }

    @Test func anObjectAmongAToManyRelationshipsElements() throws {
        let (store, _) = try ExampleStore.make()
        let expected = try keys(
            "SELECT Z_7SNIPPETS FROM Z_7TAGS WHERE Z_8TAGS = 1 ORDER BY Z_7SNIPPETS", store)
        #expect(!expected.isEmpty)
        for text in ["Snippet where any tags == $t", "Snippet where $t in tags", "Snippet where tags.contains { $0 == $t }"] {
            let rows = try store.fetch(try compile(text, store), parameters: ["t": .single(.int(1))]).map(\.id.key)
            #expect(rows == expected, "\(text)")
        }
    }

    @Test func objectsAreOnlyEqualOrUnequalAndOfOneEntity() {
        let schema = ExampleSchemas.combined
        for (text, code) in [
            ("Transaction where budget < $b", "check.notOrderable"),
            ("Transaction where budget == 'Rent'", "check.relationshipComparison"),
            ("Transaction where budget == SELF", "check.typeMismatch"),
        ] {
            let result = QueryCompiler.compile(text, schema: schema, mapping: StoreMapping.make(for: schema, layout: .coreData))
            #expect(result.diagnostics.contains { $0.code.rawValue == code }, "\(text): \(result.diagnostics)")
        }
    }
}

/// The typed builder says the same with `ObjectKey`s, bound as parameters.
struct ObjectKeyBuilderTests {
    private func keys<M: QueryModel>(_ query: ModelQuery<M>, _ store: SQLiteStore) throws -> [Int64] {
        let result = query.compile(schema: store.schema, mapping: store.mapping)
        guard let compiled = result.compiled else {
            throw StoreError(DiagnosticRenderer().render(result.diagnostics, in: query.text))
        }
        return try store.fetch(compiled, parameters: query.boundValues).map(\.id.key)
    }

    private func keys(_ text: String, _ parameters: [String: ParameterValue], _ store: SQLiteStore) throws -> [Int64] {
        let result = QueryCompiler.compile(text, schema: store.schema, mapping: store.mapping)
        guard let compiled = result.compiled else { throw StoreError(DiagnosticRenderer().render(result.diagnostics, in: text)) }
        return try store.fetch(compiled, parameters: parameters).map(\.id.key)
    }

    @Test func builderObjectComparisonsMatchTheText() throws {
        let (store, _) = try ExampleStore.make()
        let rent = ObjectKey<Budget>(3)
        let both = [ObjectKey<Budget>(1), ObjectKey<Budget>(8)]
        let swift = ObjectKey<PredicateQueryExamples.Tag>(1)
        #expect(
            try keys(Transaction.filter { $0.budget == rent }, store)
                == (try keys("Transaction where budget == $b", ["b": .single(.int(3))], store)))
        #expect(
            try keys(Transaction.filter { $0.budget?.persistentModelID != rent }, store)
                == (try keys("Transaction where budget != $b", ["b": .single(.int(3))], store)))
        #expect(
            try keys(Budget.filter { both.contains($0.persistentModelID) }, store)
                == (try keys("Budget where SELF in $ids", ["ids": .list([.int(1), .int(8)])], store)))
        #expect(try keys(Budget.filter { both.contains($0.persistentModelID) }, store) == [1, 8])
        #expect(
            try keys(Transaction.filter { both.contains($0.budget) }, store)
                == (try keys("Transaction where budget in $ids", ["ids": .list([.int(1), .int(8)])], store)))
        #expect(
            try keys(Snippet.filter { $0.tags.contains(swift) }, store)
                == (try keys("Snippet where $t in tags", ["t": .single(.int(1))], store)))
        #expect(!(try keys(Snippet.filter { $0.tags.contains(swift) }, store)).isEmpty)
    }
}
