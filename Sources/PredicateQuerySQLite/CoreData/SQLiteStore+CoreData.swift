// Opening a Core Data or SwiftData store without model files.
//
// The model comes from the store: with no model cache to read, it is inferred
// from the store's tables (see `CoreDataModelInference`), and the store says so
// (`isSchemaInferred`). Either way the layout is then discovered from the store
// as for any model (see `CoreDataLayoutDiscovery`).

import PredicateQuery

extension SQLiteStore {
    /// A Core Data store opened with the model inferred from its tables.
    static func coreDataWithoutModel(
        _ connection: SQLiteConnection, path: String, readOnly: Bool, includeHistory: Bool, warnings: inout [String]
    ) throws(StoreError) -> SQLiteStore {
        let catalog = try CoreDataCatalog(connection: connection)
        var inference = CoreDataModelInference(catalog: catalog, includeHistory: includeHistory)
        let schema = try inference.infer()
        guard !schema.entities.isEmpty else {
            throw StoreError("'\(path)' is a Core Data store whose Z_PRIMARYKEY table lists no entity pq can read")
        }
        if let problem = schema.validate().first {
            throw StoreError("cannot infer a model from the tables of '\(path)': \(problem.message)")
        }
        var discovery = CoreDataLayoutDiscovery(schema: schema, catalog: inference.catalog)
        let layout = try discovery.discover()
        let store = SQLiteStore(schema: schema, mapping: layout.mapping, connection: connection, readOnly: readOnly)
        store.warnings = inference.warnings + layout.warnings
        store.isSchemaInferred = true
        warnings += store.warnings
        return store
    }
}
