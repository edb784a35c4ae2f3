// Opening a PostgreSQL database pq did not create: its tables are read from the
// catalog (`PostgresCatalog`) as a schema (`PostgresIntrospection`), in the
// schema the URL's search path names (`public` by default; another with
// `?options=-csearch_path%3Dapp`). A `pq_schema` table, when there is one, wins
// (see `PostgresStore.open`).

import PredicateQuery
import PredicateQueryStore

extension PostgresStore {
    /// A store whose schema is read from the connection's tables.
    static func introspected(_ connection: PostgresConnection) throws(StoreError) -> PostgresStore {
        let catalog = try PostgresCatalog(connection: connection)
        var introspection = PostgresIntrospection(catalog: catalog)
        let (schema, mapping) = try introspection.read()
        let store = PostgresStore(schema: schema, mapping: mapping, connection: connection)
        store.isSchemaInferred = true
        store.schemaNotes = introspection.notes
        return store
    }
}

extension PostgresStore {
    /// Refuses an object given as a parameter (`budget == $b`, bound by its integer
    /// key) when its entity is keyed by a uuid or text column: pq's object
    /// parameters are integer keys. Comparing the key attribute works instead.
    func checkObjectParameters(_ query: CompiledQuery) throws(StoreError) {
        for binding in query.bindings {
            let name: String
            let entity: String
            switch binding {
            case .parameter(let named, .object(let of)), .parameterList(let named, .object(let of), _):
                (name, entity) = (named, of)
            default: continue
            }
            guard let mapped = mapping.entity(entity), let declared = schema.entity(named: entity) else { continue }
            for property in schema.allProperties(of: declared) {
                guard case .attribute(let key) = property, mapped.columns[key.name] == mapped.primaryKey else { continue }
                if case .integer = key.type { break }
                throw StoreError(
                    "parameter '$\(name)' gives an object of '\(entity)' by an integer key, but '\(entity)' is keyed by its \(key.type) attribute '\(key.name)': compare that instead (as in 'budget.\(key.name) == $id')",
                    kind: .invalidParameter)
            }
        }
    }
}
