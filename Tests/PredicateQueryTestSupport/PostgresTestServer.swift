// A throwaway PostgreSQL server for tests: a fresh cluster in a temporary folder,
// the server listening on a Unix socket there only (no TCP port), stopped and
// removed when the test is done, also when it fails. PostgreSQL refuses to run as
// root, so under root the server runs as the `postgres` user (`runuser`). Where no
// server can be started, `start` returns nil and says why, and the test skips with
// a printed notice.
//
// `initdb` runs once per test process, into a template cluster that is never
// started; each server's cluster is a copy of it (`cp -a`, about 0.1 s, against
// about 0.7 s of CPU for an `initdb`: a test run starts some 45 servers).

import Foundation

/// A running throwaway PostgreSQL server.
public final class PostgresTestServer: @unchecked Sendable {
    /// The folder holding the data directory, the socket and the log.
    public let folder: String
    private let binaries: String
    private let runAs: String?

    /// libpq's connection string for `database` on this server, its sessions with
    /// `searchPath` and each of `settings` (names and values of server settings,
    /// such as `enable_nestloop`, `off`; letters, digits and `_` only).
    public func conninfo(
        database: String = "postgres", searchPath: String? = nil, settings: [(String, String)] = []
    ) -> String {
        var text = "host=\(folder) port=5432 user=pq dbname=\(database)"
        let options = (searchPath.map { [("search_path", $0)] } ?? []) + settings
        if !options.isEmpty { text += " options='" + options.map { "-c\($0)=\($1)" }.joined(separator: " ") + "'" }
        return text
    }

    /// A `postgresql://` URL for `database` on this server (the socket folder as host).
    public func url(database: String = "postgres") -> String {
        let host = folder.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? folder
        return "postgresql://pq@\(host):5432/\(database)"
    }

    private init(folder: String, binaries: String, runAs: String?) {
        self.folder = folder
        self.binaries = binaries
        self.runAs = runAs
    }

    /// The newest installed server's `bin` folder (`PQ_POSTGRES_BIN` overrides).
    static func binaryFolder() -> String? {
        if let given = ProcessInfo.processInfo.environment["PQ_POSTGRES_BIN"] { return given }
        let root = "/usr/lib/postgresql"
        let versions = (try? FileManager.default.contentsOfDirectory(atPath: root)) ?? []
        let sorted = versions.compactMap { Int($0) }.sorted()
        for version in sorted.reversed() where FileManager.default.isExecutableFile(atPath: "\(root)/\(version)/bin/initdb") {
            return "\(root)/\(version)/bin"
        }
        return nil
    }

    /// Where clusters live: memory (`/dev/shm`) where the system has it, else the
    /// temporary folder. A cluster is some 950 files; on a disk file system, making
    /// them (the copy of the template, `CREATE DATABASE`) cost the whole test run about
    /// 25 s of CPU in the kernel's inode allocation under load (perf: `cp` alone about
    /// 0.34 s a copy, against 0.05 s on an idle machine), none of which memory needs.
    static let scratchFolder: String = {
        var status = stat()
        if stat("/dev/shm", &status) == 0, status.st_mode & S_IFMT == S_IFDIR, access("/dev/shm", W_OK) == 0 {
            return "/dev/shm/"
        }
        return NSTemporaryDirectory()
    }()

