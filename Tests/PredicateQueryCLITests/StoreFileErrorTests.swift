// The `pq` binary on files that are not stores it can read (issue 23, item 5): a
// FIFO is refused at once (it used to hang), a folder and a device are named as
// such, and a store pq may not read says "permission denied" (run as nobody, since
// root reads any file), each with exit status 2 (as for a store that is not there) and nothing on standard output.

import Foundation
import Testing

struct StoreFileErrorTests {
    @Test func aFIFOAFolderAndADeviceAreRefusedAtOnce() throws {
        let folder = URL(fileURLWithPath: "/tmp/pq-store-errors-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let fifo = folder.appendingPathComponent("fifo.sqlite").path
        #expect(mkfifo(fifo, 0o644) == 0)
        let clock = ContinuousClock()
        for (path, expected) in [
            (fifo, "pq: '\(fifo)' is a FIFO (a named pipe), not a store file: pq reads only regular files\n"),
            (folder.path, "pq: '\(folder.path)' is a folder, not a store file\n"),
            ("/dev/zero", "pq: '/dev/zero' is a device, not a store file: pq reads only regular files\n"),
        ] {
            let start = clock.now
            let result = try PQProcess.run(["--store", path, "--count", "TRUEPREDICATE"])
            #expect(result.error == expected)
            #expect(result.status == 2 && result.output.isEmpty)  // 2, as for a store that is not there
            #expect(clock.now - start < .seconds(10), "\(path) took \(clock.now - start)")
        }
    }

    @Test func aStoreNobodyMayReadSaysPermissionDenied() throws {
        guard let drop = ReadOnlyStoreTests.dropPrivileges else { return }
        let folder = URL(fileURLWithPath: "/tmp/pq-store-errors-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: folder.path)
        let store = folder.appendingPathComponent("private.sqlite").path
        let made = try PQProcess.run(["--store-path"])
        try FileManager.default.copyItem(atPath: made.output.trimmingCharacters(in: .whitespacesAndNewlines), toPath: store)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: store)
        let result = try ReadOnlyStoreTests.run(drop + [PQProcess.executable.path, "--store", store, "--count", "TRUEPREDICATE"])
        #expect(result.error == "pq: cannot read '\(store)': permission denied\n")
        #expect(result.status == 2)
    }
}
