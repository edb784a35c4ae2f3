// How a store is opened read-only: not one byte of the store's files changes and
// no file is created beside it, every row is seen (rows that live only in the
// write-ahead log included), and a store left open sees every commit made before
// each query starts, or says plainly that it cannot.
//
// Measured with the system SQLite (3.40.1), a reader polling beside a writer that
// commits every 10 ms for 2 s: `immutable=1` on a WAL store that had no `-wal`
// answered 1 row to the last while the writer reached 183 (it never looks again);
// `mode=ro` answered 615 times, monotone, its last read equal to the writer's
// final 179, but SQLite creates the `-wal` and `-shm` beside the store to do so
// (and leaves them after closing); `mode=ro&readonly_shm=1` reads live when both
// exist (622 reads, last = final) and fails ("unable to open database file") when
// the `-wal` is missing; in a folder pq cannot write to, `mode=ro` on a WAL store
// with no `-wal` fails (SQLITE_READONLY). On a rollback-journal store, `mode=ro`
// with no busy timeout failed 92 of 624 reads with "database is locked", and
// none with a 5 s one; a hot `-journal` (a transaction cut short) cannot be read
// read-only (SQLITE_READONLY_ROLLBACK).
//
// So a WAL store with no `-wal` is opened `immutable=1` (which writes nothing and
// creates nothing), and the connection watches the store's files (`StoreFiles`):
// before each query it compares them with what it saw, and opens the store again
// when they changed. A writer must create the `-wal` and `-shm` before it commits,
// so the next query finds them and reads live through them (`readonly_shm=1`), and
// a writer that closes (deleting them) leaves a changed store file, which is read
// immutable again. A query that finds the store file changed when it ends (a writer
// that opened and checkpointed while it ran) fails instead of answering from a mix.

import CSQLite
import Foundation

/// How to open one store file read-only so that none of its files is written and
/// none is created beside it.
enum ReadOnlyOpening: Equatable {
    /// Open this SQLite URI read-only: SQLite reads the store live, seeing every
    /// commit made before each statement starts.
    case uri(String)
    /// Open this `immutable=1` URI, and open the store again (with a new plan) as
    /// soon as any of its files changes: the store has no `-wal`, so no writer has it
    /// open, and a writer that opens it creates files the next query notices.
    case immutableWhileUnchanged(String)
    /// Nothing can change the store (it is on a read-only medium): `immutable=1`.
    case immutable(String)
    /// SQLite cannot read the store live without writing beside it, so pq copies the
    /// store with its `-wal` or `-journal` into a private temporary folder, opens the
    /// copy (where SQLite may write what it needs to), and deletes the folder when
    /// the connection closes. The copy costs the store's size in temporary space; its
    /// answers are a snapshot taken when it was made, which the store's `warnings`
    /// say (with the reason; nil on a read-only medium, where the copy cannot fall
    /// behind). The copy is made again when the store's files change.
    case privateCopy(reason: String?)

    /// Which changes to the store's files make a connection opened this way open
    /// the store again; nil when none can happen or none matters.
    var watch: StoreFiles.Watch? {
        switch self {
        case .uri: .sidecars
        case .immutableWhileUnchanged: .everything
        case .immutable: nil
        case .privateCopy(let reason): reason == nil ? nil : .everything
        }
    }

    /// The plan for the store at `path`, from which of its files exist:
    ///
    /// | files beside the store                    | plan                                   |
    /// |-------------------------------------------|----------------------------------------|
    /// | a `-wal` (even empty) and a `-shm`        | `mode=ro&readonly_shm=1` (live; writes nothing) |
    /// | a non-empty `-wal`, no `-shm`             | a private copy (a snapshot, with a warning, made again when the files change) |
    /// | WAL header, no `-wal` (or an empty one and no `-shm`): | |
    /// |   on a read-only medium                   | `immutable=1` (nothing can change it)  |
    /// |   anywhere else                           | `immutable=1`, opened again when any file changes |
    /// | a rollback-journal header                 | `mode=ro` (live, with a busy timeout; a hot `-journal` is read from a private copy, see `SQLiteConnection`) |
    static func plan(forStoreAt path: String) -> ReadOnlyOpening {
        // `stat`, not `FileManager.attributesOfItem`, which also looks up the owner's
        // name and builds dates (a measurable part of a one-row query's start).
        let walSize = FileIdentity(path: path + "-wal")?.size
        let hasShm = FileIdentity(path: path + "-shm") != nil
        switch (walSize, hasShm) {
        case (.some, true) where readsSharedMemoryReadOnly:
            return .uri(uri(for: path, query: "mode=ro&readonly_shm=1"))
        case (.some(let size), _) where size > 0:
            // On a read-only medium nothing can change the store: the copy is exact, no snapshot.
            return .privateCopy(
                reason: isOnReadOnlyMedium(folder(of: path))
                    ? nil : "its -wal came without its -shm, and SQLite would have to create the -shm beside it")
        default:
            guard hasWALHeader(path) else { return .uri(uri(for: path, query: "mode=ro")) }
            let immutable = uri(for: path, query: "immutable=1")
            return isOnReadOnlyMedium(folder(of: path)) ? .immutable(immutable) : .immutableWhileUnchanged(immutable)
        }
    }

