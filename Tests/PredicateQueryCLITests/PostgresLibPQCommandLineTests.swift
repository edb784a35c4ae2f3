// The `pq` binary without libpq: pq links no libpq (ldd shows none) and loads it
// at run time, only for a PostgreSQL store. With PQ_LIBPQ_PATH naming a file that
// does not exist, a `postgresql://` store fails with exit status 2 and how to
// install libpq, while SQLite queries run as ever. Needs no PostgreSQL server: the
// error comes before any connection is tried.

import Foundation
import Testing

@Suite
struct PostgresLibPQCommandLineTests {
    static let missing = "/nonexistent/pq-tests/libpq.so.5"

    @Test("with libpq missing, a postgresql:// store is exit status 2 and says how to install libpq")
    func missingLibPQ() throws {
        let environment = ["PQ_LIBPQ_PATH": Self.missing]
        let viaStore = try PQProcess.run(
            ["--store", "postgresql://pq@localhost:5432/nowhere", "limit > 1"], environment: environment)
        let viaVariable = try PQProcess.run(
            ["limit > 1"], environment: environment.merging(["PQ_DATABASE_URL": "postgresql://pq@localhost/nowhere"]) { $1 })
        for result in [viaStore, viaVariable] {
            #expect(result.status == 2, "\(result.error)")
            #expect(result.output.isEmpty, "\(result.output)")
            #expect(result.error.hasPrefix("pq: PQ_LIBPQ_PATH names \(Self.missing), which cannot be loaded"), "\(result.error)")
            for advice in ["apt-get install libpq5", "brew install libpq", "Postgres.app"] {
                #expect(result.error.contains(advice), "\(advice): \(result.error)")
            }
        }
    }

    @Test("with libpq missing, SQLite queries run as ever")
    func sqliteWithoutLibPQ() throws {
        let withLibPQ = try PQProcess.run(["--count", "Budget where TRUEPREDICATE"])
        let without = try PQProcess.run(["--count", "Budget where TRUEPREDICATE"], environment: ["PQ_LIBPQ_PATH": Self.missing])
        #expect(without.status == 0, "\(without.error)")
        #expect(Int(without.output.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0 > 0, "\(without.output)")
        #expect(without.output == withLibPQ.output)
    }

    /// glibc's loader reports each library it opens under `LD_DEBUG=files`, dlopen's too.
    @Test(
        "libpq is opened for a PostgreSQL store and never for a SQLite one (glibc's LD_DEBUG)",
        .enabled(if: FileManager.default.fileExists(atPath: "/etc/ld.so.cache")))
    func loadedOnlyForPostgres() throws {
        let debug = ["LD_DEBUG": "files"]
        let sqlite = try PQProcess.run(["--count", "Budget where TRUEPREDICATE"], environment: debug)
        try #require(sqlite.error.contains("file=libc.so.6"), "LD_DEBUG printed nothing: not glibc's loader?")
        #expect(sqlite.status == 0)
        // "libpq." and not "libpq": the checkout's own folder may be named after it.
        #expect(!sqlite.error.contains("libpq."), "a SQLite query loaded libpq")
        let postgres = try PQProcess.run(["--store", "postgresql://pq@localhost:1/nowhere", "limit > 1"], environment: debug)
        #expect(postgres.status == 2)
        #expect(postgres.error.contains("file=libpq.so.5 [0];  dynamically loaded by"), "\(postgres.error.suffix(2_000))")
    }

    /// The dynamic loader's listing of the binary's libraries, where `ldd` exists.
    static let ldd = ["/usr/bin/ldd", "/bin/ldd"].first { FileManager.default.isExecutableFile(atPath: $0) }

    @Test("ldd shows no libpq among the pq binary's libraries", .enabled(if: ldd != nil))
    func binaryLinksNoLibPQ() throws {
        let ldd = try #require(Self.ldd)
        let listed = try PQProcess.capture(URL(fileURLWithPath: ldd), [PQProcess.executable.path])
        #expect(listed.status == 0, "\(listed.error)")
        #expect(listed.output.contains("libc.so"), "ldd listed no libc, so its listing proves nothing: \(listed.output)")
        #expect(!listed.output.contains("libpq."), "\(listed.output)")
    }
}
