// Writing an object graph: one row per object (attributes encoded as the mapping
// says, to-one relationships as keys), one join-table row per many-to-many link,
// in one transaction. Core Data's Z_PRIMARYKEY counters are brought up to date.

import PredicateQuery

extension SQLiteStore {
    /// Inserts every object of `graph` (keys as in the graph).
    public func insert(_ graph: ObjectGraph) throws(StoreError) {
        guard !isReadOnly else { throw StoreError("the store is open read-only") }
        do {
            try connection.transaction {
                for entity in StoreMapping.coreDataOrder(schema) {
                    try insertObjects(of: entity, from: graph)
                }
                try insertLinks(from: graph)
                if mapping.layout == .coreData { try updatePrimaryKeyCounters(graph) }
            }
        } catch let error as StoreError {
            throw error
        } catch {
            throw StoreError("cannot insert: \(error)")
        }
    }

    private func quote(_ identifier: String) -> String { SQLIdentifier.quoted(identifier) }

    private func insertObjects(of entity: Entity, from graph: ObjectGraph) throws(StoreError) {
        let ids = graph.objectsByEntity[entity.name] ?? []
        guard !ids.isEmpty, let mapped = mapping.entity(entity.name) else { return }
        let (attributes, toOnes) = mapping.rowContents(of: entity, in: schema)
        var columns = [mapped.primaryKey]
        if let entityColumn = mapped.entityColumn { columns.append(entityColumn) }
        if mapping.layout == .coreData { columns.append("Z_OPT") }
        columns += attributes.compactMap { mapped.columns[$0.name] } + toOnes.map(\.1)
        let placeholders = (1...columns.count).map { "?\($0)" }.joined(separator: ", ")
        let statement = try connection.prepare(
            "INSERT INTO \(quote(mapped.table)) (\(columns.map(quote).joined(separator: ", "))) VALUES (\(placeholders))")
        let number = Int64(mapping.entityNumbers[entity.name] ?? 0)
        for id in ids {
            guard let object = graph[id] else { continue }
            var values: [Value] = [.int(id.key)]
            if mapped.entityColumn != nil { values.append(.int(number)) }
            if mapping.layout == .coreData { values.append(.int(1)) }
            for attribute in attributes {
                let type = ValueType(attribute.type, in: schema)
                values.append(StoreValueEncoding.encode(object.value(attribute.name), as: type, dates: mapping.dateEncoding))
            }
            for (relationship, _) in toOnes {
                values.append(object.toOne[relationship.name].map { .int($0.key) } ?? .null)
            }
            try statement.bind(values)
            _ = try statement.step()
        }
    }

    private func insertLinks(from graph: ObjectGraph) throws(StoreError) {
        for (table, pairs) in mapping.links(in: graph, of: schema) {
            let statement = try connection.prepare(
                "INSERT OR IGNORE INTO \(quote(table.name)) (\(quote(table.source)), \(quote(table.destination))) VALUES (?1, ?2)"
            )
            for (source, destination) in pairs {
                try statement.bind([.int(source), .int(destination)])
                _ = try statement.step()
            }
        }
    }

    private func updatePrimaryKeyCounters(_ graph: ObjectGraph) throws(StoreError) {
        let statement = try connection.prepare("UPDATE Z_PRIMARYKEY SET Z_MAX = max(Z_MAX, ?1) WHERE Z_ENT = ?2")
        for (entity, ids) in graph.objectsByEntity {
            guard let number = mapping.entityNumbers[entity], let highest = ids.map(\.key).max() else { continue }
            try statement.bind([.int(highest), .int(Int64(number))])
            _ = try statement.step()
        }
    }
}
