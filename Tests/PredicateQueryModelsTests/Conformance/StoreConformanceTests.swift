// Conformance on the real stores of the corpus, each opened with no model files:
// the model comes from the store's own `Z_MODELCACHE` (or, for the old RestKit
// store that has none, is inferred from its tables), and the layout from the
// store. Per store, the entities are `Z_PRIMARYKEY`'s (history entities left out);
// per entity, the count, one typed comparison on an attribute, one to-one path and
// one to-many count equal hand-written SQL on the same copy. The SQL names tables
// and columns by Core Data's rules (`Z` + name in capitals, entity numbers from
// `Z_PRIMARYKEY`), not from the mapping pq discovered, so it checks the discovery.

import Foundation
import PredicateQuery
import PredicateQueryModels
import Testing

@testable import PredicateQuerySQLite

struct StoreConformanceTests {
    static let reader: SQLiteStore.ModelCacheReader = { data in
        let (schema, warnings) = try ModelCache.schema(fromCompressed: data)
        return (schema, warnings.map(\.description))
    }

    @Test(.enabled(if: Corpus.isAvailable)) func everyStoreOpensWithItsOwnModelAndAnswersAsSQLDoes() throws {
        var checks = 0
        let stores = Corpus.stores()
        #expect(stores.count == 8)
        for original in stores {
            let path = try Corpus.copyStore(original)
            var warnings: [String] = []
            let store = try SQLiteStore.open(at: path, modelCache: Self.reader, warnings: &warnings)
            let name = (original as NSString).lastPathComponent
            #expect(store.isSchemaInferred == name.hasPrefix("RKSeed"), "\(name)")
            // With the store's own model, every column of every table is accounted for.
            #expect(!warnings.contains { $0.contains("accounts for") }, "\(name): \(warnings)")
            let oracle = Oracle(store: store)
            let listed = try oracle.strings("SELECT Z_NAME FROM Z_PRIMARYKEY WHERE Z_ENT < 16000").sorted()
            #expect(try store.schema.entities.map(oracle.storeName).sorted() == listed, "\(name)")
            checks += try checkEntities(store, oracle, name)
        }
        print("conformance: \(checks) answers on \(stores.count) stores equal hand-written SQL")
        #expect(checks >= 80)
    }

    /// The stores with their models in the corpus, as Xcode models and as compiled ones.
    static let modelled: [(store: String, model: String, version: String)] = [
        ("carekit/SampleStore2.0.sqlite", "carekit/CareKitStore.xcdatamodeld", "CareKitStore2.0"),
        ("coredataplus/SampleModel_V1.sqlite", "coredataplus/SampleModel.xcdatamodeld", "SampleModel"),
        ("coredataplus/SampleModel_V1.sqlite", "coredataplus/SampleModel.momd", "SampleModel"),
        ("coredataplus/SampleModel_V2.sqlite", "coredataplus/SampleModel.xcdatamodeld", "SampleModel2"),
        ("coredataplus/SampleModel_V2.sqlite", "coredataplus/SampleModel.momd", "SampleModel2"),
        ("coredataplus/SampleModel3_V1.sqlite", "coredataplus/SampleModel3.xcdatamodeld", "SampleModel3"),
        ("coredataplus/SampleModel3_V1.sqlite", "coredataplus/SampleModel3.momd", "SampleModel3"),
    ]

    @Test(.enabled(if: Corpus.isAvailable)) func storesOpenWithTheirXcodeAndCompiledModelsAndAnswerAsSQLDoes() throws {
        var checks = 0
        for (storeName, model, version) in Self.modelled {
            let path = try Corpus.copyStore(Corpus.path("stores/" + storeName))
            let (schema, _) = try ModelSources.load(paths: [Corpus.path("models/" + model)], version: version)
            let store = try SQLiteStore.open(at: path, schema: schema)
            let label = "\(storeName) with \(model) \(version)"
            #expect(!store.warnings.contains { $0.contains("accounts for") }, "\(label): \(store.warnings)")
            checks += try checkEntities(store, Oracle(store: store), label)
        }
        print("conformance: \(checks) answers with \(Self.modelled.count) model files equal hand-written SQL")
        #expect(checks >= 50)
    }

