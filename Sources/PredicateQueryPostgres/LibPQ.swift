// libpq, PostgreSQL's client library, loaded at run time.
//
// No target links libpq or needs its headers to build: macOS's SDK has no
// <libpq-fe.h>, and Homebrew's libpq is keg-only, off every default search path.
// Instead `LibPQ.loaded()` opens the platform's libpq with `dlopen` the first time
// a PostgreSQL feature is used, and resolves once, with `dlsym`, the few entry
// points pq calls, declared here as C function pointer types. SQLite-only use of
// pq never loads it. Where it is missing, every PostgreSQL entry point throws a
// `StoreError` that says how to install it.
//
// The declarations follow libpq-fe.h (PostgreSQL 15's, checked on Debian 12): the
// handles are opaque pointers, the enums' values their documented integers, which
// libpq keeps stable across versions (https://www.postgresql.org/docs/current/libpq.html).

import PredicateQueryStore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A PostgreSQL type OID (libpq's `Oid`, an `unsigned int`).
typealias Oid = UInt32

/// The libpq entry points pq uses, resolved from the library loaded at run time.
///
/// `PGconn *`, `PGresult *` and `PGcancel *` are `OpaquePointer`s; libpq's enums
/// (`ConnStatusType`, `ExecStatusType`) are `UInt32`, as C passes them.
struct LibPQ: @unchecked Sendable {
    // ConnStatusType and ExecStatusType values pq tests for (libpq-fe.h).
    /// `CONNECTION_OK`.
    static let connectionOK: UInt32 = 0
    /// `PGRES_COMMAND_OK`: a statement that returns no rows succeeded.
    static let commandOK: UInt32 = 1
    /// `PGRES_TUPLES_OK`: a statement's rows are all read (in single-row mode, the end).
    static let tuplesOK: UInt32 = 2
    /// `PGRES_SINGLE_TUPLE`: one row, in single-row mode.
    static let singleTuple: UInt32 = 9
    /// `PG_DIAG_SQLSTATE`, the error field holding the SQLSTATE code.
    static let diagnosticSQLState = Int32(UInt8(ascii: "C"))

    /// `PGconn *PQconnectdb(const char *conninfo)`
    let connectdb: @convention(c) (UnsafePointer<CChar>) -> OpaquePointer?
    /// `ConnStatusType PQstatus(const PGconn *conn)`
    let status: @convention(c) (OpaquePointer) -> UInt32
    /// `void PQfinish(PGconn *conn)`
    let finish: @convention(c) (OpaquePointer) -> Void
    /// `void PQreset(PGconn *conn)`
    let reset: @convention(c) (OpaquePointer) -> Void
    /// `char *PQerrorMessage(const PGconn *conn)`
    let errorMessage: @convention(c) (OpaquePointer) -> UnsafePointer<CChar>?
    /// `PGresult *PQexec(PGconn *conn, const char *query)`
    let exec: @convention(c) (OpaquePointer, UnsafePointer<CChar>) -> OpaquePointer?
    /// `int PQsendQueryParams(PGconn *conn, const char *command, int nParams, const Oid *paramTypes,
    /// const char *const *paramValues, const int *paramLengths, const int *paramFormats, int resultFormat)`
    let sendQueryParams:
        @convention(c) (
            OpaquePointer, UnsafePointer<CChar>, Int32, UnsafePointer<Oid>?, UnsafePointer<UnsafePointer<CChar>?>?,
            UnsafePointer<Int32>?, UnsafePointer<Int32>?, Int32
        ) -> Int32
    /// `int PQsetSingleRowMode(PGconn *conn)`
    let setSingleRowMode: @convention(c) (OpaquePointer) -> Int32
    /// `PGresult *PQgetResult(PGconn *conn)`
    let getResult: @convention(c) (OpaquePointer) -> OpaquePointer?
    /// `int PQconsumeInput(PGconn *conn)`
    let consumeInput: @convention(c) (OpaquePointer) -> Int32
    /// `ExecStatusType PQresultStatus(const PGresult *res)`
    let resultStatus: @convention(c) (OpaquePointer) -> UInt32
    /// `char *PQresultErrorMessage(const PGresult *res)`
    let resultErrorMessage: @convention(c) (OpaquePointer) -> UnsafePointer<CChar>?
    /// `char *PQresultErrorField(const PGresult *res, int fieldcode)`
    let resultErrorField: @convention(c) (OpaquePointer, Int32) -> UnsafePointer<CChar>?
    /// `void PQclear(PGresult *res)`
    let clear: @convention(c) (OpaquePointer) -> Void
    /// `int PQnfields(const PGresult *res)`
    let nfields: @convention(c) (OpaquePointer) -> Int32
    /// `Oid PQftype(const PGresult *res, int field_num)`
    let ftype: @convention(c) (OpaquePointer, Int32) -> Oid
    /// `char *PQgetvalue(const PGresult *res, int tup_num, int field_num)`
    let getvalue: @convention(c) (OpaquePointer, Int32, Int32) -> UnsafePointer<CChar>?
    /// `int PQgetisnull(const PGresult *res, int tup_num, int field_num)`
    let getisnull: @convention(c) (OpaquePointer, Int32, Int32) -> Int32
    /// `PGcancel *PQgetCancel(PGconn *conn)`
    let getCancel: @convention(c) (OpaquePointer) -> OpaquePointer?
    /// `int PQcancel(PGcancel *cancel, char *errbuf, int errbufsize)`
    let cancel: @convention(c) (OpaquePointer, UnsafeMutablePointer<CChar>, Int32) -> Int32
    /// `void PQfreeCancel(PGcancel *cancel)`
    let freeCancel: @convention(c) (OpaquePointer) -> Void

    /// The file the library was loaded from (as given to `dlopen`).
    let path: String
}

extension LibPQ {
    /// The environment variable naming libpq's file; when set, only that file is tried.
    static let pathVariable = "PQ_LIBPQ_PATH"

    /// The process's libpq, loaded on first use; the same result (or error) thereafter.
    private static let shared: Result<LibPQ, StoreError> = load(environment: environment())

    /// The process's libpq, loading it the first time; a `StoreError` saying how to
    /// install it when it cannot be loaded.
    static func loaded() throws(StoreError) -> LibPQ {
        try shared.get()
    }

    /// The files to try, in order: `PQ_LIBPQ_PATH` alone when set, else the
    /// platform's usual names and install locations.
    static func candidates(environment: [String: String]) -> [String] {
        if let path = environment[pathVariable], !path.isEmpty { return [path] }
        #if canImport(Darwin)
            return [
                "libpq.5.dylib",
                "/opt/homebrew/opt/libpq/lib/libpq.5.dylib",  // Homebrew on Apple silicon (keg-only)
                "/usr/local/opt/libpq/lib/libpq.5.dylib",  // Homebrew on Intel
                "/Applications/Postgres.app/Contents/Versions/latest/lib/libpq.5.dylib",
            ]
        #else
            return ["libpq.so.5", "libpq.so"]
        #endif
    }

    /// The one variable of the process's environment `load` reads.
    private static func environment() -> [String: String] {
        guard let value = getenv(pathVariable) else { return [:] }
        return [pathVariable: String(cString: value)]
    }

    /// Loads the first candidate (see `candidates`) that opens, and resolves every entry point.
    static func load(environment: [String: String]) -> Result<LibPQ, StoreError> {
        let paths = candidates(environment: environment)
        var reasons: [String] = []
        for path in paths {
            guard let library = dlopen(path, RTLD_NOW | RTLD_LOCAL) else {
                reasons.append(dlerror().map { String(cString: $0) } ?? "\(path) cannot be loaded")
                continue
            }
            do {
                return .success(try resolve(library, path: path))
            } catch {
                dlclose(library)
                return .failure(error)
            }
        }
        let overridden = !(environment[pathVariable] ?? "").isEmpty
        return .failure(missing(tried: paths, overridden: overridden, reason: reasons.last))
    }

    /// The error for a libpq that could not be opened, saying how to install one.
    private static func missing(tried paths: [String], overridden: Bool, reason: String?) -> StoreError {
        let lead =
            overridden
            ? "\(pathVariable) names \(paths.joined()), which cannot be loaded as libpq (\(reason ?? "unknown reason"))"
            : "PostgreSQL needs libpq, its client library, which is not installed here (tried \(paths.joined(separator: ", ")))"
        let install =
            "Install libpq (Debian/Ubuntu: apt-get install libpq5; macOS: brew install libpq, or Postgres.app), or set \(pathVariable) to the library's file"
        return StoreError("\(lead). \(install).", kind: .unavailable)
    }

    private static func resolve(_ library: UnsafeMutableRawPointer, path: String) throws(StoreError) -> LibPQ {
        func symbol<Function>(_ name: String, _: Function.Type = Function.self) throws(StoreError) -> Function {
            guard let address = dlsym(library, name) else {
                throw StoreError(
                    "the libpq at \(path) has no \(name), which pq needs: install a newer libpq",
                    kind: .unavailable)
            }
            return unsafeBitCast(address, to: Function.self)
        }
        return LibPQ(
            connectdb: try symbol("PQconnectdb"), status: try symbol("PQstatus"), finish: try symbol("PQfinish"),
            reset: try symbol("PQreset"), errorMessage: try symbol("PQerrorMessage"), exec: try symbol("PQexec"),
            sendQueryParams: try symbol("PQsendQueryParams"), setSingleRowMode: try symbol("PQsetSingleRowMode"),
            getResult: try symbol("PQgetResult"), consumeInput: try symbol("PQconsumeInput"),
            resultStatus: try symbol("PQresultStatus"), resultErrorMessage: try symbol("PQresultErrorMessage"),
            resultErrorField: try symbol("PQresultErrorField"), clear: try symbol("PQclear"),
            nfields: try symbol("PQnfields"), ftype: try symbol("PQftype"), getvalue: try symbol("PQgetvalue"),
            getisnull: try symbol("PQgetisnull"), getCancel: try symbol("PQgetCancel"), cancel: try symbol("PQcancel"),
            freeCancel: try symbol("PQfreeCancel"), path: path)
    }
}
