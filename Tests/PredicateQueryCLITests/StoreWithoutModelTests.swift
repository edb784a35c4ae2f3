// `pq --store S` alone on each real store of the corpus (a copy with its -wal and
// -shm): the model comes from the store, `.entities` lists `Z_PRIMARYKEY`'s
// entities, and `--entity E --count 'TRUEPREDICATE'` equals `SELECT count(*)`
// over E's table and entity numbers, for every entity.

import CSQLite
import Foundation
import Testing

@Suite(.enabled(if: CLICorpus.isAvailable, "needs ../shared/corpus/coredata"))
struct StoreWithoutModelTests {
    /// The corpus README's one entity renamed in a model (V2's) while its store keeps the old name.
    static func renamed(in store: String) -> [String: String] {
        store.hasSuffix("SampleModel_V2.sqlite") ? ["ExpensiveSportCar": "LuxuryCar"] : [:]
    }

    static let stores = [
        "carekit/SampleStore2.0.sqlite", "coredataplus/SampleModel2_V1.sqlite", "coredataplus/SampleModel2_V2.sqlite",
        "coredataplus/SampleModel3_V1.sqlite", "coredataplus/SampleModel_V1.sqlite",
        "coredataplus/SampleModel_V2.sqlite", "duckduckgo/Database.sqlite", "restkit/RKSeedDatabase.sqlite",
    ]

    @Test func everyStoreOpensAloneAndCountsEveryEntityAsSQLDoes() throws {
        var counted = 0
        for name in Self.stores {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("pq-cli-alone-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: folder) }
            let source = CLICorpus.path + "/stores/" + name
            let store = folder.appendingPathComponent((name as NSString).lastPathComponent).path
            for suffix in ["", "-wal", "-shm"] where FileManager.default.fileExists(atPath: source + suffix) {
                try FileManager.default.copyItem(atPath: source + suffix, toPath: store + suffix)
                try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: store + suffix)
            }
            let renamed = Self.renamed(in: name)
            let listing = try PQProcess.run(["--store", store], input: ".entities\n")
            #expect(listing.status == 0, "\(name): \(listing.error)")
            let schema = try PQProcess.run(["--store", store], input: ".schema\n")
            #expect(
                schema.output.hasPrefix("-- inferred from the store's tables") == name.hasPrefix("restkit"),
                "\(name): \(schema.output.prefix(80))")
            let listed = listing.output.split(separator: "\n").compactMap { $0.split(separator: " ").first.map(String.init) }
            let entities = try CoreDataModelTests.strings(
                "SELECT Z_NAME FROM Z_PRIMARYKEY WHERE Z_ENT < 16000 ORDER BY Z_NAME", in: store)
            #expect(listed.sorted() == entities.map { renamed[$0] ?? $0 }.sorted(), "\(name)")
            for entity in entities {
                let sql = """
                    WITH RECURSIVE down(n) AS (SELECT Z_ENT FROM Z_PRIMARYKEY WHERE Z_NAME = '\(entity)'
                        UNION SELECT p.Z_ENT FROM Z_PRIMARYKEY p JOIN down ON p.Z_SUPER = down.n),
                    up(n, s, name) AS (SELECT Z_ENT, Z_SUPER, Z_NAME FROM Z_PRIMARYKEY WHERE Z_NAME = '\(entity)'
                        UNION SELECT p.Z_ENT, p.Z_SUPER, p.Z_NAME FROM Z_PRIMARYKEY p JOIN up ON p.Z_ENT = up.s)
                    SELECT 'SELECT count(*) FROM Z' || upper(name) || ' WHERE Z_ENT IN ('
                        || (SELECT group_concat(n) FROM down) || ')' FROM up WHERE s = 0
                    """
                let countSQL = try CoreDataModelTests.strings(sql, in: store).first ?? ""
                let expected = try CoreDataModelTests.count(countSQL, in: store)
                let result = try PQProcess.run([
                    "--store", store, "--entity", renamed[entity] ?? entity, "--count", "TRUEPREDICATE",
                ])
                #expect(result.status == 0, "\(name) \(entity): \(result.error)")
                #expect(
                    result.output.trimmingCharacters(in: .whitespacesAndNewlines) == String(expected), "\(name) \(entity)")
                counted += 1
            }
        }
        #expect(counted >= Self.stores.count)
    }
}

extension CoreDataModelTests {
    /// The first column of every row of a query, as text, read with the system SQLite.
    static func strings(_ sql: String, in path: String) throws -> [String] {
        var handle: OpaquePointer?
        defer { sqlite3_close(handle) }
        guard sqlite3_open_v2(path, &handle, SQLITE_OPEN_READONLY, nil) == SQLITE_OK else { throw CocoaError(.fileReadUnknown) }
        var statement: OpaquePointer?
        defer { sqlite3_finalize(statement) }
        guard sqlite3_prepare_v2(handle, sql, -1, &statement, nil) == SQLITE_OK else { throw CocoaError(.fileReadCorruptFile) }
        var texts: [String] = []
        while sqlite3_step(statement) == SQLITE_ROW {
            if let text = sqlite3_column_text(statement, 0) { texts.append(String(cString: text)) }
        }
        return texts
    }
}
