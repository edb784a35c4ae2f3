// Layout discovery on the real stores of the corpus, with the model inferred from
// each store's tables: every store opens, its entities are `Z_PRIMARYKEY`'s (less
// the persistent-history ones, unless asked for), and per entity the count, a nil
// test on every attribute and a test of every relationship equal hand-written SQL
// on the same copy.

import Foundation
import PredicateQuery
import Testing

@testable import PredicateQuerySQLite

struct CorpusLayoutTests {
    @Test func everyStoreOpensWithAnInferredModelAndCountsAsSQLDoes() throws {
        guard let stores = Corpus.stores else { return }
        var checked = 0
        for name in Corpus.names {
            let directory = try TemporaryDirectory()
            let path = try Corpus.copy(name, from: stores, into: directory)
            let store = try SQLiteStore.open(at: path)
            #expect(store.isSchemaInferred, "\(name)")
            let listed = try store.rawRows("SELECT Z_NAME FROM Z_PRIMARYKEY WHERE Z_ENT < 16000 ORDER BY Z_ENT")
                .compactMap { row -> String? in
                    if case .string(let entity) = row[0] { return entity }
                    return nil
                }
            #expect(store.schema.entities.map(\.name) == listed, "\(name)")
            for entity in store.schema.entities {
                let expected = try store.handWrittenCount(of: entity.name)
                #expect(try store.count("\(entity.name) where TRUEPREDICATE") == expected, "\(name): \(entity.name)")
                checked += 1
                try checkProperties(of: entity, in: store, label: name)
            }
        }
        print("corpus: \(checked) entity counts of \(Corpus.names.count) stores equal hand-written SQL")
        #expect(checked >= 30)
    }

    /// Each attribute's nil test and each to-one's nil test count the rows whose
    /// column holds a value; each to-many's `@count > 0` the distinct keys pointing back.
    private func checkProperties(of entity: Entity, in store: SQLiteStore, label: String) throws {
        guard entity.parent == nil, let mapped = store.mapping.entity(entity.name) else { return }
        let filter = mapped.entityNumbers.map { " AND Z_ENT IN (\($0.map(String.init).joined(separator: ",")))" } ?? ""
        for attribute in entity.attributes {
            let column = try #require(mapped.columns[attribute.name])
            let sql = "SELECT count(*) FROM \"\(mapped.table)\" WHERE \"\(column)\" IS NOT NULL\(filter)"
            #expect(
                try store.count("\(entity.name) where \(attribute.name) != nil") == store.rawRows(sql).first?.first?.intValue,
                "\(label): \(entity.name).\(attribute.name)")
        }
        for relationship in entity.relationships {
            let pq: String
            let sql: String
            switch store.mapping.relationship(relationship.name, of: entity.name) {
            case .foreignKey(let column)?:
                pq = "\(entity.name) where \(relationship.name) != nil"
                sql = "SELECT count(*) FROM \"\(mapped.table)\" WHERE \"\(column)\" IS NOT NULL\(filter)"
            case .inverseForeignKey(let column)?:
                let destination = try #require(store.mapping.entity(relationship.destination))
                pq = "\(entity.name) where \(relationship.name).@count > 0"
                sql =
                    "SELECT count(*) FROM \"\(mapped.table)\" WHERE Z_PK IN (SELECT \"\(column)\" FROM \"\(destination.table)\")\(filter)"
            case .joinTable(let table, let source, _)?:
                pq = "\(entity.name) where \(relationship.name).@count > 0"
                sql = "SELECT count(*) FROM \"\(mapped.table)\" WHERE Z_PK IN (SELECT \"\(source)\" FROM \"\(table)\")\(filter)"
            case nil:
                Issue.record("\(label): \(entity.name).\(relationship.name) has no mapping")
                continue
            }
            #expect(try store.count(pq) == store.rawRows(sql).first?.first?.intValue, "\(label): \(pq)")
        }
    }

    @Test func historyEntitiesAreLeftOutUnlessAskedFor() throws {
        guard let stores = Corpus.stores else { return }
        let directory = try TemporaryDirectory()
        let path = try Corpus.copy("coredataplus/SampleModel2_V1.sqlite", from: stores, into: directory)
        let plain = try SQLiteStore.open(at: path)
        #expect(!plain.schema.entities.contains { $0.name == "CHANGE" })
        let history = try SQLiteStore.open(at: path, includeHistory: true)
        #expect(history.schema.entities.map(\.name).suffix(3) == ["CHANGE", "TRANSACTION", "TRANSACTIONSTRING"])
        #expect(try history.count("CHANGE where TRUEPREDICATE") == history.handWrittenCount(of: "CHANGE"))
        #expect(try history.handWrittenCount(of: "CHANGE") ?? 0 > 0)
    }
}

extension Value {
    var intValue: Int64? {
        if case .int(let value) = self { return value }
        return nil
    }
}
