// pq's REPL on a real pseudo-terminal, as a user has it: `script` gives pq a
// terminal, the test types into it (Ctrl-C is the byte 0x03, which the terminal
// turns into SIGINT for pq's process group) and reads what pq prints.

import Foundation

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
    /// true if it did. Async, sleeping between looks, so a long session does not hold
    /// one of Swift's few task threads (other tests' tasks, timed ones among them,
    /// need them to resume on time).
    func waitFor(_ text: String, count: Int = 1, timeout: Duration = .seconds(10)) async -> Bool {
        let end = ContinuousClock.now + timeout
        while ContinuousClock.now < end {
            if self.text.components(separatedBy: text).count - 1 >= count { return true }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return false
    }

    /// Sleeps without holding a task thread.
    static func pause(_ duration: Duration) async {
        try? await Task.sleep(for: duration)
    }

    /// Closes the terminal's input and waits (on a thread of its own) for pq to exit;
    /// its exit status.
    func finish() async -> Int32 {
        try? input.fileHandleForWriting.close()
        let process = self.process
        let status = await withCheckedContinuation { (continuation: CheckedContinuation<Int32, Never>) in
            DispatchQueue.global().async {
                process.waitUntilExit()
                continuation.resume(returning: process.terminationStatus)
            }
        }
        output.fileHandleForReading.readabilityHandler = nil
        return status
    }

    /// Ends pq with `signal` if it still runs.
    func kill(_ signal: Int32 = SIGKILL) {
        if process.isRunning { Foundation.kill(process.processIdentifier, signal) }
    }
}
