// The `pq` binary on stores it cannot write to: run as an unprivileged user (the
// tests run as root, which ignores permission bits) on a WAL store in a folder
// with mode 555, on a tmpfs mounted read-only (read-only media), and on the Core
// Data corpus in place. Every row is seen, rows that live only in the WAL
// included, and no byte of any file changes and no file appears.

import Foundation
import PredicateQuery
import PredicateQueryExamples
import PredicateQuerySQLite
import Testing

struct ReadOnlyStoreTests {
    /// The command that runs a program as the unprivileged user `nobody`, if this
    /// machine has one that works; nil (with a printed notice) if not.
    static let dropPrivileges: [String]? = {
        let candidates = [
            ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"],
            ["/usr/sbin/runuser", "-u", "nobody", "--"],
        ]
        for prefix in candidates where FileManager.default.isExecutableFile(atPath: prefix[0]) {
            if let result = try? run(prefix + ["/usr/bin/id", "-u"]), result.status == 0,
                result.output.trimmingCharacters(in: .whitespacesAndNewlines) != "0"
            {
                return prefix
            }
        }
        print("notice: neither setpriv nor runuser can run a program as nobody; skipping the read-only folder tests")
        return nil
    }()

    /// Runs `arguments` (a program and its arguments) and captures what it prints.
    static func run(_ arguments: [String]) throws -> PQResult {
        try PQProcess.capture(
            URL(fileURLWithPath: arguments[0]), Array(arguments.dropFirst()), environment: ["TMPDIR": "/tmp"])
    }

