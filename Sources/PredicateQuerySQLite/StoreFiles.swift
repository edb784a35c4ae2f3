// What pq saw of a store's files when it opened them: the store and the `-wal`,
// `-shm` and `-journal` beside it, each by identity (device and inode), size and
// change times. A connection that stays open compares what it saw with what is
// there before each query, and opens the store again when the difference means
// its way of reading no longer shows every commit (see `ReadOnlyOpening`).
//
// Comparing costs four `stat` calls (a few microseconds) per query.

import Foundation

/// The state of one file: nil in `StoreFiles` when the file does not exist.
struct FileIdentity: Equatable {
    var device: UInt64
    var inode: UInt64
    var size: Int64
    /// Last modification and last status change, in nanoseconds since 1970.
    var modified: Int64
    var changed: Int64

    /// The file at `path` as `stat` sees it; nil if there is none.
    init?(path: String) {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        device = UInt64(truncatingIfNeeded: info.st_dev)
        inode = UInt64(truncatingIfNeeded: info.st_ino)
        size = Int64(info.st_size)
        #if canImport(Darwin)
            modified = Self.nanoseconds(info.st_mtimespec)
            changed = Self.nanoseconds(info.st_ctimespec)
        #else
            modified = Self.nanoseconds(info.st_mtim)
            changed = Self.nanoseconds(info.st_ctim)
        #endif
    }

    private static func nanoseconds(_ time: timespec) -> Int64 {
        Int64(time.tv_sec).multipliedReportingOverflow(by: 1_000_000_000).partialValue &+ Int64(time.tv_nsec)
    }

    /// The same file (not a new one under the same name), whatever its content.
    func isSameFile(as other: FileIdentity) -> Bool { device == other.device && inode == other.inode }
}

/// The files of one store, as seen at one moment.
struct StoreFiles: Equatable {
    var store: FileIdentity?
    var wal: FileIdentity?
    var shm: FileIdentity?
    var journal: FileIdentity?

    /// How much of a change makes a connection open the store again.
    enum Watch: Equatable {
        /// Any change to any of the files: a connection that reads the store as it was
        /// (SQLite's `immutable=1`, or a private copy) must look again.
        case everything
        /// The `-wal` or `-shm` appearing, disappearing or being replaced: a live
        /// read-only connection keeps up with commits itself, but not with the files
        /// it reads a WAL store through being deleted or made anew under it (the last
        /// writer closing deletes them, the next one creates new ones).
        case sidecars
        /// The store file itself changing: what tells whether a read of the file as it
        /// was (`immutable=1`) stayed one version. A `-wal` or `-shm` that a writer
        /// creates meanwhile leaves the file as it was, so that read is still whole
        /// (it shows the store as of the query's start); a checkpoint, or a commit on a
        /// rollback-journal store, writes into the file itself.
        case storeFile
    }

    /// The files beside the store at `path`, now.
    init(observing path: String) {
        store = FileIdentity(path: path)
        wal = FileIdentity(path: path + "-wal")
        shm = FileIdentity(path: path + "-shm")
        journal = FileIdentity(path: path + "-journal")
    }

    /// Whether `now` differs from what was seen in a way `watch` cares about.
    func hasChanged(to now: StoreFiles, watching watch: Watch) -> Bool {
        switch watch {
        case .everything:
            return self != now
        case .sidecars:
            return !Self.isSameFile(wal, now.wal) || !Self.isSameFile(shm, now.shm)
        case .storeFile:
            return store != now.store
        }
    }

    private static func isSameFile(_ before: FileIdentity?, _ after: FileIdentity?) -> Bool {
        switch (before, after) {
        case (nil, nil): true
        case (let before?, let after?): before.isSameFile(as: after)
        default: false
        }
    }
}
