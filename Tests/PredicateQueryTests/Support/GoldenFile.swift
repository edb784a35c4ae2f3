// Golden files: plain-text cases anyone can read and edit.
//
//     # a comment
//     > limit > 100 && name contains 'Vac'
//     @ Budget                      (optional: the entity to check against)
//     entity Budget
//     where (and …)
//                                   (a blank line ends the case)
//
// Run the tests with PQ_UPDATE_GOLDEN=1 to rewrite the expected outputs from what
// the code produces now; then read the diff before committing it.

import Foundation
import Testing

/// One case of a golden file.
struct GoldenCase: CustomTestStringConvertible, Sendable {
    var input: String
    /// The `@` line, if any.
    var entity: String?
    var expected: String
    /// The file and 1-based line of the `>` line, for failure messages.
    var file: String
    var line: Int

    var testDescription: String { "\(file):\(line) \(input)" }
}

enum GoldenFile {
    /// The directory holding this test target's golden files.
    static let directory: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Golden")

    /// The repository root (the directory holding Package.swift).
    static let repositoryRoot: URL =
        directory
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static var isUpdating: Bool { ProcessInfo.processInfo.environment["PQ_UPDATE_GOLDEN"] == "1" }

    /// Reads the cases of `Golden/<path>`.
    static func cases(_ path: String) -> [GoldenCase] {
        let url = directory.appendingPathComponent(path)
        guard let text = try? String(contentsOf: url, encoding: .utf8) else { return [] }
        var cases: [GoldenCase] = []
        var current: GoldenCase?
        var body: [String] = []
        func finish() {
            if var done = current {
                done.expected = body.joined(separator: "\n")
                cases.append(done)
            }
            current = nil
            body = []
        }
        for (index, line) in text.components(separatedBy: "\n").enumerated() {
            if line.hasPrefix("> ") {
                finish()
                current = GoldenCase(input: String(line.dropFirst(2)), entity: nil, expected: "", file: path, line: index + 1)
            } else if line.hasPrefix("@ "), current != nil, body.isEmpty, current?.entity == nil {
                current?.entity = String(line.dropFirst(2))
            } else if line.isEmpty || (line.hasPrefix("#") && current == nil) {
                finish()
            } else if current != nil {
                body.append(line)
            }
        }
        finish()
        return cases
    }

    /// Rewrites `Golden/<path>` with new expected outputs (keyed by the line of each
    /// case's `>` line), keeping comments and order.
    static func update(_ path: String, outputs: [Int: String]) {
        let url = directory.appendingPathComponent(path)
        guard let text = try? String(contentsOf: url, encoding: .utf8) else { return }
        let old = text.components(separatedBy: "\n")
        var new: [String] = []
        var index = 0
        while index < old.count {
            let line = old[index]
            new.append(line)
            index += 1
            guard line.hasPrefix("> "), let output = outputs[index] else { continue }
            if index < old.count, old[index].hasPrefix("@ ") {
                new.append(old[index])
                index += 1
            }
            new += output.isEmpty ? [] : output.components(separatedBy: "\n")
            while index < old.count, !old[index].isEmpty { index += 1 }
        }
        try? new.joined(separator: "\n").write(to: url, atomically: true, encoding: .utf8)
    }
}
