// A store's model cache: each corpus store's Z_MODELCACHE (read from a copy with
// the system SQLite) inflates and decodes, and names the entities the store's
// Z_PRIMARYKEY holds; corrupt, truncated and over-large streams are errors.

import CZlib
import Foundation
import PredicateQuery
import Testing

@testable import PredicateQueryModels

struct ModelCacheTests {
    /// Raw DEFLATE (no header) of `data`.
    static func deflated(_ data: Data) throws -> Data {
        var stream = z_stream()
        guard
            deflateInit2_(&stream, 9, Z_DEFLATED, -15, 9, Z_DEFAULT_STRATEGY, zlibVersion(), Int32(MemoryLayout<z_stream>.size))
                == Z_OK
        else { throw ModelSourceError("deflateInit2 failed") }
        defer { deflateEnd(&stream) }
        var input = [UInt8](data)
        var output = [UInt8](repeating: 0, count: Int(deflateBound(&stream, UInt(input.count))) + 64)
        let written = input.withUnsafeMutableBufferPointer { inputBuffer in
            output.withUnsafeMutableBufferPointer { outputBuffer -> Int in
                stream.next_in = inputBuffer.baseAddress
                stream.avail_in = UInt32(inputBuffer.count)
                stream.next_out = outputBuffer.baseAddress
                stream.avail_out = UInt32(outputBuffer.count)
                _ = deflate(&stream, Z_FINISH)
                return outputBuffer.count - Int(stream.avail_out)
            }
        }
        return Data(output.prefix(written))
    }

    @Test(.enabled(if: Corpus.isAvailable, "needs ../shared/corpus/coredata"))
    func everyStoreCacheNamesTheStoresEntities() throws {
        var checked = 0
        for store in Corpus.stores() {
            let copy = try Corpus.copyStore(store)
            defer { try? FileManager.default.removeItem(atPath: (copy as NSString).deletingLastPathComponent) }
            let name = (store as NSString).lastPathComponent
            guard try StoreRows.table("Z_MODELCACHE", existsIn: copy) else {
                print("\(name) has no Z_MODELCACHE (an old store): nothing to decode")
                continue
            }
            let blob = try #require(try StoreRows.column("SELECT Z_CONTENT FROM Z_MODELCACHE", in: copy).first ?? nil)
            let start = ContinuousClock.now
            let (schema, warnings) = try ModelCache.schema(fromCompressed: blob, source: name)
            print("decoded the model cache of \(name): \(schema.entities.count) entities in \(ContinuousClock.now - start)")
            for warning in warnings { print("  \(warning)") }
            let keys = try StoreRows.column("SELECT Z_NAME FROM Z_PRIMARYKEY WHERE Z_ENT < 16000", in: copy)
            let primaryKeys = Set(keys.compactMap { $0.map { String(decoding: $0, as: UTF8.self) } })
            // A renamed entity is in the store under its new name or its renaming identifier:
            // SampleModel_V2 keeps the old name, DuckDuckGo's store the new one.
            let stored = Set(schema.entities.map { primaryKeys.contains($0.name) ? $0.name : $0.storedName })
            #expect(stored == primaryKeys, "\(name)")
            #expect(schema.entities.count == primaryKeys.count, "\(name)")
            for entity in schema.entities where entity.originalName != nil {
                let kept = primaryKeys.contains(entity.name) ? "the new name" : "the old name"
                print("  \(entity.name) renamed from \(entity.storedName): the store keeps \(kept)")
            }
            #expect(schema.validate().isEmpty, "\(name): \(schema.validate().map(\.message))")
            checked += 1
        }
        #expect(checked == 7)
    }

    @Test(.enabled(if: Corpus.isAvailable, "needs ../shared/corpus/coredata"))
    func theVersion2StoreCacheHoldsTheRenamedEntity() throws {
        let copy = try Corpus.copyStore(Corpus.path("stores/coredataplus/SampleModel_V2.sqlite"))
        defer { try? FileManager.default.removeItem(atPath: (copy as NSString).deletingLastPathComponent) }
        let blob = try #require(try StoreRows.column("SELECT Z_CONTENT FROM Z_MODELCACHE", in: copy).first ?? nil)
        let (schema, _) = try ModelCache.schema(fromCompressed: blob)
        let renamed = try #require(schema.entities.first { $0.storedName == "ExpensiveSportCar" })
        #expect(renamed.name == "LuxuryCar" && renamed.originalName == "ExpensiveSportCar" && renamed.parent == "SportCar")
        // The cache is the model the store was last saved with: version 2, as compiled.
        let (compiled, _) = try CompiledModel.schema(momAt: Corpus.path("models/coredataplus/SampleModel.momd/SampleModel2.mom"))
        #expect(schema == compiled)
    }

