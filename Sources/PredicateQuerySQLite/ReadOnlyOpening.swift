// How a store is opened read-only: not one byte of the store file changes, every
// row is seen (rows that live only in the write-ahead log included), and a store
// left open sees every commit made before each query starts, or says plainly
// that it cannot.
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
// read-only (SQLITE_READONLY_ROLLBACK). So the plan depends on which files exist,
// on whether the folder is writable and whether the medium is read-only.

import CSQLite
import Foundation

/// How to open one store file read-only so that the store file itself is never written.
enum ReadOnlyOpening: Equatable {
    /// Open this SQLite URI read-only.
    case uri(String)
    /// SQLite cannot read the store live without writing beside it where pq may not
    /// (the reason says why), so pq copies the store with its `-wal` or `-journal`
    /// into a private temporary folder, opens the copy (where SQLite may write what
    /// it needs to), and deletes the folder when the connection closes. The copy
    /// costs the store's size in temporary space; its answers are a snapshot taken
    /// at opening, which the store's `warnings` say (with the reason; nil on a
    /// read-only medium, where the copy cannot fall behind).
    case privateCopy(reason: String?)

    /// The plan for the store at `path`, from which of its files exist:
    ///
    /// | files beside the store                    | plan                                   |
    /// |-------------------------------------------|----------------------------------------|
    /// | a `-wal` (even empty) and a `-shm`        | `mode=ro&readonly_shm=1` (live; writes nothing) |
    /// | a non-empty `-wal`, no `-shm`             | a private copy (a snapshot, with a warning) |
    /// | WAL header, no `-wal` (or an empty one and no `-shm`): | |
    /// |   on a read-only medium                   | `immutable=1` (nothing can change it)  |
    /// |   in a folder pq may write to             | `mode=ro` (live; SQLite creates `-wal` and `-shm` beside it) |
    /// |   in a folder pq cannot or may not write to (no write permission, even for root) | a private copy (a snapshot, with a warning) |
    /// | a rollback-journal header                 | `mode=ro` (live, with a busy timeout; a hot `-journal` is read from a private copy, see `SQLiteConnection`) |
    static func plan(forStoreAt path: String) -> ReadOnlyOpening {
        let files = FileManager.default
        let walSize = (try? files.attributesOfItem(atPath: path + "-wal"))?[.size] as? UInt64
        let hasShm = files.fileExists(atPath: path + "-shm")
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
            let folder = folder(of: path)
            if isOnReadOnlyMedium(folder) { return .uri(uri(for: path, query: "immutable=1")) }
            if mayCreateFiles(in: folder) { return .uri(uri(for: path, query: "mode=ro")) }
            return .privateCopy(
                reason: "it is in WAL mode with no -wal, and SQLite can read it live only by creating its -wal and -shm, in a folder pq may not write to (it grants no write permission)")
        }
    }

    /// Whether pq may let SQLite create the `-wal` and `-shm` in `folder`: the process
    /// can write there, and the folder's permissions grant writing to someone. A
    /// folder with no write permission at all (`r-x`) says "do not write here", which
    /// pq honours even as root, which could write there anyway.
    static func mayCreateFiles(in folder: String) -> Bool {
        guard access(folder, W_OK) == 0 else { return false }
        var info = stat()
        guard stat(folder, &info) == 0 else { return false }
        return info.st_mode & (S_IWUSR | S_IWGRP | S_IWOTH) != 0
    }

    /// The folder holding the store at `path`.
    static func folder(of path: String) -> String {
        URL(fileURLWithPath: path).deletingLastPathComponent().path
    }

    /// What the store's `warnings` say when it is read from a private copy.
    static func snapshotWarning(path: String, reason: String) -> String {
        "'\(path)' is read from a private copy taken when it was opened (\(reason)): answers are a snapshot of that moment and do not show later commits; open it again to see them"
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
        let absolute = URL(fileURLWithPath: path).path
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "/-._~")
        let encoded = absolute.addingPercentEncoding(withAllowedCharacters: allowed) ?? absolute
        return "file:\(encoded)?\(query)"
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
