// pq's REPL on a real pseudo-terminal, as a user has it: `script` gives pq a
// terminal, the test types into it (Ctrl-C is the byte 0x03, which the terminal
// turns into SIGINT for pq's process group) and reads what pq prints.

import Foundation
import PredicateQueryTestSupport

final class TerminalSession: @unchecked Sendable {
    private let process = Process()
    private let input = Pipe()
    private let output = Pipe()
    private let lock = NSLock()
    private var received = Data()

    /// Whether this machine has `script` to give pq a terminal.
    static var isAvailable: Bool { FileManager.default.isExecutableFile(atPath: "/usr/bin/script") }

    /// Starts `pq` with `arguments` on a new terminal.
    init(pq arguments: [String], environment extra: [String: String] = [:]) throws {
        process.executableURL = URL(fileURLWithPath: "/usr/bin/script")
        // `exec`: pq replaces the shell `script` starts, so no shell shares the
        // terminal's foreground group (see PostgresInterruptTests).
        let quoted = ([PQProcess.executable.path] + arguments).map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }
        process.arguments = ["-q", "-f", "-e", "-c", "exec " + quoted.joined(separator: " "), "/dev/null"]
        var environment = ProcessInfo.processInfo.environment
        environment["SHELL"] = "/bin/sh"
        environment["PQ_HISTORY"] = ""
        environment["PQ_CACHE_DIR"] = PQProcess.cacheDirectory.path
        for (key, value) in extra { environment[key] = value }
        process.environment = environment
        process.standardInput = input
        process.standardOutput = output
        process.standardError = output
        output.fileHandleForReading.readabilityHandler = { [weak self] handle in
            let data = handle.availableData
            guard let self, !data.isEmpty else { return }
            self.lock.withLock { self.received.append(data) }
        }
        try process.run()
    }

    /// Everything pq printed so far.
    var text: String { lock.withLock { String(decoding: received, as: UTF8.self) } }

    /// Types `text` (a carriage return ends a line, as the Return key sends it).
    func type(_ text: String) { input.fileHandleForWriting.write(Data(text.utf8)) }

    /// Waits until `text` has appeared `count` times in the output, or `timeout` passes;
    /// true if it did. Blocking: tests run a session on a thread of their own
    /// (`TerminalSession.offTaskThreads`), never on one of Swift's few task threads,
    /// which other tests' tasks (timed ones among them) need, and which busy tests
    /// could keep from this one.
    func waitFor(_ text: String, count: Int = 1, timeout: Duration = .seconds(10)) -> Bool {
        let end = ContinuousClock.now + timeout
        while true {
            if self.text.components(separatedBy: text).count - 1 >= count { return true }
            if ContinuousClock.now >= end { return false }
            Thread.sleep(forTimeInterval: 0.01)
        }
    }

    /// Closes the terminal's input and waits for pq to exit; its exit status.
    func finish() -> Int32 {
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
        output.fileHandleForReading.readabilityHandler = nil
        return process.terminationStatus
    }

    /// Runs `work` (a whole terminal session) on a dispatch thread and waits for it
    /// without holding a task thread; the test checks what it returns, at once when the
    /// session ends (`resumePromptlyAfterWaits`).
    static func offTaskThreads<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        resumePromptlyAfterWaits()
        return try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(with: Result { try work() }) }
        }
    }

    /// Ends pq with `signal` if it still runs.
    func kill(_ signal: Int32 = SIGKILL) {
        if process.isRunning { Foundation.kill(process.processIdentifier, signal) }
    }
}
