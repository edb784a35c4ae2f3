// Runs the built `pq` binary as a user would, and captures what it prints.

import Foundation
import PredicateQueryTestSupport

struct PQResult {
    var status: Int32
    var output: String
    var error: String
}

enum PQProcess {
    /// The `pq` executable next to the test bundle (SwiftPM builds it for these tests).
    static var executable: URL {
        let candidates = [
            Bundle.main.executableURL?.deletingLastPathComponent(),
            Bundle.main.bundleURL.deletingLastPathComponent(),
            GoldenFile.repositoryRoot.appendingPathComponent(".build/debug"),
        ].compactMap { $0 }
        for directory in candidates {
            let url = directory.appendingPathComponent("pq")
            if FileManager.default.isExecutableFile(atPath: url.path) { return url }
        }
        return GoldenFile.repositoryRoot.appendingPathComponent(".build/debug/pq")
    }

    /// A cache folder shared by the tests of one run, so the example store is built once.
    static let cacheDirectory: URL = {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent(
            "pq-cli-tests-\(ProcessInfo.processInfo.processIdentifier)")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }()

    /// Runs `pq` with `arguments`, feeding `input` to standard input (a pipe, so not a terminal).
    static func run(
        _ arguments: [String], input: String = "", environment extra: [String: String] = [:], directory: URL? = nil
    ) throws -> PQResult {
        var environment = ["PQ_CACHE_DIR": cacheDirectory.path]
        for (key, value) in extra { environment[key] = value }
        return try capture(executable, arguments, environment: environment, input: input, directory: directory)
    }

    /// Runs `pq` with `arguments` and sends it SIGINT (as Ctrl-C does) after `delay`.
    static func run(_ arguments: [String], interruptingAfter delay: Duration, with signal: Int32 = SIGINT) throws -> PQResult {
        try capture(
            executable, arguments, environment: ["PQ_CACHE_DIR": cacheDirectory.path], interruptingAfter: delay, with: signal)
    }

    /// Runs any program and captures what it prints: this process's environment with
    /// no REPL history and `environment` on top; `input` on a pipe, or no standard
    /// input at all when nil.
    static func capture(
        _ program: URL, _ arguments: [String], environment extra: [String: String] = [:], input: String? = nil,
        directory: URL? = nil, interruptingAfter delay: Duration? = nil, with signal: Int32 = SIGINT
    ) throws -> PQResult {
        let process = Process()
        process.executableURL = program
        if let directory { process.currentDirectoryURL = directory }
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment["PQ_HISTORY"] = ""
        for (key, value) in extra { environment[key] = value }
        process.environment = environment
        let stdin = Pipe()
        let stdout = Pipe()
        let stderr = Pipe()
        process.standardInput = input == nil ? FileHandle.nullDevice : stdin
        process.standardOutput = stdout
        process.standardError = stderr
        try process.run()
        if let input {
            stdin.fileHandleForWriting.write(Data(input.utf8))
            try stdin.fileHandleForWriting.close()
        }
        if let delay {
            Thread.sleep(forTimeInterval: Double(delay.components.seconds) + Double(delay.components.attoseconds) / 1e18)
            kill(process.processIdentifier, signal)
        }
        let output = stdout.fileHandleForReading.readDataToEndOfFile()
        let error = stderr.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return PQResult(
            status: process.terminationStatus, output: String(decoding: output, as: UTF8.self),
            error: String(decoding: error, as: UTF8.self))
    }
}