    /// Every file in `folder`, by name, with its bytes.
    static func snapshot(_ folder: String) throws -> [String: Data] {
        var files: [String: Data] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: folder) {
            files[name] = try Data(contentsOf: URL(fileURLWithPath: folder + "/" + name))
        }
        return files
    }

    /// A budgets store in WAL mode in a new folder of `parent`: 2 budgets in the
    /// main file and 3 only in the `-wal` (the writer is still open while its files
    /// are copied), with the sidecars named in `keep`; the folder and files are then
    /// made read-only (555 and 444).
    static func walStore(in parent: URL, keep: [String]) throws -> String {
        let source = parent.appendingPathComponent("source-\(UUID().uuidString)")
        let target = parent.appendingPathComponent("store-\(UUID().uuidString)")
        for folder in [source, target] {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        }
        let writer = try SQLiteStore.create(
            at: source.appendingPathComponent("budgets.sqlite").path, schema: ExampleSchemas.budgets, layout: .plain)
        try writer.execute("PRAGMA journal_mode = WAL; PRAGMA wal_autocheckpoint = 0")
        try writer.execute("INSERT INTO \"Budget\"(\"name\", \"limit\") VALUES ('Rent', 1200), ('Travel', 900)")
        try writer.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        try writer.execute("INSERT INTO \"Budget\"(\"name\", \"limit\") VALUES ('Food', 400), ('Books', 50), ('Gym', 30)")
        for suffix in [""] + keep {
            try FileManager.default.copyItem(
                at: source.appendingPathComponent("budgets.sqlite" + suffix),
                to: target.appendingPathComponent("budgets.sqlite" + suffix))
            try FileManager.default.setAttributes(
                [.posixPermissions: 0o444], ofItemAtPath: target.appendingPathComponent("budgets.sqlite" + suffix).path)
        }
        withExtendedLifetime(writer) {}
        try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: target.path)
        return target.appendingPathComponent("budgets.sqlite").path
    }

    @Test(arguments: [["-wal", "-shm"], ["-wal"], ["-shm"], []])
    func walStoreInAReadOnlyFolder(keep: [String]) throws {
        guard let drop = Self.dropPrivileges else { return }
        let parent = URL(fileURLWithPath: "/tmp/pq-readonly-tests-\(UUID().uuidString)")
        defer {
            for item in (try? FileManager.default.contentsOfDirectory(atPath: parent.path)) ?? [] {
                try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: parent.path + "/" + item)
            }
            try? FileManager.default.removeItem(at: parent)
        }
        let path = try Self.walStore(in: parent, keep: keep)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: parent.path)
        let folder = (path as NSString).deletingLastPathComponent
        let before = try Self.snapshot(folder)
        let pq = PQProcess.executable.path
        let count = try Self.run(drop + [pq, "--store", path, "--entity", "Budget", "--count", "TRUEPREDICATE"])
        #expect(count.status == 0, "\(count.error)")
        // The WAL rows are seen whenever the -wal came with the store.
        #expect(count.output == (keep.contains("-wal") ? "5\n" : "2\n"), "\(count.error)")
        let rows = try Self.run(drop + [pq, "--store", path, "--format", "csv", "Budget sort by name"])
        #expect(rows.status == 0, "\(rows.error)")
        #expect(rows.output.contains("Rent") && rows.output.contains("Travel"))
        #expect(rows.output.contains("Gym") == keep.contains("-wal"))
        #expect(try Self.snapshot(folder) == before, "a file changed or appeared beside the store")
    }

    /// Read-only media: the WAL stores (with both sidecars, with a -wal only, with
    /// neither) on a tmpfs remounted read-only, in a private mount namespace
    /// (`unshare -m`) that ends with the test; skipped with a notice where this
    /// machine does not allow it.
    @Test func walStoresOnReadOnlyMedia() throws {
        let parent = URL(fileURLWithPath: "/tmp/pq-readonly-media-\(UUID().uuidString)")
        defer {
            for item in (try? FileManager.default.contentsOfDirectory(atPath: parent.path)) ?? [] {
                try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: parent.path + "/" + item)
            }
            try? FileManager.default.removeItem(at: parent)
        }
        var stores: [String] = []
        for keep in [["-wal", "-shm"], ["-wal"], []] {
            stores.append((try Self.walStore(in: parent, keep: keep) as NSString).deletingLastPathComponent)
        }
        let media = parent.appendingPathComponent("media").path
        var script = "set -e; mkdir -p '\(media)'; mount -t tmpfs -o size=8m tmpfs '\(media)'\n"
        for (index, folder) in stores.enumerated() { script += "cp -a '\(folder)' '\(media)/\(index)'\n" }
        script += "mount -o remount,ro '\(media)'\n"
        script += "cd '\(media)'; before=$(find . -type f | sort | xargs sha256sum)\n"
        for index in stores.indices {
            script +=
                "echo \"count \(index) $('\(PQProcess.executable.path)' --store \(index)/budgets.sqlite --entity Budget --count TRUEPREDICATE 2>&1)\"\n"
        }
        // Names and hashes of every file: a changed byte or a new file shows.
        script += "after=$(find . -type f | sort | xargs sha256sum)\n"
        script += "[ \"$before\" = \"$after\" ] && echo unchanged || echo changed\n"
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/unshare"),
            let probe = try? Self.run(["/usr/bin/unshare", "-m", "/bin/sh", "-c", "mount -t tmpfs tmpfs /mnt && umount /mnt"]),
            probe.status == 0
        else {
            print("notice: this machine cannot mount a tmpfs in a private mount namespace; skipping the read-only media test")
            return
        }
        let result = try Self.run(["/usr/bin/unshare", "-m", "/bin/sh", "-c", script])
        #expect(result.status == 0, "\(result.error)")
        let lines = result.output.split(separator: "\n").map(String.init)
        #expect(lines.contains("count 0 5"), "-wal and -shm: \(lines)")
        #expect(lines.contains("count 1 5"), "-wal only: \(lines)")
        #expect(lines.contains("count 2 2"), "neither: \(lines)")
        #expect(lines.last == "unchanged", "\(lines)")
    }

    static let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("shared/corpus/coredata/stores")

    /// Every corpus store (read-only files in read-only folders), opened in place by
    /// pq as an unprivileged user: pq gets past opening the file (whatever it then
    /// says about the store's model), and every file is byte-identical afterwards.
    @Test func corpusStoresOpenedInPlaceAreLeftUntouched() throws {
        let root = Self.corpus.path
        guard FileManager.default.fileExists(atPath: root) else {
            print("notice: \(root) is missing; skipping the in-place corpus test")
            return
        }
        guard let drop = Self.dropPrivileges else { return }
        let folders = try FileManager.default.contentsOfDirectory(atPath: root).sorted()
        var before: [String: [String: Data]] = [:]
        for folder in folders { before[folder] = try Self.snapshot(root + "/" + folder) }
        var stores = 0
        for folder in folders {
            for name in (before[folder] ?? [:]).keys.sorted() where name.hasSuffix(".sqlite") {
                let path = root + "/" + folder + "/" + name
                for arguments in [["--count", "TRUEPREDICATE"], [".entities"]] {
                    let result = try Self.run(drop + [PQProcess.executable.path, "--store", path] + arguments)
                    #expect(!result.error.contains("cannot open"), "\(folder)/\(name): \(result.error)")
                    #expect(!result.error.contains("not a SQLite database"), "\(folder)/\(name): \(result.error)")
                }
                stores += 1
            }
        }
        #expect(stores > 0)
        for folder in folders {
            #expect(try Self.snapshot(root + "/" + folder) == before[folder], "\(folder): a file changed or appeared")
        }
    }
}