    /// Per entity: the count, a typed comparison, a to-one path and a to-many count.
    private func checkEntities(_ store: SQLiteStore, _ oracle: Oracle, _ name: String) throws -> Int {
        var checks = 0
        for entity in store.schema.entities {
            let label = "\(name): \(entity.name)"
            #expect(try store.count("\(entity.name) where TRUEPREDICATE", []) == oracle.count(entity), "\(label)")
            checks += 1
            checks += try checkComparison(entity, store, oracle, label)
            checks += try checkToOne(entity, store, oracle, label)
            checks += try checkToMany(entity, store, oracle, label)
        }
        return checks
    }

    /// `attribute == $value` for the first attribute of a comparable type with a value.
    private func checkComparison(_ entity: Entity, _ store: SQLiteStore, _ oracle: Oracle, _ label: String) throws -> Int {
        for case .attribute(let attribute) in store.schema.allProperties(of: entity) where !attribute.isTransient {
            guard [.bool, .string, .integer(bits: 16), .integer(bits: 32), .integer(bits: 64), .double].contains(attribute.type)
            else { continue }
            let (table, family) = try oracle.place(entity)
            let column = "Z" + attribute.storedName.uppercased()
            guard
                let value = try oracle.values(
                    "SELECT \"\(column)\" FROM \"\(table)\" WHERE Z_ENT IN (\(family)) AND \"\(column)\" IS NOT NULL ORDER BY Z_PK LIMIT 1"
                ).first
            else { continue }
            let expected = try oracle.integers(
                "SELECT count(*) FROM \"\(table)\" WHERE Z_ENT IN (\(family)) AND \"\(column)\" = ?1", [value])
            let parameter: Value = attribute.type == .bool ? .bool(value != .int(0)) : value
            #expect(
                try store.count("\(entity.name) where \(attribute.name) == $v", [("v", parameter)]) == expected.first,
                "\(label).\(attribute.name)")
            return 1
        }
        return 0
    }

    /// `toOne.attribute == $value`, or `toOne != nil` when no destination attribute has a value.
    private func checkToOne(_ entity: Entity, _ store: SQLiteStore, _ oracle: Oracle, _ label: String) throws -> Int {
        for case .relationship(let relationship) in store.schema.allProperties(of: entity) where !relationship.isToMany {
            guard let destination = store.schema.entity(named: relationship.destination) else { continue }
            let (table, family) = try oracle.place(entity)
            let (target, targetFamily) = try oracle.place(destination)
            let key = "Z" + relationship.storedName.uppercased()
            let join =
                "FROM \"\(table)\" e JOIN \"\(target)\" d ON d.Z_PK = e.\"\(key)\" WHERE e.Z_ENT IN (\(family)) AND d.Z_ENT IN (\(targetFamily))"
            for case .attribute(let attribute) in store.schema.allProperties(of: destination)
            where attribute.type == .string && !attribute.isTransient {
                let column = "Z" + attribute.storedName.uppercased()
                guard
                    let value = try oracle.values("SELECT d.\"\(column)\" \(join) AND d.\"\(column)\" IS NOT NULL LIMIT 1").first
                else { continue }
                let expected = try oracle.integers("SELECT count(*) \(join) AND d.\"\(column)\" = ?1", [value])
                #expect(
                    try store.count("\(entity.name) where \(relationship.name).\(attribute.name) == $v", [("v", value)])
                        == expected.first, "\(label).\(relationship.name).\(attribute.name)")
                return 1
            }
            let expected = try oracle.integers("SELECT count(*) \(join)")
            #expect(
                try store.count("\(entity.name) where \(relationship.name) != nil", []) == expected.first,
                "\(label).\(relationship.name)")
            return 1
        }
        return 0
    }

    /// `toMany.@count >= 1`, through the inverse's key column or the join table.
    private func checkToMany(_ entity: Entity, _ store: SQLiteStore, _ oracle: Oracle, _ label: String) throws -> Int {
        for case .relationship(let relationship) in store.schema.allProperties(of: entity) where relationship.isToMany {
            guard let destination = store.schema.entity(named: relationship.destination) else { continue }
            let (table, family) = try oracle.place(entity)
            let (target, targetFamily) = try oracle.place(destination)
            let links: String
            if let inverseName = relationship.inverse,
                case .relationship(let inverse)? = store.schema.property(named: inverseName, of: destination),
                !inverse.isToMany
            {
                let key = "Z" + inverse.storedName.uppercased()
                links = "SELECT \"\(key)\" FROM \"\(target)\" WHERE Z_ENT IN (\(targetFamily))"
            } else if case .joinTable(let joinTable, let source, let other)? = store.mapping.relationship(
                relationship.name, of: entity.name)
            {
                // Which side names the join table is the store's choice: the discovered one is used here.
                links =
                    "SELECT j.\"\(source)\" FROM \"\(joinTable)\" j JOIN \"\(target)\" d ON d.Z_PK = j.\"\(other)\" WHERE d.Z_ENT IN (\(targetFamily))"
            } else {
                continue
            }
            let expected = try oracle.integers(
                "SELECT count(*) FROM \"\(table)\" WHERE Z_ENT IN (\(family)) AND Z_PK IN (\(links))")
            #expect(
                try store.count("\(entity.name) where \(relationship.name).@count >= 1", []) == expected.first,
                "\(label).\(relationship.name)")
            return 1
        }
        return 0
    }
}

