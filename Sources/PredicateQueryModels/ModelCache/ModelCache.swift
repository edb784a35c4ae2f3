// A store's model cache: Core Data keeps the compiled model of the store's
// current version in `Z_MODELCACHE.Z_CONTENT`, a raw DEFLATE stream of the same
// keyed archive as a `.mom` file. The store module reads the blob; this reads the
// model in it, without SQLite.

import Foundation
import PredicateQuery

/// Reads the model a Core Data store keeps in its `Z_MODELCACHE` table.
public enum ModelCache {
    /// The most the cache may inflate to: real models are tens of kilobytes.
    public static let inflatedLimit = 64 * 1024 * 1024

    /// The schema in a `Z_MODELCACHE.Z_CONTENT` blob; `source` names the store in messages.
    public static func schema(
        fromCompressed data: Data, source: String = "the store's model cache"
    ) throws(ModelSourceError) -> (Schema, [ModelWarning]) {
        let archive: Data
        do {
            archive = try Inflate.raw(data, limit: inflatedLimit)
        } catch {
            throw ModelSourceError("\(source) cannot be read: \(error.description)")
        }
        return try CompiledModel.schema(fromArchive: archive, source: source)
    }
}
