// The libpq calls of the hand-written PostgreSQL baseline, resolved at run time
// from the very library the store's connection was made with
// (`PostgresStore.libpqPath`): pq links no libpq and needs none of its headers to
// build, and neither does its benchmark. One library, so the handle
// `withUnsafeConnectionHandle` lends is only ever given to the libpq that made it.

import PredicateQueryPostgres
import PredicateQuerySQLite

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The six libpq entry points the baseline calls, as libpq-fe.h declares them.
struct HandWrittenLibPQ {
    /// `PGRES_TUPLES_OK`.
    static let tuplesOK: UInt32 = 2

    /// `PGresult *PQexecParams(PGconn *, const char *, int, const Oid *, const char *const *, const int *, const int *, int)`
    let execParams:
        @convention(c) (
            OpaquePointer, UnsafePointer<CChar>, Int32, UnsafePointer<UInt32>?, UnsafePointer<UnsafePointer<CChar>?>?,
            UnsafePointer<Int32>?, UnsafePointer<Int32>?, Int32
        ) -> OpaquePointer?
    /// `ExecStatusType PQresultStatus(const PGresult *)`
    let resultStatus: @convention(c) (OpaquePointer) -> UInt32
    /// `char *PQresultErrorMessage(const PGresult *)`
    let resultErrorMessage: @convention(c) (OpaquePointer) -> UnsafePointer<CChar>?
    /// `int PQntuples(const PGresult *)`
    let ntuples: @convention(c) (OpaquePointer) -> Int32
    /// `char *PQgetvalue(const PGresult *, int, int)`
    let getvalue: @convention(c) (OpaquePointer, Int32, Int32) -> UnsafePointer<CChar>?
    /// `void PQclear(PGresult *)`
    let clear: @convention(c) (OpaquePointer) -> Void

    /// The entry points of the libpq `store` was opened with (already loaded, so
    /// `dlopen` only finds it again).
    init(for store: PostgresStore) throws {
        let path = store.libpqPath
        guard let library = dlopen(path, RTLD_NOW | RTLD_LOCAL) else {
            throw StoreError("cannot open \(path): \(dlerror().map { String(cString: $0) } ?? "unknown error")")
        }
        func symbol<Function>(_ name: String) throws -> Function {
            guard let address = dlsym(library, name) else { throw StoreError("the libpq at \(path) has no \(name)") }
            return unsafeBitCast(address, to: Function.self)
        }
        execParams = try symbol("PQexecParams")
        resultStatus = try symbol("PQresultStatus")
        resultErrorMessage = try symbol("PQresultErrorMessage")
        ntuples = try symbol("PQntuples")
        getvalue = try symbol("PQgetvalue")
        clear = try symbol("PQclear")
    }
}