    /// Starts a server, or returns nil after printing why it cannot.
    public static func start() -> PostgresTestServer? {
        guard let binaries = binaryFolder() else {
            print("notice: no PostgreSQL server is installed (initdb not found); skipping the PostgreSQL tests")
            return nil
        }
        let runAs: String? = getuid() == 0 ? "postgres" : nil
        let template = scratchFolder + "pq-postgres-XXXXXX"
        var buffer = Array(template.utf8CString)
        guard let made = mkdtemp(&buffer) else {
            print("notice: cannot make a temporary folder for PostgreSQL; skipping the PostgreSQL tests")
            return nil
        }
        let folder = String(cString: made)
        let server = PostgresTestServer(folder: folder, binaries: binaries, runAs: runAs)
        if let runAs {
            guard let user = getpwnam(runAs) else {
                print("notice: running as root and there is no '\(runAs)' user to run PostgreSQL; skipping")
                try? FileManager.default.removeItem(atPath: folder)
                return nil
            }
            chown(folder, user.pointee.pw_uid, user.pointee.pw_gid)
        }
        chmod(folder, 0o700)
        // A copy of the template cluster; where there is none, a cluster of its own.
        let initialized =
            Template.cluster(binaries: binaries, runAs: runAs).map {
                server.run(path: "/bin/cp", program: "cp", ["-a", $0, folder + "/data"])
            } ?? server.initializeCluster(at: folder + "/data")
        let started =
            initialized
            && server.run(
                "pg_ctl", ["start", "-w", "-D", folder + "/data", "-l", folder + "/log", "-o", server.serverOptions])
        guard started else {
            let log = (try? String(contentsOfFile: folder + "/log", encoding: .utf8)) ?? ""
            print("notice: the PostgreSQL server did not start; skipping the PostgreSQL tests\n\(log.suffix(2000))")
            server.stop()
            return nil
        }
        return server
    }

    /// Runs `initdb` for a new cluster at `path`; true if it succeeded.
    func initializeCluster(at path: String) -> Bool {
        run("initdb", ["-D", path, "-A", "trust", "-U", "pq", "-E", "UTF8", "--locale=C.UTF-8", "--no-sync"])
    }

    /// The cluster every server of this process starts from a copy of: made by
    /// `initdb` on first use, never started, removed when the process exits.
    private enum Template {
        struct Key: Hashable {
            var binaries: String
            var runAs: String?
        }

        /// The clusters made so far (nil where `initdb` failed), and the folders to
        /// remove at exit; guarded by `lock`.
        nonisolated(unsafe) private static var clusters: [Key: String?] = [:]
        nonisolated(unsafe) private static var foldersToRemove: [String] = []
        private static let lock = NSLock()

        /// The template cluster's data folder for these binaries and user; nil if it could not be made.
        static func cluster(binaries: String, runAs: String?) -> String? {
            lock.lock()
            defer { lock.unlock() }
            let key = Key(binaries: binaries, runAs: runAs)
            if let made = clusters[key] { return made }
            let made = make(binaries: binaries, runAs: runAs)
            clusters[key] = made
            return made
        }

        /// Called with `lock` held.
        private static func make(binaries: String, runAs: String?) -> String? {
            var buffer = Array((PostgresTestServer.scratchFolder + "pq-postgres-template-XXXXXX").utf8CString)
            guard let made = mkdtemp(&buffer) else { return nil }
            let folder = String(cString: made)
            if foldersToRemove.isEmpty {
                atexit {
                    for folder in Template.foldersToRemove { try? FileManager.default.removeItem(atPath: folder) }
                }
            }
            foldersToRemove.append(folder)
            if let runAs, let user = getpwnam(runAs) { chown(folder, user.pointee.pw_uid, user.pointee.pw_gid) }
            chmod(folder, 0o700)
            let owner = PostgresTestServer(folder: folder, binaries: binaries, runAs: runAs)
            return owner.initializeCluster(at: folder + "/data") ? folder + "/data" : nil
        }
    }

    /// Runs `body` with a fresh server, stopped afterwards; nil (after a notice) when none can start.
    public static func with<T>(_ body: (PostgresTestServer) throws -> T) rethrows -> T? {
        guard let server = start() else { return nil }
        defer { server.stop() }
        return try body(server)
    }

    /// The server's own options: its socket in the folder, no TCP, no waiting for the disk.
    public var serverOptions: String {
        "-k \(folder) -c listen_addresses='' -c fsync=off -c synchronous_commit=off -c full_page_writes=off"
    }

    /// Restarts the server (a fast shutdown, which ends every session, then a start),
    /// as an administrator or a failover does under connected clients; true if it is up again.
    @discardableResult
    public func restart() -> Bool {
        run("pg_ctl", ["restart", "-w", "-m", "fast", "-D", folder + "/data", "-l", folder + "/log", "-o", serverOptions])
    }

    /// Stops the server (immediately) and removes its folder.
    public func stop() {
        if FileManager.default.fileExists(atPath: folder + "/data/postmaster.pid") {
            _ = run("pg_ctl", ["stop", "-D", folder + "/data", "-m", "immediate", "-w"])
        }
        try? FileManager.default.removeItem(atPath: folder)
    }

