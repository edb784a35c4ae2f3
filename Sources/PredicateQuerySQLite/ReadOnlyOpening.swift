// How a store is opened strictly read-only: not one byte of the store's files
// changes and no file appears beside it, and every row is seen, including rows
// that live only in the write-ahead log.
//
// A plain read-only SQLite connection is not enough. Measured with the system
// SQLite (3.40) on WAL stores, `mode=ro` rewrites the `-shm` header and creates
// `-wal`/`-shm` next to a WAL-mode store that came without them, and fails in a
// folder it cannot write to; `immutable=1` never writes but ignores the `-wal`,
// so rows that live only there are lost; `readonly_shm=1` opens an existing
// `-shm` read-only (SQLite then rebuilds the WAL index in private memory when it
// cannot trust the shared one), but cannot open a missing `-shm` and still
// creates a `-wal` when there is none; and a rollback-journal store left with a
// hot `-journal` (a transaction cut short) cannot be read without rolling back.
// So the plan depends on which files exist.

import CSQLite
import Foundation

/// How to open one store file so that nothing beside it is ever written.
enum ReadOnlyOpening: Equatable {
    /// Open this SQLite URI read-only.
    case uri(String)
    /// The store has a non-empty `-wal` but no `-shm`, or a non-empty `-journal`.
    /// SQLite cannot read the WAL without a `-shm` and creates one beside the
    /// store to do so, and reads past a hot journal only after rolling it back into
    /// the store; so pq copies the store with its `-wal` or `-journal` into a
    /// private temporary folder, opens the copy (where SQLite may write what it
    /// needs to), and deletes the folder when the connection closes. The copy
    /// costs the store's size in temporary space; the store's own files are only
    /// read.
    case privateCopy

    /// The plan for the store at `path`, from which of its files exist:
    ///
    /// | files beside the store                | plan                                   |
    /// |---------------------------------------|----------------------------------------|
    /// | a non-empty `-journal`                | a private copy                         |
    /// | a `-wal` (even empty) and a `-shm`    | `mode=ro&readonly_shm=1` (SQLite 3.22+) |
    /// | a non-empty `-wal`, no `-shm`         | a private copy                         |
    /// | no `-wal`, or an empty one and no `-shm` | `immutable=1` for a WAL-mode header, else `mode=ro` |
    ///
    /// With no `-wal` (or an empty one) the main file holds every row; a WAL-mode
    /// header (byte 19, the read version, equal to 2) would make even a read-only connection
    /// create the `-wal` and `-shm`, which `immutable=1` avoids. A rollback-journal
    /// store with no `-wal` is opened `mode=ro`, which writes nothing.
    static func plan(forStoreAt path: String) -> ReadOnlyOpening {
        let files = FileManager.default
        let journalSize = (try? files.attributesOfItem(atPath: path + "-journal"))?[.size] as? UInt64
        if let journalSize, journalSize > 0 { return .privateCopy }
        let walSize = (try? files.attributesOfItem(atPath: path + "-wal"))?[.size] as? UInt64
        let hasShm = files.fileExists(atPath: path + "-shm")
        switch (walSize, hasShm) {
        case (.some, true) where readsSharedMemoryReadOnly:
            return .uri(uri(for: path, query: "mode=ro&readonly_shm=1"))
        case (.some(let size), true) where size > 0:
            return .privateCopy
        case (.some(let size), false) where size > 0:
            return .privateCopy
        default:
            return .uri(uri(for: path, query: hasWALHeader(path) ? "immutable=1" : "mode=ro"))
        }
    }

    /// Whether this SQLite honours `readonly_shm=1`: 3.22.0 and later (the system's
    /// is 3.40 on Debian 12); an older one would write the `-shm`, so pq reads a
    /// private copy instead.
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