    /// The folder holding the store at `path`.
    static func folder(of path: String) -> String {
        URL(fileURLWithPath: path).deletingLastPathComponent().path
    }

    /// What the store's `warnings` say when it is read from a private copy.
    static func snapshotWarning(path: String, reason: String) -> String {
        "'\(path)' is read from a private copy (\(reason)), made again before a query when the store's files have changed: a copy is not a transaction, so a commit that lands while pq copies may be seen in part until the next copy"
    }

    /// The reason for a private copy when a rollback-journal store has a hot `-journal`.
    static let hotJournalReason =
        "a transaction cut short left a hot -journal, which only a connection that may write the store can roll back"

    /// Whether `folder` is on a file system mounted read-only (a read-only image or
    /// medium), where nothing can change the store while pq reads it.
    static func isOnReadOnlyMedium(_ folder: String) -> Bool {
        var info = statvfs()
        guard statvfs(folder, &info) == 0 else { return false }
        return info.f_flag & UInt(ST_RDONLY) != 0
    }

    /// Whether this SQLite honours `readonly_shm=1`: 3.22.0 and later (the system's
    /// is 3.40 on Debian 12); an older one would write the `-shm`, so pq reads a
    /// private copy (or, with no `-wal`, opens `mode=ro`) instead.
    static let readsSharedMemoryReadOnly = sqlite3_libversion_number() >= 3_022_000

    /// Whether the database header says WAL mode: its read version (byte 19) is 2,
    /// which makes SQLite look for the `-wal`.
    static func hasWALHeader(_ path: String) -> Bool {
        guard let handle = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? handle.close() }
        guard let header = try? handle.read(upToCount: 20), header.count == 20 else { return false }
        return header[19] == 2
    }

    /// A `file:` URI for `path` with `query`: the path is made absolute and every
    /// character a URI gives a meaning to (`?`, `#`, `%`, …) is percent-encoded.
    static func uri(for path: String, query: String) -> String {
        let absolute = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
        // Byte by byte (not `CharacterSet`, whose tables cost more than the rest of a
        // short query's start): ASCII letters, digits and `/-._~` as they are, every
        // other byte as `%XX`, which SQLite decodes back to the same bytes.
        let hex = Array("0123456789ABCDEF".utf8)
        var encoded: [UInt8] = []
        encoded.reserveCapacity(absolute.utf8.count)
        for byte in absolute.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "/"), UInt8(ascii: "-"), UInt8(ascii: "."),
                UInt8(ascii: "_"), UInt8(ascii: "~"):
                encoded.append(byte)
            default:
                encoded += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]]
            }
        }
        return "file:\(String(decoding: encoded, as: UTF8.self))?\(query)"
    }

    /// Copies the store at `path` with its `-wal` and `-journal`, those that exist,
    /// into a new private folder (mode 0700) and returns the copy's path; the
    /// caller deletes the folder.
    static func makePrivateCopy(of path: String) throws(StoreError) -> (copy: String, folder: URL) {
        let files = FileManager.default
        let folder = files.temporaryDirectory.appendingPathComponent("pq-readonly-\(UUID().uuidString)")
        let name = URL(fileURLWithPath: path).lastPathComponent
        let copy = folder.appendingPathComponent(name).path
        do {
            try files.createDirectory(at: folder, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
            try files.copyItem(atPath: path, toPath: copy)
            for sidecar in ["-wal", "-journal"] where files.fileExists(atPath: path + sidecar) {
                try files.copyItem(atPath: path + sidecar, toPath: copy + sidecar)
            }
        } catch {
            try? files.removeItem(at: folder)
            throw StoreError(
                "cannot read '\(path)' without writing beside it, and copying it to a temporary folder failed: \(error.localizedDescription)"
            )
        }
        return (copy, folder)
    }
}
