// What is wrong with a file given as a store, in words that name the cause: a
// folder, a FIFO or a device is refused before SQLite opens it (opening a FIFO
// waits for a writer, forever); a file pq may not read says so; a file SQLite
// cannot read is told apart as not SQLite at all, truncated (its header promises
// more pages than the file holds), or otherwise damaged. SQLite itself says "not a
// database" or "disk I/O error" for all of these.

import Foundation

enum StoreFileDiagnosis {
    /// Refuses a path that is not a regular file pq may read, before anything opens it.
    static func checkBeforeOpening(_ path: String) throws(StoreError) {
        var info = stat()
        guard stat(path, &info) == 0 else {
            if errno == EACCES {
                throw StoreError("cannot read '\(path)': permission denied (on a folder above it)", kind: .unavailable)
            }
            throw StoreError("no store at '\(path)'", kind: .unavailable)
        }
        let type = info.st_mode & S_IFMT
        switch type {
        case S_IFREG:
            break
        case S_IFDIR:
            throw StoreError("'\(path)' is a folder, not a store file", kind: .unavailable)
        case S_IFIFO:
            throw StoreError(
                "'\(path)' is a FIFO (a named pipe), not a store file: pq reads only regular files", kind: .unavailable)
        case S_IFCHR, S_IFBLK:
            throw StoreError("'\(path)' is a device, not a store file: pq reads only regular files", kind: .unavailable)
        default:
            throw StoreError("'\(path)' is not a regular file: pq reads only regular files", kind: .unavailable)
        }
        guard access(path, R_OK) == 0 else {
            throw StoreError("cannot read '\(path)': permission denied", kind: .unavailable)
        }
    }

    /// SQLite's file header: its first 16 bytes.
    static let magic = Array("SQLite format 3\u{0}".utf8)

    /// Why SQLite could not read the file at `path` as a database, in pq's words;
    /// `sqliteMessage` is what SQLite said.
    static func unreadable(_ path: String, sqliteMessage: String) -> String {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            return "cannot read '\(path)': \(sqliteMessage)"
        }
        defer { try? handle.close() }
        let header = [UInt8]((try? handle.read(upToCount: 100)) ?? Data())
        let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? UInt64) ?? 0
        guard header.count >= magic.count, Array(header.prefix(magic.count)) == magic else {
            return "'\(path)' is not a SQLite database (it does not begin with SQLite's header)"
        }
        guard header.count == 100 else {
            return "'\(path)' is truncated: it ends inside SQLite's 100-byte header (\(size) bytes)"
        }
        if let expected = declaredSize(header), size < expected {
            return
                "'\(path)' is truncated: its header says it holds \(expected) bytes, the file has \(size) (a copy cut short?)"
        }
        return "'\(path)' is a damaged SQLite database: \(sqliteMessage)"
    }

    /// The database size the header declares (page size × page count), when the
    /// header says that count is valid (its change counter matches the "version valid
    /// for" number, as SQLite 3.7.0 and later write it).
    static func declaredSize(_ header: [UInt8]) -> UInt64? {
        func big(_ offset: Int, _ count: Int) -> UInt64 {
            header[offset..<offset + count].reduce(0) { $0 << 8 | UInt64($1) }
        }
        let rawPageSize = big(16, 2)
        let pageSize: UInt64 = rawPageSize == 1 ? 65_536 : rawPageSize
        let pages = big(28, 4)
        guard pageSize >= 512, pages > 0, big(24, 4) == big(92, 4) else { return nil }
        return pageSize * pages
    }
}
