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
public struct GoldenCase: CustomTestStringConvertible, Sendable {
    public var input: String
    /// The `@` line, if any.
    public var entity: String?
    public var expected: String
    /// The file and 1-based line of the `>` line, for failure messages.
    public var file: String
    public var line: Int

    public var testDescription: String { "\(file):\(line) \(input)" }
}

public enum GoldenFile {
    /// The repository root (the directory holding Package.swift).
    public static let repositoryRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The golden files of a test target: Tests/<target>/Golden.
    public static func directory(of target: String) -> URL {
        repositoryRoot.appendingPathComponent("Tests").appendingPathComponent(target).appendingPathComponent("Golden")
    }

    public static var isUpdating: Bool { ProcessInfo.processInfo.environment["PQ_UPDATE_GOLDEN"] == "1" }

    /// Reads the cases of `Tests/<target>/Golden/<path>`.
    public static func cases(_ path: String, target: String) -> [GoldenCase] {
        let url = directory(of: target).appendingPathComponent(path)
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
    public static func update(_ path: String, target: String, outputs: [Int: String]) {
        let url = directory(of: target).appendingPathComponent(path)
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
