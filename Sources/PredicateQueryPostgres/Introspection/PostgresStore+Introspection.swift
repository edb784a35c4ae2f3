// Opening a PostgreSQL database pq did not create: its tables are read from the
// catalog (`PostgresCatalog`) as a schema (`PostgresIntrospection`), in the
// schema the URL's search path names (`public` by default; another with
// `?options=-csearch_path%3Dapp`). A `pq_schema` table, when there is one, wins
// (see `PostgresStore.open`).

import PredicateQuery
import PredicateQuerySQLite

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
