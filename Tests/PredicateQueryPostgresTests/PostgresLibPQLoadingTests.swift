// libpq loaded at run time (`LibPQ`): PQ_LIBPQ_PATH, when set, is the only file
// tried; a missing file and a library that is not libpq are StoreErrors that say
// how to install libpq, never a crash. Needs no server: the live PostgreSQL
// suites are what show the loaded entry points work.

import Foundation
import PredicateQueryStore
import PredicateQueryTestSupport
import Testing

@testable import PredicateQueryPostgres

@Suite
struct PostgresLibPQLoadingTests {
    @Test("PQ_LIBPQ_PATH, when set, is the only file tried; unset or empty, the platform's names are")
    func overrideIsExclusive() {
        #expect(LibPQ.candidates(environment: ["PQ_LIBPQ_PATH": "/opt/pg/lib/libpq.so.5"]) == ["/opt/pg/lib/libpq.so.5"])
        let usual = LibPQ.candidates(environment: [:])
        #expect(usual.count >= 2, "\(usual)")
        #expect(usual.allSatisfy { $0.contains("libpq") }, "\(usual)")
        #expect(LibPQ.candidates(environment: ["PQ_LIBPQ_PATH": ""]) == usual)
    }

    @Test("a PQ_LIBPQ_PATH that does not exist is an 'unavailable' StoreError saying how to install libpq")
    func missingFile() {
        let path = "/nonexistent/pq-tests/libpq.so.5"
        guard case .failure(let error) = LibPQ.load(environment: ["PQ_LIBPQ_PATH": path]) else {
            Issue.record("a file that does not exist loaded as libpq")
            return
        }
        #expect(error.kind == .unavailable)
        #expect(error.message.hasPrefix("PQ_LIBPQ_PATH names \(path), which cannot be loaded as libpq ("), "\(error.message)")
        for advice in ["apt-get install libpq5", "brew install libpq", "Postgres.app", "set PQ_LIBPQ_PATH"] {
            #expect(error.message.contains(advice), "\(advice): \(error.message)")
        }
    }

    @Test("a library that is not libpq is refused by the first entry point it lacks, and not used")
    func notLibPQ() throws {
        #if canImport(Darwin)
            let other = "/usr/lib/libSystem.B.dylib"
        #else
            let other = "libc.so.6"
        #endif
        guard case .failure(let error) = LibPQ.load(environment: ["PQ_LIBPQ_PATH": other]) else {
            Issue.record("\(other) loaded as libpq")
            return
        }
        #expect(error.kind == .unavailable)
        #expect(
            error.message == "the libpq at \(other) has no PQconnectdb, which pq needs: install a newer libpq", "\(error.message)"
        )
    }

    @Test("no package of the repository needs libpq's headers: no libpq system library, no header including libpq-fe.h")
    func noPackageBuildsAgainstLibPQ() throws {
        let root = GoldenFile.repositoryRoot
        let manifests = ["Package.swift", "Benchmarks/Package.swift", "Fuzz/Package.swift", "Examples/Server/Package.swift"]
        for manifest in manifests {
            let text = try String(contentsOf: root.appendingPathComponent(manifest), encoding: .utf8)
            #expect(text.contains("targets:"), "\(manifest) was not read")
            #expect(!text.contains("\"libpq\""), "\(manifest) declares libpq as a system library")
        }
        var headers = 0
        for folder in ["Sources", "Benchmarks/Sources", "Fuzz/Sources", "Examples"] {
            // Hidden files skipped: the build folders (.build) hold checkouts of other packages.
            let files = FileManager.default.enumerator(
                at: root.appendingPathComponent(folder), includingPropertiesForKeys: nil, options: [.skipsHiddenFiles])
            while let file = files?.nextObject() as? URL {
                guard ["h", "c", "modulemap"].contains(file.pathExtension) else { continue }
                headers += 1
                let text = try String(contentsOf: file, encoding: .utf8)
                #expect(!text.contains("libpq-fe.h") && !text.contains("link \"pq\""), "\(file.path)")
            }
        }
        #expect(headers >= 2, "CSQLite's and CZlib's module maps were not found, so the scan proves nothing")
    }
}
