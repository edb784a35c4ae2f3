// The real Core Data stores of `../shared/corpus/coredata` (relative to the
// package root), copied with their `-wal` and `-shm` into a temporary folder
// before anything opens them. Tests that need them print a notice and skip when
// the corpus is absent.

import Foundation

@testable import PredicateQuerySQLite

enum Corpus {
    /// The corpus folder, nil (with a printed notice) when it is absent.
    static var stores: URL? {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        let folder = root.appendingPathComponent("../shared/corpus/coredata/stores").standardizedFileURL
        guard FileManager.default.fileExists(atPath: folder.path) else {
            print("notice: \(folder.path) is absent; the corpus tests are skipped")
            return nil
        }
        return folder
    }

    /// The 8 stores, as `folder/name.sqlite` relative to `stores`.
    static let names = [
        "carekit/SampleStore2.0.sqlite", "coredataplus/SampleModel2_V1.sqlite", "coredataplus/SampleModel2_V2.sqlite",
        "coredataplus/SampleModel3_V1.sqlite", "coredataplus/SampleModel_V1.sqlite",
        "coredataplus/SampleModel_V2.sqlite", "duckduckgo/Database.sqlite", "restkit/RKSeedDatabase.sqlite",
    ]

    /// Copies a store with its `-wal` and `-shm` (when present) into `directory`; returns the copy's path.
    static func copy(_ name: String, from stores: URL, into directory: TemporaryDirectory) throws -> String {
        let source = stores.appendingPathComponent(name)
        let target = directory.path(source.lastPathComponent)
        for suffix in ["", "-wal", "-shm"] where FileManager.default.fileExists(atPath: source.path + suffix) {
            try FileManager.default.copyItem(atPath: source.path + suffix, toPath: target + suffix)
            try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: target + suffix)
        }
        return target
    }
}

extension SQLiteStore {
    /// Hand-written SQL: the number of rows of an entity (and its sub-entities) in
    /// its root's table, reading only `Z_PRIMARYKEY` and that table.
    func handWrittenCount(of entityName: String) throws -> Int64? {
        let entities = try rawRows("SELECT Z_ENT, Z_NAME, Z_SUPER FROM Z_PRIMARYKEY")
        var parent: [String: Int64] = [:]
        var names: [Int64: String] = [:]
        for row in entities {
            guard case .int(let number) = row[0], case .string(let name) = row[1], case .int(let up) = row[2] else {
                continue
            }
            parent[name] = up
            names[number] = name
        }
        var root = entityName
        while let up = parent[root], up != 0, let name = names[up] { root = name }
        let family = try rawRows(
            """
            WITH RECURSIVE family(n) AS (SELECT Z_ENT FROM Z_PRIMARYKEY WHERE Z_NAME = '\(entityName)'
                UNION SELECT p.Z_ENT FROM Z_PRIMARYKEY p JOIN family ON p.Z_SUPER = family.n)
            SELECT n FROM family
            """
        ).compactMap { row -> String? in
            if case .int(let n) = row[0] { return String(n) }
            return nil
        }
        let prefix = (names.first { $0.value == root }?.key ?? 0) > 16000 ? "A" : "Z"
        let rows = try rawRows(
            "SELECT count(*) FROM \"\(prefix)\(root.uppercased())\" WHERE Z_ENT IN (\(family.joined(separator: ",")))")
        if case .int(let count)? = rows.first?.first { return count }
        return nil
    }
}
