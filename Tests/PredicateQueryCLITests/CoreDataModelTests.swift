// `--model` with Core Data models on a real store (a copy of the corpus's
// CoreDataPlus SampleModel_V1 store): the Xcode model and the compiled model each
// give the counts hand-written SQL gives, and --model-version picks a version.

import CSQLite
import Foundation
import PredicateQueryTestSupport
import Testing

/// Where the corpus is, and whether it is there (a notice is printed when it is not).
enum CLICorpus {
    static let path = GoldenFile.repositoryRoot.appendingPathComponent("../shared/corpus/coredata").standardizedFileURL.path
    static let isAvailable: Bool = {
        let present = FileManager.default.fileExists(atPath: path + "/models")
        if !present { print("notice: the Core Data corpus is not at \(path): the --model corpus tests are skipped") }
        return present
    }()
}

@Suite(.enabled(if: CLICorpus.isAvailable, "needs ../shared/corpus/coredata"))
struct CoreDataModelTests {
    static let corpus = CLICorpus.path

    /// A copy of the SampleModel_V1 store in a new temporary folder.
    static func storeCopy() throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("pq-cli-models-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            atPath: corpus + "/stores/coredataplus/SampleModel_V1.sqlite", toPath: folder + "/Store.sqlite")
        return folder + "/Store.sqlite"
    }

    /// The single integer a query returns, read with the system SQLite.
    static func count(_ sql: String, in path: String) throws -> Int64 {
        var handle: OpaquePointer?
        defer { sqlite3_close(handle) }
        guard sqlite3_open_v2(path, &handle, SQLITE_OPEN_READONLY, nil) == SQLITE_OK else { throw CocoaError(.fileReadUnknown) }
        var statement: OpaquePointer?
        defer { sqlite3_finalize(statement) }
        guard sqlite3_prepare_v2(handle, sql, -1, &statement, nil) == SQLITE_OK, sqlite3_step(statement) == SQLITE_ROW else {
            throw CocoaError(.fileReadCorruptFile)
        }
        return sqlite3_column_int64(statement, 0)
    }

    @Test func xcodeAndCompiledModelsCountAsTheStoreDoes() throws {
        let store = try Self.storeCopy()
        defer { try? FileManager.default.removeItem(atPath: (store as NSString).deletingLastPathComponent) }
        let before = try Data(contentsOf: URL(fileURLWithPath: store))
        let truth: [(String, String)] = [
            ("Car", "SELECT count(*) FROM ZCAR"),
            (
                "SportCar",
                "SELECT count(*) FROM ZCAR WHERE Z_ENT IN (SELECT Z_ENT FROM Z_PRIMARYKEY WHERE Z_NAME IN ('SportCar', 'ExpensiveSportCar'))"
            ),
            ("Person", "SELECT count(*) FROM ZPERSON"),
        ]
        let models: [[String]] = [
            ["--model", Self.corpus + "/models/coredataplus/SampleModel.xcdatamodeld"],
            ["--model", Self.corpus + "/models/coredataplus/SampleModel.xcdatamodeld/SampleModel.xcdatamodel"],
            ["--model", Self.corpus + "/models/coredataplus/SampleModel.momd", "--model-version", "SampleModel"],
            ["--model", Self.corpus + "/models/coredataplus/SampleModel.momd/SampleModel.mom"],
        ]
        for model in models {
            for (entity, sql) in truth {
                let result = try PQProcess.run(["--store", store] + model + ["--entity", entity, "--count", "TRUEPREDICATE"])
                #expect(result.status == 0, "\(model) \(entity): \(result.error)")
                let expected = try Self.count(sql, in: store)
                #expect(expected > 0)
                #expect(result.output.trimmingCharacters(in: .whitespacesAndNewlines) == String(expected), "\(model) \(entity)")
            }
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: store)) == before)
    }

    @Test func anUnknownVersionOrAVersionWithoutAModelIsAnError() throws {
        let store = try Self.storeCopy()
        defer { try? FileManager.default.removeItem(atPath: (store as NSString).deletingLastPathComponent) }
        let bundle = Self.corpus + "/models/coredataplus/SampleModel.xcdatamodeld"
        let unknown = try PQProcess.run([
            "--store", store, "--model", bundle, "--model-version", "V9", "--count", "TRUEPREDICATE",
        ])
        #expect(unknown.status == 2)
        #expect(
            unknown.error.contains(
                "'SampleModel.xcdatamodeld' has no version named 'V9'; its versions are SampleModel, SampleModel2, SampleModel3"),
            "\(unknown.error)")
        let alone = try PQProcess.run(["--store", store, "--model-version", "SampleModel", "--count", "TRUEPREDICATE"])
        #expect(alone.status == 2)
        #expect(alone.error.contains("--model-version chooses a version of a --model"), "\(alone.error)")
    }
}