/// Hand-written SQL on a store's own connection.
struct Oracle {
    let store: SQLiteStore

    func values(_ sql: String, _ bindings: [Value] = []) throws -> [Value] {
        let statement = try store.connection.prepare(sql)
        try statement.bind(bindings)
        var values: [Value] = []
        while try statement.step() { values.append(statement.column(0)) }
        return values
    }

    func integers(_ sql: String, _ bindings: [Value] = []) throws -> [Int64] {
        try values(sql, bindings).compactMap { value -> Int64? in
            if case .int(let number) = value { return number }
            return nil
        }
    }

    func strings(_ sql: String) throws -> [String] {
        try values(sql).compactMap { value -> String? in
            if case .string(let text) = value { return text }
            return nil
        }
    }

    /// The name `Z_PRIMARYKEY` knows an entity by: the name it had before the model
    /// renamed it while the store still has it, else its name.
    func storeName(_ entity: Entity) throws -> String {
        let names = try strings("SELECT Z_NAME FROM Z_PRIMARYKEY")
        if let original = entity.originalName, names.contains(original) { return original }
        return entity.name
    }

    /// An entity's root table (`Z` + the root's name in capitals) and the entity
    /// numbers of it and its sub-entities, as a SQL list, from `Z_PRIMARYKEY`.
    func place(_ entity: Entity) throws -> (table: String, family: String) {
        let name = try storeName(entity)
        let root = try strings(
            """
            WITH RECURSIVE up(n, s, name) AS (SELECT Z_ENT, Z_SUPER, Z_NAME FROM Z_PRIMARYKEY WHERE Z_NAME = '\(name)'
                UNION SELECT p.Z_ENT, p.Z_SUPER, p.Z_NAME FROM Z_PRIMARYKEY p JOIN up ON p.Z_ENT = up.s)
            SELECT name FROM up WHERE s = 0
            """)
        let family = try integers(
            """
            WITH RECURSIVE down(n) AS (SELECT Z_ENT FROM Z_PRIMARYKEY WHERE Z_NAME = '\(name)'
                UNION SELECT p.Z_ENT FROM Z_PRIMARYKEY p JOIN down ON p.Z_SUPER = down.n)
            SELECT n FROM down
            """)
        return ("Z" + (root.first ?? name).uppercased(), family.map(String.init).joined(separator: ","))
    }

    /// The number of rows of an entity and its sub-entities.
    func count(_ entity: Entity) throws -> Int64? {
        let (table, family) = try place(entity)
        return try integers("SELECT count(*) FROM \"\(table)\" WHERE Z_ENT IN (\(family))").first
    }
}

extension SQLiteStore {
    /// The count a query returns, with named parameters.
    func count(_ text: String, _ parameters: [(String, Value)]) throws -> Int64 {
        let result = compile(text)
        let compiled = try #require(result.compiled, "\(text): \(result.diagnostics.map(\.message))")
        return try count(compiled, parameters: Dictionary(uniqueKeysWithValues: parameters.map { ($0, .single($1)) }))
    }
}