    @Test(.enabled(if: Corpus.isAvailable, "needs ../shared/corpus/coredata"))
    func theCareKitCacheMatchesItsXcodeModel() throws {
        let copy = try Corpus.copyStore(Corpus.path("stores/carekit/SampleStore2.0.sqlite"))
        defer { try? FileManager.default.removeItem(atPath: (copy as NSString).deletingLastPathComponent) }
        let blob = try #require(try StoreRows.column("SELECT Z_CONTENT FROM Z_MODELCACHE", in: copy).first ?? nil)
        let (cache, _) = try ModelCache.schema(fromCompressed: blob)
        let (xml, _) = try XcodeModel.schema(
            modelAt: Corpus.path("models/carekit/CareKitStore.xcdatamodeld/CareKitStore2.0.xcdatamodel"))
        let cacheEntities = cache.withoutTransformableNames.sortedByName.entities
        let xmlEntities = xml.withoutTransformableNames.sortedByName.entities
        #expect(cacheEntities.map(\.name) == xmlEntities.map(\.name))
        for (fromCache, fromXML) in zip(cacheEntities, xmlEntities) {
            #expect(fromCache.attributes.map(\.name) == fromXML.attributes.map(\.name), "\(fromCache.name)")
            // The store was written by a build of CareKit whose defaults differ from the corpus's
            // XML (schemaVersion "2.0.1" in the cache, none in the XML; 0 for some numbers in the
            // XML only), so defaults are compared apart from the rest.
            for (a, b) in zip(fromCache.attributes, fromXML.attributes) {
                var (a, b) = (a, b)
                if a.defaultValue != b.defaultValue {
                    print(
                        "  \(fromCache.name).\(a.name): default \(a.defaultValue ?? "none") in the cache, \(b.defaultValue ?? "none") in the XML"
                    )
                }
                (a.defaultValue, b.defaultValue) = (nil, nil)
                #expect(a == b, "\(fromCache.name)")
            }
            for (a, b) in zip(fromCache.relationships, fromXML.relationships) { #expect(a == b, "\(fromCache.name)") }
            #expect(fromCache.relationships.count == fromXML.relationships.count, "\(fromCache.name)")
            #expect(fromCache.parent == fromXML.parent && fromCache.isAbstract == fromXML.isAbstract, "\(fromCache.name)")
        }
    }

    @Test func corruptAndTruncatedStreamsAreErrors() throws {
        #expect(throws: ModelSourceError.self) { try ModelCache.schema(fromCompressed: Data()) }
        #expect(throws: ModelSourceError.self) { try ModelCache.schema(fromCompressed: Data([0xFF, 0xFF, 0xFF, 0xFF])) }
        let archive = ArchivedModelTests.model { builder, entity in
            [("name", ArchivedModelTests.attribute(&builder, "name", type: 700, entity: entity))]
        }
        let compressed = try Self.deflated(archive)
        let (schema, _) = try ModelCache.schema(fromCompressed: compressed)
        #expect(schema.entity(named: "Cocktail")?.attributes.map(\.name) == ["name"])
        for length in [1, compressed.count / 2, compressed.count - 1] {
            #expect(throws: ModelSourceError.self) { try ModelCache.schema(fromCompressed: compressed.prefix(length)) }
        }
        #expect {
            try ModelCache.schema(fromCompressed: Data([0x07]) + compressed)
        } throws: { error in
            (error as? ModelSourceError)?.message.hasPrefix(
                "the store's model cache cannot be read: the compressed data is corrupt") == true
        }
    }

    @Test func aDeflateBombStopsAtTheLimit() throws {
        let bomb = try Self.deflated(Data(count: ModelCache.inflatedLimit + 1024 * 1024))
        #expect(bomb.count < 200_000)
        #expect {
            try ModelCache.schema(fromCompressed: bomb)
        } throws: { error in
            (error as? ModelSourceError)?.message
                == "the store's model cache cannot be read: the data inflates to more than 64 MiB"
        }
    }
}
