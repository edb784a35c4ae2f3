// Opening a Core Data or SwiftData store without model files.
//
// The model comes from the store: the compiled model Core Data keeps in
// `Z_MODELCACHE.Z_CONTENT`, read here with SQL and decoded by the reader the caller
// passes (the model readers live in their own module, `PredicateQueryModels`);
// with no cache (old stores) or no reader, the model is inferred from the store's
// tables (see `CoreDataModelInference`), and the store says so
// (`isSchemaInferred`). A cache that cannot be read is a warning, and the model is
// then inferred too. Either way the layout is then discovered from the store as
// for any model (see `CoreDataLayoutDiscovery`).

import Foundation
import PredicateQuery

extension SQLiteStore {
    /// Decodes a store's model cache (`Z_MODELCACHE.Z_CONTENT`, raw DEFLATE of a
    /// compiled model) into a schema and warnings; `ModelCache.schema(fromCompressed:)`
    /// of `PredicateQueryModels` is one.
    public typealias ModelCacheReader = @Sendable (Data) throws -> (Schema, [String])
}

extension SQLiteStore {
    /// A Core Data store opened with the model inferred from its tables.
    static func coreDataWithoutModel(
        _ connection: SQLiteConnection, path: String, readOnly: Bool, includeHistory: Bool,
        modelCache: ModelCacheReader? = nil, warnings: inout [String]
    ) throws(StoreError) -> SQLiteStore {
        let catalog = try CoreDataCatalog(connection: connection)
        var inference = CoreDataModelInference(catalog: catalog, includeHistory: includeHistory)
        var opening: [String] = []
        var schema: Schema
        var inferred = false
        if let cached = try cachedModel(catalog, reader: modelCache, warnings: &opening) {
            schema = cached
            if includeHistory {
                let history = Set(catalog.entities.filter(\.isHistory).map(\.name))
                schema.entities += try inference.infer().entities.filter { history.contains($0.name) }
            }
        } else {
            schema = try inference.infer()
            opening += inference.warnings
            inferred = true
        }
        guard !schema.entities.isEmpty else {
            throw StoreError("'\(path)' is a Core Data store whose Z_PRIMARYKEY table lists no entity pq can read")
        }
        if let problem = schema.validate().first {
            throw StoreError("cannot read a model from '\(path)': \(problem.message)")
        }
        var discovery = CoreDataLayoutDiscovery(schema: schema, catalog: inference.catalog)
        let layout = try discovery.discover()
        let store = SQLiteStore(schema: schema, mapping: layout.mapping, connection: connection, readOnly: readOnly)
        store.warnings = opening + layout.warnings
        store.isSchemaInferred = inferred
        warnings += store.warnings
        return store
    }

    /// The model in the store's `Z_MODELCACHE`, if there is one and it can be read.
    private static func cachedModel(
        _ catalog: CoreDataCatalog, reader: ModelCacheReader?, warnings: inout [String]
    ) throws(StoreError) -> Schema? {
        guard let reader, let table = catalog.table(named: "Z_MODELCACHE") else { return nil }
        let statement = try catalog.connection.prepare(
            "SELECT \"Z_CONTENT\" FROM \(CoreDataCatalog.quote(table)) WHERE \"Z_CONTENT\" IS NOT NULL LIMIT 1")
        guard try statement.step(), case .data(let blob) = statement.column(0) else { return nil }
        do {
            let (schema, readerWarnings) = try reader(blob)
            warnings += readerWarnings
            if let problem = schema.validate().first {
                warnings.append(
                    "the store's model cache is not a usable model (\(problem.message)); the model is inferred from its tables")
                return nil
            }
            return schema
        } catch {
            warnings.append("the store's model cache cannot be read (\(error)); the model is inferred from its tables")
            return nil
        }
    }
}