    /// Runs one of the server's programs (as the `postgres` user under root); true if it succeeded.
    /// (posix_spawn and waitpid, not Foundation's Process, whose wait can miss the
    /// exit of a child that leaves a server running behind it.)
    @discardableResult
    public func run(_ program: String, _ arguments: [String]) -> Bool {
        run(path: binaries + "/" + program, program: program, arguments)
    }

    /// Runs the program at `path` (as the `postgres` user under root), its output in
    /// the folder's `<program>.out`; true if it succeeded.
    func run(path: String, program: String, _ arguments: [String]) -> Bool {
        let argv = runAs.map { ["/usr/sbin/runuser", "-u", $0, "--", path] } ?? [path]
        let all = argv + arguments
        // Output goes to a file, never a pipe: the server pg_ctl starts keeps its
        // inherited descriptors open, so reading a pipe to its end would wait for it.
        let outputPath = folder + "/\(program).out"
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o666)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        Self.closeOtherDescriptors(&actions)
        let cArguments = all.map { strdup($0) } + [nil]
        defer { for argument in cArguments { free(argument) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, all[0], &actions, nil, cArguments, environ)
        guard spawned == 0 else {
            print("notice: cannot run \(program): error \(spawned)")
            return false
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        let succeeded = status & 0x7f == 0 && (status >> 8) & 0xff == 0
        if !succeeded {
            let text = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
            print("notice: \(program) failed: \(text.suffix(1000))")
        }
        return succeeded
    }

    /// Adds to `actions` the closing of every descriptor above standard error. The
    /// server pg_ctl starts lives on and keeps what it inherited: without this it
    /// held, for the rest of the run, whatever pipes the test process had open when
    /// it started, such as the pipe another test had just given a pq whose reader
    /// then left; pq never saw the reader go (a pipe is closed only when every reader
    /// has closed it), filled the pipe and waited, and the test timed out. Glibc 2.34
    /// and later close them all at the spawn (`addclosefrom_np`, looked up at run time:
    /// Swift's Glibc does not declare it); otherwise each descriptor open now is closed.
    /// (Linux only, where the tests' servers run.)
    static func closeOtherDescriptors(_ actions: inout posix_spawn_file_actions_t) {
        #if os(Linux)
            typealias CloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
            if let symbol = dlsym(nil, "posix_spawn_file_actions_addclosefrom_np"),  // nil: RTLD_DEFAULT on glibc
                unsafeBitCast(symbol, to: CloseFrom.self)(&actions, 3) == 0
            {
                return
            }
            let open = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
            for descriptor in open.compactMap({ Int32($0) }) where descriptor > 2 {
                posix_spawn_file_actions_addclose(&actions, descriptor)
            }
        #endif
    }
}

extension PostgresTestServer {
    /// Runs async `body` with a fresh server, stopped afterwards; nil (after a notice)
    /// when none can start. Starting and stopping (seconds of waiting for initdb and
    /// pg_ctl) happen on a thread of their own, not on one of Swift's few task
    /// threads, where they would stall every other test running meanwhile; and the
    /// test goes on at once after each wait (`offTaskThreads` raises its priority).
    public static func withAsync<T>(_ body: (PostgresTestServer) async throws -> T) async rethrows -> T? {
        guard let server = await offTaskThreads({ start() }) else { return nil }
        do {
            let result = try await body(server)
            await offTaskThreads { server.stop() }
            return result
        } catch {
            await offTaskThreads { server.stop() }
            throw error
        }
    }

    /// Runs blocking `work` on a dispatch thread and waits for it without holding a task
    /// thread; the task goes on at once when it is done (`resumePromptlyAfterWaits`).
    public static func offTaskThreads<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
        resumePromptlyAfterWaits()
        return await withCheckedContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(returning: work()) }
        }
    }

    /// Runs blocking, throwing `work` on a dispatch thread and waits for it without holding
    /// a task thread; the task goes on at once when it is done (`resumePromptlyAfterWaits`).
    public static func offTaskThreads<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        resumePromptlyAfterWaits()
        return try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(with: Result { try work() }) }
        }
    }
}
